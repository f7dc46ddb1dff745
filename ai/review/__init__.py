"""Deal review: every decision of a finished deal judged by the strong AI."""
