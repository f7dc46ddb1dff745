"""Text from a server, made safe to print: no control or format character reaches a terminal.

A name, a table id or an error message is the server's (or another player's)
to choose; printed raw, an escape sequence in it would drive the reader's
terminal (an OSC 52 clipboard write, colours, cursor moves, a bidirectional
override). Every client here prints such text through ``printable``.
"""

from __future__ import annotations

import unicodedata

# Unicode categories that are not text: controls, formats (bidi, zero-width), separators of
# lines and paragraphs, surrogates, private use, unassigned.
NOT_TEXT = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def printable(text: str) -> str:
    """``text`` with each character that is not text replaced by U+FFFD (a visible mark).

    >>> printable("Zoe\x1b]52;c;aGk=\x07")
    'Zoe�]52;c;aGk=�'
    """
    return "".join("\ufffd" if unicodedata.category(c) in NOT_TEXT else c for c in text)
