"""The link filter without I/O (protocol/links.py): what the chat refuses as a link, and
what names given now are refused for (protocol/names.py); sentences and ordinary names
are no links."""

from __future__ import annotations

import pytest

from protocol.errors import BadName
from protocol.links import has_link
from protocol.names import clean_name, given_name


@pytest.mark.parametrize(
    "text",
    [
        "http://evil.example/x",
        "HTTPS://EVIL.EXAMPLE",
        "ftp://x",
        "go to www.cheat.net",
        "www . cheat . net",
        "cheat.com",
        "cheat[.]com",
        "cheat(dot)org",
        "discord.gg/abc",
        "tarot.fr/play",
        "spam_site.com",  # a host name glued to a word: found from where its run starts
        "caf\u00e9site.com",
    ],
)
def test_links_are_found(text: str) -> None:
    assert has_link(text)


@pytest.mark.parametrize(
    "text",
    [
        "example\u3002com",  # the ideographic full stop: a dot in a host name under IDNA
        "example\uff61com",  # its half-width form
        "example\uff0ecom",  # the full-width full stop
        "example\ufe52com",  # the small full stop (NFKC: a dot)
        "example(.)com",
        "example{.}com",
        "example<.>com",
        "example[dot]com",
        "example{dot}com",
        "example(DOT)com",
        "example [ dot ] com",
        "example . com",
        "example .com",
        "example. ru/x",
        "1.2.3.4/x",
        "see 10.0.0.1",
        "1\u30022\u30023\u30024",
        "http:/\\evil",
        "https:\\\\evil",
        "\uff48\uff54\uff54\uff50\uff53://x",  # full-width letters, unnormalised text
    ],
)
def test_links_with_idna_dots_dot_spellings_or_bare_addresses_are_found(text: str) -> None:
    assert has_link(text)


@pytest.mark.parametrize(
    "text",
    [
        "well played. It was fun",
        "3.5 points",
        "oops...",
        "garde sans. me?",
        "T21 ok",
        "e.g. this",
        "well done. next time",
        "well done . next time",
        "fun . me too",
        "merci . de rien",
        "it was 1.5 or 2.5",
        "score 10.5.3",
        "a 2.0 game",
        "trick 3 . 4 points",
        "done\u3002 next time",
        "I said (dot) nothing",
        "ok (.) fine",
        "note: /me",
    ],
)
def test_sentences_are_not_links(text: str) -> None:
    assert not has_link(text)


# Names with initials, titles, abbreviations and numbers: a dot then a space or a word
# that is no top-level domain.
ORDINARY_NAMES = [
    "Dr. Who",
    "J.R.R.",
    "J.R.R. Tolkien",
    "Table 3.5",
    "Mr. T",
    "A. Smith",
    "St. Louis",
    "Mme. Dupont",
    "Sgt. Pepper",
    "Ph.D.",
    "U.S. Open",
    "G.I. Joe",
    "E.T.",
    "No.1",
    "v1.2.3",
    "Dupont & Co.",
    "J. de Vries",
    "M. De Vries",
    "Friday night",
]


@pytest.mark.parametrize("name", ORDINARY_NAMES)
def test_ordinary_names_are_not_links_and_are_given(name: str) -> None:
    assert not has_link(name)
    assert given_name(name, 60) == name


@pytest.mark.parametrize(
    "name",
    [
        "free chips at spam.com",
        "spam\u3002com",
        "spam\uff0ecom",
        "spam[dot]net",
        "spam . com",
        "www.x",
        "1.2.3.4",
        "\uff48\uff54\uff54\uff50\uff53://x",
    ],
)
def test_a_name_given_with_a_link_is_refused_one_cleaned_before_is_not(name: str) -> None:
    with pytest.raises(BadName, match="holds a link"):
        given_name(name, 60)
    assert clean_name(name, 60)  # a stored name, a name to mute or ban: still a name


# Long runs of what a host name or a scheme is made of: read once each (every pattern is
# anchored at the start of its run), and still found where the link ends them.
LONG = 2000


@pytest.mark.parametrize(
    "text",
    [
        "a" * LONG,
        "a-" * (LONG // 2),
        "ab-cd+ef." * (LONG // 9),
        "w" * LONG,
        "1." * (LONG // 2),
        "a " * (LONG // 2),
        "a" * LONG + ".5 points",
        "a-" * (LONG // 2) + " . dot",
    ],
    ids=lambda t: f"{t[:12]}...({len(t)})",
)
def test_long_runs_without_a_link_are_not_links(text: str) -> None:
    assert not has_link(text)


@pytest.mark.parametrize(
    "text",
    [
        "a" * LONG + "://x",
        "1" * LONG + "a://x",  # a scheme may hold digits; it starts with a letter
        "+-." + "a" * LONG + "://x",
        "a-" * (LONG // 2) + "a.com",
        "-" + "a" * LONG + ".net",
        "x" * LONG + " . ru",
        "w" * LONG + " www.x",
        "caf\u00e9s-" + "a" * LONG + ".com",
    ],
    ids=lambda t: f"{t[:12]}...({len(t)})",
)
def test_long_runs_ending_in_a_link_are_links(text: str) -> None:
    assert has_link(text)


def test_a_scheme_needs_a_letter_in_the_run_before_its_colon() -> None:
    assert not has_link("123+.-://x")
    assert has_link("9+a://x")
