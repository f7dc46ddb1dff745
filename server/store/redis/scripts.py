"""The Lua scripts of the Redis store: each runs atomically, on one table's keys.

Key names are in ``keys``; a table's keys share its hash tag, so each script
also runs on Redis Cluster.
"""

from __future__ import annotations

# KEYS: state, events, followers, the commit's fence, actions, then the lobby's lists when
# the lobby's line changes on a single server (on a cluster they are in another slot: see
# ``LOBBY``). ARGV: version, commit id, head ('' unchanged), seq, ttl ms, log limit, channel,
# status, committer's store id, parent commit id ('' for none), commits, deadline, 'r' (the
# actions replace the stored ones) or 'a' (appended), the number n of actions, the lobby's
# summary ('' unchanged), lists and member, how many of the lists the table is in (they come
# first), the n actions, then (seq, event JSON) pairs (the layout: redis_tables). A fenced
# commit (see RESOLVE) is refused, and so is one that appends to a table an older node last
# wrote (its whole JSON in 'data'). Returns 1 (done) or 0 (stale: another version, or one
# another commit made).
# The update published (if another node follows) is ARGV 1, 2, 10, 4, 11, 12, 3, 13, 14,
# then the actions and the events, one a line (redis_tables.published).
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
if ARGV[13] == 'a' and redis.call('HEXISTS', KEYS[1], 'data') == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'seq', ARGV[4], 'commit', ARGV[2],
           'status', ARGV[8], 'commits', ARGV[11], 'deadline', ARGV[12])
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[1], 'head', ARGV[3])
  redis.call('HDEL', KEYS[1], 'data')
end
if ARGV[15] ~= '' then
  redis.call('HSET', KEYS[1], 'summary', ARGV[15], 'lists', ARGV[16], 'member', ARGV[17])
  for k = 6, #KEYS do
    if k < 6 + tonumber(ARGV[18]) then
      redis.call('ZADD', KEYS[k], 0, ARGV[17])
    else
      redis.call('ZREM', KEYS[k], ARGV[17])
    end
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
local parts = {ARGV[1], ARGV[2], ARGV[10], ARGV[4], ARGV[11], ARGV[12], ARGV[3], ARGV[13],
               ARGV[14]}
local n = tonumber(ARGV[14])
if ARGV[13] == 'r' then
  redis.call('DEL', KEYS[5])
end
for i = 19, 18 + n, 1000 do
  redis.call('RPUSH', KEYS[5], unpack(ARGV, i, math.min(i + 999, 18 + n)))
end
for i = 19, 18 + n do
  parts[#parts + 1] = ARGV[i]
end
redis.call('PEXPIRE', KEYS[5], ARGV[5])
for i = 19 + n, #ARGV, 2 do
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[6], ARGV[i] .. '-0', 'e', ARGV[i + 1])
  parts[#parts + 1] = ARGV[i + 1]
end
if #ARGV >= 19 + n or redis.call('EXISTS', KEYS[2]) == 1 then
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

# KEYS: state, actions, then the lobby's lists on a single server (as COMMIT). ARGV:
# version, commit id, head, seq, ttl ms, status, commits, deadline, the lobby's summary,
# lists and member, how many of the lists the table is in, then the actions. Returns 1 or 0
# (exists).
CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('HGET', KEYS[1], 'commit') == ARGV[2] then return 1 end
  return 0
end
redis.call('HSET', KEYS[1], 'head', ARGV[3], 'version', ARGV[1], 'seq', ARGV[4],
           'commit', ARGV[2], 'status', ARGV[6], 'commits', ARGV[7], 'deadline', ARGV[8],
           'summary', ARGV[9], 'lists', ARGV[10], 'member', ARGV[11])
for k = 3, #KEYS do
  if k < 3 + tonumber(ARGV[12]) then redis.call('ZADD', KEYS[k], 0, ARGV[11]) end
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('DEL', KEYS[2])
for i = 13, #ARGV, 1000 do
  redis.call('RPUSH', KEYS[2], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return 1
"""

# KEYS: state, actions. ARGV: the commit id of the version the caller has, or ''. Returns
# {data, head, version, seq, commits, deadline, actions}: 'data' set is a table in the old
# layout (its whole JSON), else the parts (redis_tables); {} when the caller has it.
LOAD = """
if ARGV[1] ~= '' and redis.call('HGET', KEYS[1], 'commit') == ARGV[1]
   and redis.call('HEXISTS', KEYS[1], 'data') == 0 then
  return {}
end
local f = redis.call('HMGET', KEYS[1], 'data', 'head', 'version', 'seq', 'commits', 'deadline')
local actions = {}
if not f[1] and f[2] then
  actions = redis.call('LRANGE', KEYS[2], 0, -1)
end
return {f[1], f[2], f[3], f[4], f[5], f[6], actions}
"""

# KEYS: followers. ARGV: store id, ttl ms. Follow the table for ttl ms from now (Redis's clock).
FOLLOW = """
local time = redis.call('TIME')
local now = time[1] * 1000 + math.floor(time[2] / 1000)
redis.call('HSET', KEYS[1], ARGV[1], now + tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
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
local commits = {}
local listed = redis.call('HGET', KEYS[1], 'commits')
if listed then
  for id in string.gmatch(listed, '%S+') do commits[#commits + 1] = id end
else  -- the old layout: the whole JSON
  commits = cjson.decode(redis.call('HGET', KEYS[1], 'data'))['commits'] or {}
end
local index = #commits - (stored - version)
if index < 1 then return -1 end
if commits[index] == ARGV[1] then return 1 end
return 0
"""


# KEYS: the lobby's lists (one slot: ``{lobby}``), those the table is in first. ARGV: the
# table's member, how many of the lists it is in. On a cluster, after the commit that changed
# the table's line (its keys are in another slot); and to forget a table found gone.
LOBBY = """
for k = 1, #KEYS do
  if k <= tonumber(ARGV[2]) then
    redis.call('ZADD', KEYS[k], 0, ARGV[1])
  else
    redis.call('ZREM', KEYS[k], ARGV[1])
  end
end
return 1
"""

# KEYS: state. The table's line in the lobby: {summary, lists}.
LINE = """
return redis.call('HMGET', KEYS[1], 'summary', 'lists')
"""

# KEYS: state. ARGV: summary, lists, member. A table stored before the lobby's lists gets its
# line, unless it has one or is gone. Returns 1 if written.
OLD_LINE = """
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'member') == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'summary', ARGV[1], 'lists', ARGV[2], 'member', ARGV[3])
return 1
"""
