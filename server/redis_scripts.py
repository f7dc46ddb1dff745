"""The Lua scripts of the Redis store: each runs atomically, on one table's keys.

Key names are in ``keys``; a table's keys share its hash tag, so each script
also runs on Redis Cluster.
"""

from __future__ import annotations

# KEYS: state, events, followers, the commit's fence. ARGV: version, commit id, data, seq,
# ttl ms, log limit, channel, status, committer's store id, parent commit id ('' for none),
# then (seq, event JSON) pairs. A fenced commit (see RESOLVE) is refused. Returns 1 (done)
# or 0 (stale: another version, or one another commit made).
# The update published (if another node follows) is the version, the commit id, the data
# and each event, one a line.
COMMIT = """
if redis.call('EXISTS', KEYS[4]) == 1 then
  return 0
end
local stored = tonumber(redis.call('HGET', KEYS[1], 'version') or '-1')
local version = tonumber(ARGV[1])
local last = redis.call('HGET', KEYS[1], 'commit')
if stored ~= version - 1 or (ARGV[10] ~= '' and last ~= ARGV[10]) then
  if stored == version and last == ARGV[2] then
    return 1
  end
  return 0
end
redis.call('HSET', KEYS[1], 'data', ARGV[3], 'version', ARGV[1], 'seq', ARGV[4],
           'commit', ARGV[2], 'status', ARGV[8])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
local parts = {ARGV[1], ARGV[2], ARGV[3]}
for i = 11, #ARGV, 2 do
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[6], ARGV[i] .. '-0', 'e', ARGV[i + 1])
  parts[#parts + 1] = ARGV[i + 1]
end
if #ARGV >= 11 or redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('PEXPIRE', KEYS[2], ARGV[5])
end
local time = redis.call('TIME')
local now = time[1] * 1000 + math.floor(time[2] / 1000)
local followers = redis.call('HGETALL', KEYS[3])
for i = 1, #followers, 2 do
  if followers[i] ~= ARGV[9] and tonumber(followers[i + 1]) > now then
    redis.call('SPUBLISH', ARGV[7], table.concat(parts, '\\n'))
    break
  end
end
return 1
"""

# KEYS: followers. ARGV: store id, ttl ms. Follow the table for ttl ms from now (Redis's clock).
FOLLOW = """
local time = redis.call('TIME')
local now = time[1] * 1000 + math.floor(time[2] / 1000)
redis.call('HSET', KEYS[1], ARGV[1], now + tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""

# KEYS: state. ARGV: version, commit id, data, seq, ttl ms, status. Returns 1 or 0 (exists).
CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('HGET', KEYS[1], 'commit') == ARGV[2] then return 1 end
  return 0
end
redis.call('HSET', KEYS[1], 'data', ARGV[3], 'version', ARGV[1], 'seq', ARGV[4],
           'commit', ARGV[2], 'status', ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
"""

# KEYS: state, events. ARGV: seq. Returns {last seq, entries after seq}.
EVENTS_SINCE = """
local last = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
return {last, redis.call('XRANGE', KEYS[2], tostring(tonumber(ARGV[1]) + 1), '+')}
"""

# KEYS: lease. ARGV: owner, ttl ms. Take a free lease or renew ours.
ACQUIRE = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if holder then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

# KEYS: lease. ARGV: owner. Release it only if it is ours.
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


# KEYS: state, the commit's fence. ARGV: commit id, fence ttl ms, the commit's version. After
# a commit whose reply was lost: fence it off (from now on it can never land), then say
# whether it had: 1 (it made its version), 0 (it did not, and never will), or -1 (cannot
# tell: the table is gone, or too many versions since for its list of recent commits).
RESOLVE = """
redis.call('SET', KEYS[2], '1', 'PX', ARGV[2])
local stored = tonumber(redis.call('HGET', KEYS[1], 'version') or '-1')
local version = tonumber(ARGV[3])
if stored < 0 then return -1 end
if stored < version then return 0 end
if stored == version and redis.call('HGET', KEYS[1], 'commit') == ARGV[1] then return 1 end
local commits = cjson.decode(redis.call('HGET', KEYS[1], 'data'))['commits'] or {}
local index = #commits - (stored - version)
if index < 1 then return -1 end
if commits[index] == ARGV[1] then return 1 end
return 0
"""
