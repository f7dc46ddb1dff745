"""Quick play: matchmaking (pure) and the queue of tickets (in memory, or in Redis)."""
