"""Hypothesis strategies built from the wire models themselves.

``message_strategy(model)`` reads a pydantic model's fields (annotations and
their constraints: lengths, bounds, patterns, literals, tagged unions) and
draws valid instances, so a field added to ``protocol.models`` is exercised
without touching this file. Values stay within what both codecs carry: no NaN
or infinity, integers within msgpack's 64 bits.
"""

from __future__ import annotations

import types
import typing
from functools import cache, partial
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from hypothesis import strategies as st
from pydantic import AfterValidator, BaseModel, ValidationError
from pydantic.fields import FieldInfo

import engine

INT_MIN, INT_MAX = -(2**63), 2**63 - 1
MAX_LIST = 5  # keeps big shapes (SeatView) quick; sizes are not what these tests are about
CONSTRAINTS = ("ge", "gt", "le", "lt", "min_length", "max_length", "pattern")

card_codes = st.sampled_from(engine.CODES)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(INT_MIN, INT_MAX)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


def constraints_of(metadata: typing.Iterable[Any]) -> dict[str, Any]:
    """Bounds, lengths and pattern from pydantic / annotated-types metadata."""
    out: dict[str, Any] = {}
    for item in metadata:
        if isinstance(item, FieldInfo):
            out.update(constraints_of(item.metadata))
            continue
        for name in CONSTRAINTS:
            value = getattr(item, name, None)
            if value is not None:
                out[name] = value
    return out


def accepts(check: Any, value: Any) -> bool:
    try:
        check(value)
    except ValueError:  # pydantic's PydanticCustomError is one
        return False
    return True


def from_annotation(tp: Any, limits: dict[str, Any]) -> st.SearchStrategy[Any]:  # noqa: C901
    """A strategy for one annotation under the field's constraints."""
    origin = get_origin(tp)
    if origin is Annotated:
        base, *metadata = get_args(tp)
        return from_annotation(base, {**limits, **constraints_of(metadata)})
    if origin in (Union, types.UnionType):
        return st.one_of([from_annotation(arg, limits) for arg in get_args(tp)])
    if origin is Literal:
        return st.sampled_from(get_args(tp))
    if origin is list:
        (item,) = get_args(tp)
        size = min(limits.get("max_length", MAX_LIST), MAX_LIST)
        return st.lists(
            from_annotation(item, {}), min_size=limits.get("min_length", 0), max_size=size
        )
    if origin is dict:
        key, value = get_args(tp) or (str, Any)
        keys = st.text(max_size=8) if key is str else from_annotation(key, {})
        return st.dictionaries(keys, from_annotation(value, {}), max_size=4)
    if tp is type(None):
        return st.none()
    if tp is Any:
        return json_values
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return message_strategy(tp)
    if tp is bool:
        return st.booleans()
    if tp is int:
        return _integers(limits)
    if tp is float:
        return _floats(limits)
    if tp is str:
        return _strings(limits)
    raise TypeError(f"no strategy for {tp!r}")


def _integers(limits: dict[str, Any]) -> st.SearchStrategy[int]:
    low = limits.get("ge", limits["gt"] + 1 if "gt" in limits else INT_MIN)
    high = limits.get("le", limits["lt"] - 1 if "lt" in limits else INT_MAX)
    return st.integers(low, high)


def _floats(limits: dict[str, Any]) -> st.SearchStrategy[float]:
    return st.floats(
        min_value=limits.get("ge", limits.get("gt")),
        max_value=limits.get("le", limits.get("lt")),
        exclude_min="gt" in limits,
        exclude_max="lt" in limits,
        allow_nan=False,
        allow_infinity=False,
    )


def _strings(limits: dict[str, Any]) -> st.SearchStrategy[str]:
    low, high = limits.get("min_length", 0), limits.get("max_length", 30)
    if "pattern" in limits:
        return st.from_regex(limits["pattern"], fullmatch=True).filter(
            lambda s: low <= len(s) <= high
        )
    return st.text(min_size=low, max_size=high)


def deferred_field(field: FieldInfo) -> st.SearchStrategy[Any]:
    """Built on first use: models refer to each other.

    A field's own check (protocol/names.py's): only what it accepts is drawn."""
    drawn = st.deferred(lambda: from_annotation(field.annotation, constraints_of(field.metadata)))
    for check in (item.func for item in field.metadata if isinstance(item, AfterValidator)):
        drawn = drawn.filter(partial(accepts, check))
    return drawn


@cache
def message_strategy(model: type[BaseModel]) -> st.SearchStrategy[Any]:
    """Valid instances of ``model``: required fields always, the others sometimes."""
    required: dict[str, st.SearchStrategy[Any]] = {}
    optional: dict[str, st.SearchStrategy[Any]] = {}
    for name, field in model.model_fields.items():
        strategy = deferred_field(field)
        (required if field.is_required() else optional)[name] = strategy
    drawn = st.fixed_dictionaries(required, optional=optional)
    if model.__pydantic_decorators__.model_validators:
        # A model's own check across its fields (``resume``: a token or a table id): only
        # what it accepts is drawn.
        drawn = drawn.filter(partial(_valid, model))
    return drawn.map(model.model_validate)


def _valid(model: type[BaseModel], data: dict[str, Any]) -> bool:
    try:
        model.model_validate(data)
    except ValidationError:
        return False
    return True


def union_members(union: Any) -> list[type[BaseModel]]:
    """The model classes of a tagged union such as ``ClientMessage``."""
    inner = get_args(union)[0] if get_origin(union) is Annotated else union
    return list(get_args(inner))


def union_strategy(union: Any) -> st.SearchStrategy[Any]:
    return st.one_of([message_strategy(member) for member in union_members(union)])


def tag_of(model: type[BaseModel]) -> str:
    """The ``type`` (messages) or ``kind`` (events, actions) literal of a model."""
    for tag in ("type", "kind"):
        if tag in model.model_fields:
            return str(model.model_fields[tag].default)
    raise ValueError(f"{model.__name__} has no tag")
