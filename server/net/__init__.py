"""The network edge: connections, HTTP, the JSON API, access and rate limits."""
