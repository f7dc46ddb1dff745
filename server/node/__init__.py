"""One server process: its tables' runtimes, their drivers, the lobby, bots and reviews."""
