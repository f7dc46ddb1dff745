"""Names people give (players, tables): text that is safe to show anywhere, or refused.

A name is shown in terminals, browsers and logs. Control characters (an
escape sequence could write to a watcher's clipboard or retitle their
terminal), format characters (bidirectional overrides that reverse what
follows, invisible joiners), separators and unassigned or private code points
are refused outright, and so are the other characters Unicode says to draw as
nothing (Default_Ignorable_Code_Point: the Hangul fillers that make a name
look empty or like another, the combining grapheme joiner), except the
variation selectors, which only choose a glyph (an emoji's colour form) and
are dropped. The rest is normalised (NFKC: full-width letters, ligatures and
odd spaces become their plain forms), stripped, and its runs of spaces folded.
The length limit counts what is left, in characters.

Names that merely look alike ("Marie" and "Mаrie" with a Cyrillic а) are
told apart by their skeletons (``skeletons.py``), where a name must be unique:
accounts.

A name given now (a guest's at a seat, an account's at sign-up, a table's when
it is made: ``given_name``) may hold no link either: it is shown to everyone in
the lobby and at the tables, and the chat's rule (``links.py``) decides what a
link is. The check is at the edge only: a table or an account named so before
still loads, and its name can still be muted, blocked or banned.

``PlayerName`` and ``TableName`` are the wire models' field types; a refusal
is a ``bad_name`` error that names the offending character, or the link.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Annotated

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

from .errors import BadName
from .links import has_link

PLAYER_NAME_MAX = 40
TABLE_NAME_MAX = 60
# Cc control, Cf format, Cs surrogate, Co private use, Cn unassigned, Zl/Zp line and
# paragraph separators. Zs spaces are allowed (NFKC then makes them plain spaces).
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
MAX_MARKS = 3  # combining marks on one letter: more is "zalgo" text spilling over its line
# Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 14.0) outside the refused
# categories: letters and marks drawn as nothing. The variation selectors among them are
# dropped (VARIATION_SELECTORS), the others refused (INVISIBLE).
VARIATION_SELECTORS = frozenset(
    [*range(0x180B, 0x180E), 0x180F, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]
)
INVISIBLE = frozenset([0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0])
_DROPPED = dict.fromkeys(VARIATION_SELECTORS)


def clean_name(text: str, max_length: int) -> str:
    """The shown form of ``text``, or ``BadName``.

    >>> clean_name("  Ｊｅａｎ\u00a0 Dupont ", 40)
    'Jean Dupont'
    >>> clean_name("evil\x1b]52;c;aGk=\x07", 40)
    Traceback (most recent call last):
    ...
    protocol.errors.BadName: the name has a control character (U+001B) at position 5
    """
    for position, char in enumerate(text, 1):
        category = unicodedata.category(char)
        if category in REFUSED_CATEGORIES or ord(char) in INVISIBLE:
            kind = "a control" if category == "Cc" else "an invisible or unassigned"
            raise BadName(
                f"the name has {kind} character (U+{ord(char):04X}) at position {position}"
            )
    name = " ".join(unicodedata.normalize("NFKC", text.translate(_DROPPED)).split())
    marks = 0
    for char in name:
        marks = marks + 1 if unicodedata.combining(char) else 0
        if marks > MAX_MARKS:
            raise BadName(f"the name stacks more than {MAX_MARKS} marks on one letter")
    if len(name) > max_length:
        raise BadName(f"the name has {len(name)} characters; at most {max_length}")
    return name


def sanitize(text: str, max_length: int) -> str:
    """A name stored before these rules, made showable: what ``clean_name`` would refuse
    becomes U+FFFD, extra marks go, and the rest is cut to ``max_length``.

    >>> sanitize("evil\x1b]52;c;x\x07", 40)
    'evil\ufffd]52;c;x\ufffd'
    """
    kept = "".join(
        "\ufffd"
        if unicodedata.category(char) in REFUSED_CATEGORIES or ord(char) in INVISIBLE
        else char
        for char in text.translate(_DROPPED)
    )
    name = " ".join(unicodedata.normalize("NFKC", kept).split())
    out: list[str] = []
    marks = 0
    for char in name:
        marks = marks + 1 if unicodedata.combining(char) else 0
        if marks <= MAX_MARKS:
            out.append(char)
    return "".join(out)[:max_length]


def refuse_link(name: str) -> str:
    """``name``, or ``BadName`` if it holds a link (``links.has_link``).

    >>> refuse_link("Dr. Who")
    'Dr. Who'
    >>> refuse_link("spam\u3002com")
    Traceback (most recent call last):
    ...
    protocol.errors.BadName: the name 'spam。com' holds a link: links are not allowed in names
    """
    if has_link(name):
        raise BadName(f"the name {name!r} holds a link: links are not allowed in names")
    return name


def given_name(text: str, max_length: int) -> str:
    """``clean_name``'s, for a name given now: one holding a link is refused too."""
    return refuse_link(clean_name(text, max_length))


def wire_check(check: Callable[[str], str]) -> Callable[[str], str]:
    """``check`` as a pydantic validator: its ``BadName`` the ``bad_name`` error."""

    def checked(text: str) -> str:
        try:
            return check(text)
        except BadName as e:
            raise PydanticCustomError("bad_name", str(e)) from None

    return checked


# The schema's maxLength bounds the raw text before any work is done on it. A player's
# name is a request's only (join, queue, play_now): given now. A table's is its stored
# and sent options' too, so a new one's link is refused by create_table (CreateTable).
PlayerName = Annotated[
    str,
    Field(max_length=PLAYER_NAME_MAX),
    AfterValidator(wire_check(lambda text: given_name(text, PLAYER_NAME_MAX))),
]
TableName = Annotated[
    str,
    Field(max_length=TABLE_NAME_MAX),
    AfterValidator(wire_check(lambda text: clean_name(text, TABLE_NAME_MAX))),
]
