"""Tables in Redis: the production store shared by every node."""
