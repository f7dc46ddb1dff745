"""``tarot bench``: benchmarks that print figures."""
