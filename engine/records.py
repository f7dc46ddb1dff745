"""Game records (``tarot-record/1``, docs/RECORD.md): export a deal, replay one.

One decision also has an entry of its own in the record's words (``action_entry``:
``{"seat": 1, "bid": "garde"}``, ``{"seat": 3, "play": "KH"}``), so a deal in
progress can be stored as its entries, whatever the wire protocol looks like.

Importing never trusts the record: it is parsed, then every decision is
replayed through ``game.apply_in_place``, so a record is accepted exactly when
the deal it describes was legal. Errors are one line naming the step
(``plays[13]``), the seat, the card or bid, and the rule.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from .actions import Action, Bid, Contract, DeclareChelem, Discard, Play, ShowPoignee
from .bidding import bidder_seat
from .cards import CODES, Card, cards_of, parse_card
from .deal import deal_from_hands
from .errors import InvalidDeal, RecordError, TarotError, UnknownCard, UnknownContract
from .game import CANCEL_RULES, apply_in_place
from .state import Deal, Phase

FORMAT = "tarot-record/1"
RECORD_FIELDS = {
    "format",
    "dealer",
    "hands",
    "chien",
    "bids",
    "discard",
    "chelem",
    "poignees",
    "plays",
}


def to_record(deal: Deal) -> dict[str, Any]:
    """The record of a deal so far (complete once the deal is over)."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "dealer": deal.dealer,
        "hands": [[CODES[c] for c in cards_of(hand)] for hand in deal.dealt],
        "chien": [CODES[c] for c in cards_of(deal.chien)],
        "bids": [c.code for c in deal.bids],
    }
    if deal.cancelled or deal.phase is Phase.BIDDING:
        return record
    if deal.contract.shows_chien and deal.phase is not Phase.DISCARD:
        record["discard"] = [CODES[c] for c in cards_of(deal.discard)]
    record["chelem"] = deal.chelem
    if deal.poignees:
        record["poignees"] = {
            str(s): [CODES[c] for c in cards_of(m)] for s, m in sorted(deal.poignees.items())
        }
    record["plays"] = [CODES[c] for trick in deal.tricks for c in trick.cards] + [
        CODES[c] for c in deal.trick
    ]
    return record


def load_record(record: Any) -> Deal:
    """Replay a record and return the final state; raise ``RecordError`` if illegal."""
    deal = _deal_of(record)
    for where, action in _actions(record, deal):
        try:
            apply_in_place(deal, action)
        except TarotError as e:
            raise RecordError(f"{where}: {e.message}", rule=e.rule) from e
    if deal.phase is Phase.BIDDING:
        missing = f"bids[{len(deal.bids)}]"
        raise RecordError(f"{missing}: missing, every seat bids once", rule="R5")
    if deal.phase is not Phase.DONE:
        raise RecordError(f"{_missing(deal)}: the record ends before the deal is over")
    return deal


ENTRY_KEYS = ("bid", "discard", "chelem", "poignee", "play")


def action_entry(action: Action) -> dict[str, Any]:
    """One decision in the record's vocabulary: ``{"seat": 0, "play": "T21"}``.

    >>> action_entry(Bid(2, Contract.GARDE_SANS))
    {'seat': 2, 'bid': 'garde_sans'}
    """
    match action:
        case Bid(seat, contract):
            return {"seat": seat, "bid": contract.code}
        case Discard(seat, cards):
            return {"seat": seat, "discard": [CODES[c] for c in sorted(cards)]}
        case DeclareChelem(seat, announce):
            return {"seat": seat, "chelem": announce}
        case ShowPoignee(seat, cards):
            return {"seat": seat, "poignee": [CODES[c] for c in sorted(cards)]}
        case Play(seat, card):
            return {"seat": seat, "play": CODES[card]}
    raise TypeError(f"not an action: {action!r}")  # pragma: no cover


def entry_action(entry: Any) -> Action:
    """The decision an ``action_entry`` describes; ``RecordError`` if it is malformed.

    Only its shape is checked: whether it is legal is for ``apply_in_place`` to say.
    """
    if not isinstance(entry, dict):
        raise RecordError(f"an action entry must be an object, not {entry!r}")
    seat = entry.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
        raise RecordError(f"seat must be a seat 0-3, not {seat!r}")
    keys = [k for k in entry if k != "seat"]
    if len(keys) != 1 or keys[0] not in ENTRY_KEYS:
        raise RecordError(f"an action entry needs one of {', '.join(ENTRY_KEYS)}, not {keys}")
    return _entry_action(seat, keys[0], entry[keys[0]])


def _entry_action(seat: int, key: str, value: Any) -> Action:
    if key == "bid":
        return Bid(seat, _contract(key, value))
    if key == "chelem":
        if not isinstance(value, bool):
            raise RecordError("chelem must be true or false")
        return DeclareChelem(seat, value)
    if key == "play":
        try:
            return Play(seat, parse_card(value))
        except UnknownCard as e:
            raise RecordError(f"play: {e}") from e
    cards = _card_set(key, value)
    return Discard(seat, cards) if key == "discard" else ShowPoignee(seat, cards)


def parse_record(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:  # JSONDecodeError, bad UTF-8, too deep
        raise RecordError(f"not valid JSON: {e}") from e


def _missing(deal: Deal) -> str:
    return {
        Phase.DISCARD: "discard",
        Phase.CHELEM: "chelem",
        Phase.PLAY: f"plays[{72 - sum(h.bit_count() for h in deal.hands)}]",
    }.get(deal.phase, "record")


def _deal_of(record: Any) -> Deal:
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    unknown = set(record) - RECORD_FIELDS
    if unknown:
        raise RecordError(f"unknown field {sorted(unknown)[0]!r}")
    if record.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {record.get('format')!r}")
    dealer = record.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer <= 3:
        raise RecordError(f"dealer must be a seat 0-3, not {dealer!r}")
    hands = record.get("hands")
    if not isinstance(hands, list) or len(hands) != 4:
        raise RecordError("hands must be a list of 4 hands")
    parsed = [_cards(f"hands[{s}]", hand) for s, hand in enumerate(hands)]
    chien = _cards("chien", record.get("chien"))
    try:
        return deal_from_hands(dealer, parsed, chien)
    except InvalidDeal as e:
        raise RecordError(e.message, rule=e.rule) from e


def _cards(where: str, items: Any) -> list[Card]:
    if not isinstance(items, list):
        raise RecordError(f"{where} must be a list of card codes")
    cards = []
    for i, item in enumerate(items):
        try:
            cards.append(parse_card(item))
        except UnknownCard as e:
            raise RecordError(f"{where}[{i}]: {e}") from e
    return cards


def _card_set(where: str, items: Any) -> frozenset[Card]:
    """The cards of a discard or a poignee, each listed once."""
    cards = _cards(where, items)
    twice = sorted({CODES[c] for c in cards if cards.count(c) > 1})
    if twice:
        raise RecordError(f"{where}: {' '.join(twice)} listed twice")
    return frozenset(cards)


def _actions(record: dict[str, Any], deal: Deal) -> Iterator[tuple[str, Action]]:
    """The record's decisions, in order, each with where it stands in the record."""
    bids = record.get("bids", [])
    if not isinstance(bids, list):
        raise RecordError("bids must be a list")
    for i, code in enumerate(bids):
        if i == 4 and deal.phase is not Phase.DONE:  # after all pass, R4 says why
            raise RecordError("bids[4]: a fifth bid, but every seat bids once", rule="R5")
        yield f"bids[{i}]", Bid(bidder_seat(deal, i), _contract(f"bids[{i}]", code))
    if deal.phase is Phase.DONE:
        _no_more(record, deal, ("discard", "chelem", "poignees", "plays"))
        return
    if deal.phase is Phase.BIDDING:
        return
    if deal.phase is Phase.DISCARD:
        if "discard" not in record:
            raise RecordError(f"discard: missing for {deal.contract.code} (R6)")
        yield "discard", Discard(deal.taker, _card_set("discard", record["discard"]))
    else:
        _no_more(record, deal, ("discard",))
    chelem = record.get("chelem", False)
    if not isinstance(chelem, bool):
        raise RecordError("chelem must be true or false")
    yield "chelem", DeclareChelem(deal.taker, chelem)
    yield from _plays(record, deal)


def _plays(record: dict[str, Any], deal: Deal) -> Iterator[tuple[str, Action]]:
    poignees = _poignees(record)
    plays = record.get("plays", [])
    if not isinstance(plays, list):
        raise RecordError("plays must be a list of card codes")
    for i, code in enumerate(plays):
        if deal.phase is Phase.DONE:
            raise RecordError(f"plays[{i}]: the deal is over after 72 cards", rule="R2")
        try:
            card = parse_card(code)
        except UnknownCard as e:
            raise RecordError(f"plays[{i}]: {e}") from e
        seat = deal.to_act
        if seat in poignees and not deal.played_by >> seat & 1:
            yield f'poignees["{seat}"]', ShowPoignee(seat, poignees.pop(seat))
        yield f"plays[{i}]", Play(seat, card)
    if poignees and deal.phase is Phase.DONE:  # pragma: no cover - every seat plays
        raise RecordError(f'poignees["{min(poignees)}"]: never shown')


def _poignees(record: dict[str, Any]) -> dict[int, frozenset[Any]]:
    raw = record.get("poignees", {})
    if not isinstance(raw, dict):
        raise RecordError("poignees must be an object keyed by seat")
    out = {}
    for key, cards in raw.items():
        if key not in ("0", "1", "2", "3"):
            raise RecordError(f"poignees: {key!r} is not a seat", rule="R8")
        out[int(key)] = _card_set(f'poignees["{key}"]', cards)
    return out


def _contract(where: str, code: Any) -> Contract:
    try:
        return Contract.from_code(code)
    except UnknownContract as e:
        raise RecordError(f"{where}: {e}") from e


def _no_more(record: dict[str, Any], deal: Deal, fields: tuple[str, ...]) -> None:
    for name in fields:
        if name in record and record[name] not in (False, [], {}):
            why: str = deal.cancelled or f"{deal.contract.code} has no discard"
            rule = CANCEL_RULES[deal.cancelled] if deal.cancelled else "R7"
            raise RecordError(f"{name}: not allowed here ({why})", rule=rule)
