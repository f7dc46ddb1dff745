"""The link filter: whether a text holds a URL or a host name. Chat text
(docs/PROTOCOL.md, section 17, "No links") and the names people give (a guest's, an
account's, a table's: ``names.given_name``) are refused with one; both ask here, so what
counts as a link is decided once.

Theory of operation. The text is first read the way a browser or a resolver
would: NFKC (full-width letters and the full-width and small full stops
become plain ones) and every dot IDNA takes for a label separator (U+3002,
U+FF0E, U+FF61) a plain dot. Then a link is any of:

- a scheme (``https://``; ``http:/\\`` and ``http:\\\\``, which browsers
  take as well);
- ``www`` and a dot;
- a word, a dot and a common top-level domain (``example.com``), where the dot
  may be spelled as people do to slip past a filter: ``[.]``, ``(.)``, ``{.}``,
  ``<.>``, ``(dot)``, ``[dot]``, ``{dot}``, `` dot ``; with spaces around a plain
  dot (``example . com``) only before a top-level domain that is no word of
  the game's languages (``fun . me too``, ``merci . de rien`` are sentences);
- a bare IPv4 address (four dotted numbers: ``1.2.3.4``; ``3.5 points`` and
  ``10.5.3`` are not).

Names with initials and titles pass (``Dr. Who``, ``J.R.R.``, ``Mr. T``,
``Table 3.5``): a dot then a space, or a word that is no top-level domain. A
dot glued to one is a host name, in a name too (``J.de Vries`` reads as
``j.de``; ``J. de Vries`` passes).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["has_link"]

# UTS 46 maps these to U+002E in host names; NFKC already maps U+FF0E and U+FE52.
_IDNA_DOTS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})

_BRACKETED = r"\s*[\[({<]\s*(?:\.|dot)\s*[\])}>]\s*"
_DODGES = rf"{_BRACKETED}|\s+dot\s+"
_DOT = rf"(?:\.|{_DODGES})"
_LOOSE_DOT = rf"(?:\s*\.\s*|{_DODGES})"
_TLDS = (
    "com|net|org|info|biz|io|gg|ly|me|co|xyz|ru|de|fr|nl|be|eu|uk|tv|app|dev|link|site"
    "|online|shop|top|club|live|cc|to|us|ch|it|es|pl|tk|ml|ga|cf|gq|su|cn"
)
# The top-level domains that are not words in English, French or Dutch chat: only these
# are read after a dot with spaces around it.
_WORDLESS_TLDS = "com|net|org|info|biz|io|gg|ly|xyz|ru|fr|nl|eu|uk|tv|cc|ch|pl|tk|ml|gq|su|cn"
_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
# A pattern that starts with a run of characters starts only where the run does (a
# lookbehind): tried from every letter of a run, each try read the run to its end, and a
# long one took time in its length squared (1.8 ms for 560 letters, many more for "a-a-").
# A scheme is such a run holding a letter, the first coming after digits or +.- if any.
# The runs are possessive (``++``): what follows one (a dot, a space, a bracket, ":")
# is no part of it, so giving characters back could never make a match.
_RUN_START = r"(?<![a-z0-9-])"
_LINK = re.compile(
    "|".join(
        (
            r"(?<![a-z0-9+.-])[0-9+.-]*+[a-z][a-z0-9+.-]*+://",
            r"\b(?:https?|ftps?|wss?)\s*:\s*[/\\]",
            rf"\bwww{_LOOSE_DOT}",
            rf"{_RUN_START}[a-z0-9-]++{_DOT}(?:{_TLDS})\b",
            rf"{_RUN_START}[a-z0-9-]++\s*\.\s*(?:{_WORDLESS_TLDS})\b",
            rf"(?<![\d.]){_OCTET}(?:\.{_OCTET}){{3}}(?![\d.]*\d)",
        )
    ),
    re.IGNORECASE,
)


def has_link(text: str) -> bool:
    """A URL, a host name or an IPv4 address in ``text``.

    >>> has_link("see tarot.example.com/x"), has_link("www . evil . ru"), has_link("a[.]io")
    (True, True, True)
    >>> has_link("example\u3002com"), has_link("example{dot}com"), has_link("1.2.3.4/x")
    (True, True, True)
    >>> has_link("well played. It was fun"), has_link("3.5 points"), has_link("oops...")
    (False, False, False)
    """
    if not text.isascii():  # ASCII is NFKC already and holds none of IDNA's dots
        text = unicodedata.normalize("NFKC", text).translate(_IDNA_DOTS)
    return _LINK.search(text) is not None
