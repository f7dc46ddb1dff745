"""Duplicate events without I/O: definitions, dealing, scoring (server.duplicate)."""
