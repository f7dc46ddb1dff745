"""Tables without I/O: their data, how they change, what each follower is sent."""
