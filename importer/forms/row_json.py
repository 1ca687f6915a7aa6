"""Valid rows encoded for the database straight from the validated columns.

A batch's valid rows travel to PostgreSQL as one JSON document, ``[[row_number, {field:
value, ...}], ...]``. Building a dict per row and running the JSON encoder over them costs
~5 µs a row; here each column is encoded in one C-level pass chosen by the types it holds
(``map(encode_basestring, texts)``, ``map(int.__repr__, numbers)``), and each row is one
``%`` format of a template that holds the field names. The text is exactly what
``json.JSONEncoder(ensure_ascii=False, allow_nan=False)`` gives for the same values
(tests compare both on every type); a value of any other type goes through that encoder.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from typing import Any

from importer.errors import ImporterError

_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode
# The same string escaping the encoder above uses (the C version when available).
_encode_text: Callable[[str], str] = json.encoder.encode_basestring

_BOOL = {True: "true", False: "false"}
_SCALAR: dict[type, Callable[[Any], str]] = {
    str: _encode_text,
    int: int.__repr__,
    bool: _BOOL.__getitem__,
    type(None): lambda _: "null",
}


def _value(value: object) -> str:
    """One value of a mixed column (None among texts, say)."""
    encode = _SCALAR.get(type(value))
    if encode is not None:
        return encode(value)
    return _encode(value)  # floats (NaN refused as before), and anything unexpected


def encode_column(values: Sequence[object]) -> list[str]:
    """The JSON text of each value, in one pass over the column when its type is uniform."""
    kinds = set(map(type, values))
    if len(kinds) == 1:
        kind = kinds.pop()
        if kind is float:
            if all(map(math.isfinite, values)):  # type: ignore[arg-type]
                return list(map(float.__repr__, values))
        else:
            encode = _SCALAR.get(kind)
            if encode is not None:
                return list(map(encode, values))
    return list(map(_value, values))


class RowTemplate:
    """``[number,{"name":value,...}]`` for a fixed list of fields (absent ones are null)."""

    def __init__(self, names: Sequence[str], absent: Sequence[str]) -> None:
        parts = [f"{_encode_text(name)}:%s" for name in names]
        parts += [f"{_encode_text(name)}:null" for name in absent]
        # Field names are identifiers (forms.py checks them), so no '%' reaches the template.
        if any("%" in name for name in [*names, *absent]):
            raise ImporterError("a field name cannot contain '%'")
        self._template = "[%d,{" + ",".join(parts) + "}]"

    def document(self, numbers: Sequence[int], columns: Sequence[Sequence[object]]) -> str:
        """The whole batch as one JSON array."""
        if not numbers:
            return "[]"
        encoded = [encode_column(column) for column in columns]
        return (
            "[" + ",".join(map(self._template.__mod__, zip(numbers, *encoded, strict=True))) + "]"
        )
