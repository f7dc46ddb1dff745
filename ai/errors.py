"""The root of every error the AI package raises on purpose."""

from __future__ import annotations


class AiError(Exception):
    """Something the AI package refuses (a match it cannot pool, ...)."""
