"""The actions a seat sends inside ``act``, tagged by ``kind``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .base import (
    CardCode,
    ContractCode,
    Model,
)


class BidAction(Model):
    kind: Literal["bid"] = "bid"
    contract: ContractCode


class DiscardAction(Model):
    kind: Literal["discard"] = "discard"
    cards: list[CardCode] = Field(max_length=24)


class ChelemAction(Model):
    kind: Literal["chelem"] = "chelem"
    announce: bool


class PoigneeAction(Model):
    kind: Literal["poignee"] = "poignee"
    cards: list[CardCode] = Field(max_length=24)


class PlayAction(Model):
    kind: Literal["play"] = "play"
    card: CardCode


ActionModel = Annotated[
    BidAction | DiscardAction | ChelemAction | PoigneeAction | PlayAction,
    Field(discriminator="kind"),
]
