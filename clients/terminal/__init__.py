"""The terminal client (``tarot play``): a table played from the keyboard."""

from .app import TableApp

__all__ = ["TableApp"]
