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

``PlayerName`` and ``TableName`` are the wire models' field types; a refusal
is a ``bad_name`` error that names the offending character.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

from .errors import BadName

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


def _validator(max_length: int) -> AfterValidator:
    def check(text: str) -> str:
        try:
            return clean_name(text, max_length)
        except BadName as e:
            raise PydanticCustomError("bad_name", str(e)) from None

    return AfterValidator(check)


# The schema's maxLength bounds the raw text before any work is done on it.
PlayerName = Annotated[str, Field(max_length=PLAYER_NAME_MAX), _validator(PLAYER_NAME_MAX)]
TableName = Annotated[str, Field(max_length=TABLE_NAME_MAX), _validator(TABLE_NAME_MAX)]
