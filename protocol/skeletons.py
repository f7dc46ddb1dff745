"""Skeletons (Unicode TS #39, section 4): two names that look alike have the same skeleton.

``skeleton`` is the standard's: NFD, each character replaced by its prototype
from Unicode's confusables table (``confusables.txt`` beside this module says
where it comes from), NFD again. ``"Mаrie"`` with a Cyrillic ``а`` and
``"Marie"`` have one skeleton; so do ``"paypal"`` and ``"рауpal"``, ``"m"`` and
``"rn"``, ``"l"``, ``"I"`` and ``"1"``.

``name_skeleton`` is the key that two account names may not share: the skeleton
of the case-folded skeleton. Accounts are one per case-folded name already
("MARIE" is "Marie"), so case must not hide a look-alike either: ``"mаrie"``
(lower case, Cyrillic ``а``) looks like "marie", that is like "Marie"; and a
capital ``I`` passes for an ``l`` (``"Ian"``, ``"lan"``), which folding alone
would lose. A skeleton is for comparing, never for showing.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from importlib.resources import files


@cache
def prototypes() -> dict[int, str]:
    """The confusables table as ``str.translate`` takes it: code point -> prototype."""
    table: dict[int, str] = {}
    for line in (
        files(__package__ or "protocol").joinpath("confusables.txt").read_text().splitlines()
    ):
        if line and not line.startswith("#"):
            source, prototype = line.split("\t")
            table[int(source, 16)] = "".join(chr(int(p, 16)) for p in prototype.split())
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``.

    >>> skeleton("M\\u0430rie") == skeleton("Marie") == "Marie"
    True
    >>> skeleton("Ian"), skeleton("m")
    ('lan', 'rn')
    """
    mapped = unicodedata.normalize("NFD", text).translate(prototypes())
    return unicodedata.normalize("NFD", mapped)


def name_skeleton(name: str) -> str:
    """The key of a name that no look-alike may share, whatever their case.

    >>> name_skeleton("M\\u0430rie") == name_skeleton("marie") == name_skeleton("MARIE")
    False
    >>> name_skeleton("M\\u0430rie") == name_skeleton("marie") == name_skeleton("Marie")
    True
    >>> name_skeleton("Ian") == name_skeleton("lan")
    True
    """
    return skeleton(skeleton(name).casefold())
