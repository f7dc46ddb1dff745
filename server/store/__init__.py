"""Where tables live: the store interface, in memory, in Redis."""
