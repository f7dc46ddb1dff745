"""Table chat without I/O: who may say what when, the limits, and who is shown what.

Theory of operation. A ``chat`` request becomes a ``chat`` table event
(``said``), committed like any change of the table: it goes through the
table's event log to every node following it, in order, and is replayed on
resume; it is not an action of the deal, so the game record never holds it.
The rules (docs/PROTOCOL.md, section 17):

- Seated players send preset phrases (codes) during a deal; free text only
  between deals and once the table is over (the defenders are partners: text
  mid-deal would let them tell each other their cards).
- Spectators talk among themselves: said during a deal, their message is shown
  to spectators only (``spectators_only``); between deals, to everyone.
- A guest reads but may write only after ``guest_deals`` played deals at the
  table (a seat's); an account writes at once. Links are refused (``protocol/links.py``).
- Each sender (``SenderLimits``): at most ``per_window`` messages in
  ``window_ms``; a message that repeats one of its last two is refused.

``shown_to`` decides, for one follower, whether a chat event is shown or sent
as ``hidden``: never to a version 1 connection, never a spectators-only one to
a seat, never from a name it muted or an account blocked either way.

A follower may ``report`` only a message it was shown (``reportable``): its
decision as of when the message was sent to it (``SentChat`` remembers it), so
a mute or block made after a message was shown does not withdraw it (mute,
then report, is the usual order), and one sent as ``hidden`` stays out of
reach after an unmute. A message said before the follower followed the table
was never sent to it: ``shown_to``'s decision now.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

import engine
from protocol import models as m
from protocol.links import has_link

from . import transitions as tr
from .data import TableData
from .refusals import TableRefused
from .stored_events import name_of, table_event

__all__ = [
    "ChatPolicy",
    "Sender",
    "SenderLimits",
    "SentChat",
    "chat_refused",
    "check_mute_room",
    "reportable",
    "said",
    "shown_to",
]


def chat_refused(reason: str, message: str) -> TableRefused:
    return TableRefused("chat_refused", message, reason=reason)


def check_mute_room(muted: Collection[str], key: str, policy: ChatPolicy) -> None:
    """Refuse muting ``key`` past ``policy.mutes_max`` names (one muted already: fine)."""
    if key not in muted and len(muted) >= policy.mutes_max:
        raise TableRefused(
            "too_many_mutes",
            f"you have muted {len(muted)} names, the most allowed: unmute one first",
        )


@dataclass(frozen=True, slots=True)
class ChatPolicy:
    """The limits (server settings: docs/DEPLOY.md, "Chat")."""

    per_window: int = 5
    window_ms: int = 10_000
    guest_deals: int = 3  # played deals at the table after which a guest seat may write
    mutes_max: int = 100  # names one player may mute (and accounts one may block)
    repeats: int = 2  # a message equal to one of the sender's last ``repeats`` is refused


@dataclass(slots=True)
class SenderLimits:
    """One sender's recent messages: its rate and its repeats."""

    policy: ChatPolicy
    sent_ms: deque[int] = field(default_factory=deque)
    last: deque[str] = field(default_factory=deque)

    def check(self, said_text: str, now_ms: int) -> None:
        """Refuse a message over the rate or repeating a recent one; else count it."""
        policy = self.policy
        while self.sent_ms and self.sent_ms[0] <= now_ms - policy.window_ms:
            self.sent_ms.popleft()
        if len(self.sent_ms) >= policy.per_window:
            wait = (self.sent_ms[0] + policy.window_ms - now_ms) / 1000
            raise chat_refused(
                "rate",
                f"at most {policy.per_window} messages in {policy.window_ms / 1000:g} s;"
                f" the next in {wait:.1f} s",
            )
        key = " ".join(said_text.casefold().split())
        if key in self.last:
            raise chat_refused("repeated", "this repeats one of your last messages")
        self.sent_ms.append(now_ms)
        self.last.append(key)
        while len(self.last) > policy.repeats:
            self.last.popleft()


@dataclass(frozen=True, slots=True)
class Sender:
    """Who says it: a seat (None: a spectator), the name shown, the account if any."""

    seat: int | None
    name: str
    account_id: int | None


def _mid_deal(data: TableData, state: engine.Deal | None) -> bool:
    return tr.is_mid_deal(data, state)


def said(
    data: TableData,
    state: engine.Deal | None,
    sender: Sender,
    chat: m.Chat,
    policy: ChatPolicy,
) -> tr.Change:
    """The change that says ``chat`` at the table, or the refusal (``chat_refused``)."""
    mid_deal = _mid_deal(data, state)
    if chat.text is not None:
        if sender.seat is not None and mid_deal:
            raise chat_refused(
                "text_mid_deal",
                "during a deal players send preset phrases only (free text between deals)",
            )
        if has_link(chat.text):
            raise chat_refused("link", "links are not allowed in the chat")
    if sender.account_id is None and not (
        sender.seat is not None and data.played >= policy.guest_deals
    ):
        raise chat_refused(
            "guest",
            f"guests read the chat; sign in (or play {policy.guest_deals} deals here) to write",
        )
    event = table_event(
        "chat",
        seat=sender.seat,
        name=sender.name,
        account_id=sender.account_id,
        preset=chat.preset,
        text=chat.text,
        spectators_only=sender.seat is None and mid_deal,
    )
    change = tr.Change(data, state)
    change.emit(event)
    return change


# The kinds some followers are not shown (``shown_to``); every other event reaches all those
# its audience names, which lets a follower skip the rest of the question (``Social.shows``).
SELECTIVE_KINDS = m.V2_EVENT_KINDS


def shown_to(
    event: dict[str, Any],
    seat: int | None,
    version: int,
    muted: Collection[str] = (),
    hidden_accounts: Collection[int] = (),
) -> bool:
    """Whether a follower (its seat, its protocol version, the names it muted, the accounts
    it blocked or that blocked it) is shown this event of its table; other kinds: True."""
    kind = name_of(event)  # a stored event's name: its wire kind for the kinds of chat
    if kind not in SELECTIVE_KINDS:
        return True
    if version < 2:
        return False
    if kind != "chat":
        return True
    if event.get("spectators_only") and seat is not None:
        return False
    if str(event.get("name", "")).casefold() in muted:
        return False
    account = event.get("account_id")
    return account is None or account not in hidden_accounts


@dataclass(slots=True)
class SentChat:
    """Whether each chat message of one table was shown to a follower or sent as
    ``hidden``: the last ``limit`` of them (a message older than those is reported, or
    not, on ``shown_to``'s decision now)."""

    limit: int = 500
    table_id: str | None = None
    shown: dict[int, bool] = field(default_factory=dict)

    def sent(self, table_id: str, seq: int, shown: bool) -> None:
        if table_id != self.table_id:
            self.table_id = table_id
            self.shown.clear()
        self.shown[seq] = shown
        if len(self.shown) > self.limit:
            del self.shown[next(iter(self.shown))]

    def was_shown(self, table_id: str, seq: int) -> bool | None:
        """True or False if the message was sent to the follower; None if it was not."""
        return self.shown.get(seq) if table_id == self.table_id else None


def reportable(
    event: dict[str, Any],
    seat: int | None,
    version: int,
    muted: Collection[str] = (),
    hidden_accounts: Collection[int] = (),
    was_shown: bool | None = None,
) -> bool:
    """Whether a follower may report this chat event: it was shown it when it was sent
    (``was_shown``: ``SentChat``'s word); never sent to it, if ``shown_to`` shows it now."""
    if was_shown is not None:
        return was_shown
    return shown_to(event, seat, version, muted, hidden_accounts)
