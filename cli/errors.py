"""The root of every error the command line raises on purpose.

``tarot`` prints such an error on one line and exits with a status; anything
else is a bug and keeps its traceback.
"""

from __future__ import annotations


class CliError(Exception):
    """Something a command cannot do, said in words (``str``)."""
