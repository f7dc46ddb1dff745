"""What a seat knows about the hidden cards, read from its view, and consistent samples.

From the public history it infers, for every other seat:

- voids: a seat that did not follow a led suit has none left (it trumped or
  discarded); one that did not trump either has no trumps (R11);
- trump caps: a seat that played a trump under the highest trump of the
  trick had none above it (R11: it must overtrump when it can);
- known cards: a shown poignee; the shown chien's trumps, Kings and bouts
  (they cannot be discarded, R6) sit in the taker's hand until played.

Hidden cards lie in the other hands or in a "pile": the chien under garde
sans / contre (or before the taker is known), or, for a defender after a
prise / garde, the discard's unseen part (ordinary cards only, R6).

``sample`` deals the hidden cards at random among their possible places,
most constrained first, weighted by room left, restarting on a dead end.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import engine
from engine import Phase

from .cardset import (
    ALL_CARDS,
    EXCUSE,
    EXCUSE_BIT,
    HIGHER_OF,
    ORDINARY,
    SUIT_OF,
    SUIT_OR_TRUMP,
    TRUMP_SUIT,
    TRUMPS,
    cards_of,
    led_suit,
    mask_of,
)

PILE = 4  # the location index of the chien / unseen discard


@dataclass(slots=True)
class Knowledge:
    seat: int
    taker: int
    hand: int
    played: int = 0
    played_by: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    voids: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # bit 0-3 suits, 4 trumps
    trump_cap: list[int] = field(default_factory=lambda: [TRUMPS] * 4)
    fixed: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])  # known, by location
    allowed: list[int] = field(default_factory=lambda: [ALL_CARDS] * 5)  # by location
    sizes: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])
    gone: int = 0  # out of play and known: played cards, public discard, own discard

    @property
    def hidden(self) -> int:
        """Cards whose place this seat does not know."""
        known = self.hand | self.gone | self.fixed[0] | self.fixed[1] | self.fixed[2]
        return ALL_CARDS & ~(known | self.fixed[3] | self.fixed[PILE])

    def can_hold(self, location: int) -> int:
        """The cards ``location`` may hold, as far as this seat can tell."""
        allowed = self.allowed[location]
        if location < 4:
            for s in range(5):
                if self.voids[location] >> s & 1:
                    allowed &= ~SUIT_OR_TRUMP[s]
            allowed &= ~TRUMPS | self.trump_cap[location]
        return allowed

    def sample(self, rng: random.Random, attempts: int = 60) -> list[int]:
        """Four hands (this seat's own included) and the pile, consistent with all it knows."""
        for _ in range(attempts):
            hands = self._try_sample(rng, strict=True)
            if hands is not None:
                return hands
        hands = self._try_sample(rng, strict=False)
        assert hands is not None
        return hands

    def _try_sample(self, rng: random.Random, strict: bool) -> list[int] | None:
        hands = [self.fixed[i] for i in range(5)]
        hands[self.seat] = self.hand
        room = [self.sizes[i] - hands[i].bit_count() for i in range(5)]
        room[self.seat] = 0
        masks = [self.can_hold(i) if strict else self.allowed[i] for i in range(5)]
        cards = cards_of(self.hidden)
        rng.shuffle(cards)
        places = [[i for i in range(5) if masks[i] >> c & 1] for c in cards]
        order = sorted(range(len(cards)), key=lambda k: len(places[k]))
        placed: list[list[int]] = [[], [], [], [], []]
        for k in order:
            card = cards[k]
            options = [i for i in places[k] if room[i] > 0]
            if not options:
                if strict:
                    where = _make_room(card, places[k], placed, masks, room, hands, rng)
                    if where < 0:
                        return None
                    options = [where]
                else:
                    options = [i for i in range(5) if room[i] > 0]
            where = _weighted(options, room, rng)
            hands[where] |= 1 << card
            room[where] -= 1
            placed[where].append(card)
        return hands


def _make_room(
    card: int,
    places: list[int],
    placed: list[list[int]],
    masks: list[int],
    room: list[int],
    hands: list[int],
    rng: random.Random,
) -> int:
    """Move one placed card to a place with room so that ``card`` fits; its place or -1."""
    for where in rng.sample(places, len(places)):
        for i, other in enumerate(placed[where]):
            for target in range(5):
                if room[target] > 0 and masks[target] >> other & 1:
                    placed[where].pop(i)
                    hands[where] &= ~(1 << other)
                    hands[target] |= 1 << other
                    placed[target].append(other)
                    room[target] -= 1
                    room[where] += 1
                    return where
    return -1


def _weighted(options: list[int], room: list[int], rng: random.Random) -> int:
    if len(options) == 1:
        return options[0]
    total = sum(room[i] for i in options)
    pick = rng.random() * total
    for i in options:
        pick -= room[i]
        if pick < 0:
            return i
    return options[-1]


def knowledge_of(view: engine.View) -> Knowledge:
    """Everything ``view``'s seat can infer about where the cards are."""
    seat = view.seat
    assert seat is not None
    k = Knowledge(seat, view.taker, mask_of(view.hand))
    k.sizes = [*view.hand_sizes, 0]
    for trick in view.tricks:
        _read_trick(k, trick.leader, trick.cards)
    _read_trick(k, view.trick_leader, view.trick)
    k.gone = k.played
    _read_chien(k, view)
    for shower, shown in view.poignees:
        if shower != seat:
            k.fixed[shower] |= mask_of(shown) & ~k.gone  # R9: discarded trumps are not held
            if EXCUSE in shown:  # R8: the Excuse only with every trump held
                k.allowed[shower] &= ~(TRUMPS & ~mask_of(shown))
    for i in range(4):
        k.fixed[i] &= ~k.played
    if seat < 4:
        k.fixed[seat] = 0
    return k


def _read_trick(k: Knowledge, leader: int, cards: tuple[engine.Card, ...] | list[int]) -> None:
    """What each card shows of its player's hand, R11 read backwards (the suit led and the
    cards that beat a card are the engine's): a card off the suit led shows a void in
    it, and one that is not a trump a trump void too; a trump that does not beat the
    trick shows that its player held no trump that would."""
    led = led_suit(cards)  # set by the first card but the Excuse, which follows it
    over = TRUMPS  # the trumps that would beat the trick so far: all, until one is in it
    for position, card in enumerate(cards):
        player = (leader + position) % 4
        k.played |= 1 << card
        k.played_by[player] |= 1 << card
        if card == EXCUSE:
            continue
        suit = SUIT_OF[card]
        if suit != led:
            k.voids[player] |= 1 << led
            if suit != TRUMP_SUIT:
                k.voids[player] |= 1 << TRUMP_SUIT
        if suit != TRUMP_SUIT:
            continue
        if over >> card & 1:  # it wins the trick: only the trumps above it would beat it now
            over = HIGHER_OF[card]
        else:
            k.trump_cap[player] &= ~over


def _read_chien(k: Knowledge, view: engine.View) -> None:
    """Where the chien and the discard are, for each contract and phase."""
    if view.phase is Phase.BIDDING or view.taker < 0:
        k.sizes[PILE] = 6
        return
    public_trumps = mask_of(view.discard_trumps)
    if not view.contract.shows_chien:
        k.sizes[PILE] = 6
        return
    if view.phase is Phase.DISCARD:
        return  # the taker to discard holds the chien; the others wait
    k.gone |= public_trumps
    if view.discard is not None:  # the taker: its whole discard is known
        k.gone |= mask_of(view.discard)
        return
    k.sizes[PILE] = 6 - public_trumps.bit_count()
    k.allowed[PILE] = ORDINARY
    chien = mask_of(view.chien or ())
    k.fixed[view.taker] |= chien & ~ORDINARY & ~public_trumps
    for other in range(4):
        if other != view.taker:
            k.allowed[other] &= ~(chien & ORDINARY)
    if public_trumps:  # R6: trumps go in only once every ordinary card is
        k.allowed[view.taker] &= ~ORDINARY


__all__ = ["EXCUSE_BIT", "PILE", "Knowledge", "knowledge_of"]
