"""The asyncio WebSocket server: I/O around the engine and the protocol, no rules."""
