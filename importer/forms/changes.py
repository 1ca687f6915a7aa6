"""What a new version of a form loses against the stored one: a pure function of the two.

`forms add` refuses a version that loses anything (a key, a field, a requirement, a rule,
its table) unless the user confirms it: a definition inferred from a workbook and added
over a curated form of the same name would otherwise replace it without a word.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from importer.fields.field import Field
from importer.fields.registry import Bound
from importer.forms.definition import Form


def describe_losses(old: Form, new: Form) -> list[str]:
    """One plain line per loss (a verb phrase: "drop the key order_id"), in the order of
    the old form's key, fields and table; empty when the new version only adds or tightens."""
    losses: list[str] = []
    if old.key and old.key != new.key:
        was = ", ".join(old.key)
        if new.key:
            losses.append(f"change the key from {was} to {', '.join(new.key)}")
        else:
            losses.append(f"drop the key {was}")
    new_fields = {f.name: f for f in new.fields}
    for before in old.fields:
        after = new_fields.get(before.name)
        if after is None:
            losses.append(f"remove field {before.name!r}")
            continue
        losses.extend(_field_losses(before, after))
    if _table(old) != _table(new):
        losses.append(f"move its rows' table from {_table(old)} to {_table(new)}")
    return losses


def _table(form: Form) -> str:
    return form.table or f"forms.{form.name}"


def _field_losses(old: Field, new: Field) -> list[str]:
    name = repr(old.name)
    out: list[str] = []
    if old.required and not new.required:
        out.append(f"no longer require {name}")
    out += _bound_loss("min", name, old.min, new.min, looser=_lt)
    out += _bound_loss("max", name, old.max, new.max, looser=_gt)
    out += _bound_loss("min_length", name, old.min_length, new.min_length, looser=_lt)
    out += _bound_loss("max_length", name, old.max_length, new.max_length, looser=_gt)
    if old.pattern is not None:
        if new.pattern is None:
            out.append(f"drop the pattern of {name}")
        elif new.pattern != old.pattern:
            out.append(f"change the pattern of {name}")
    if old.choices:
        if not new.choices:
            out.append(f"drop the choices of {name}")
        else:
            known = {c.casefold() for c in old.choices}
            added = [c for c in new.choices if c.casefold() not in known]
            if added:
                out.append(f"allow more choices for {name}: {', '.join(map(repr, added))}")
    added_formats = [f for f in new.formats if f not in old.formats]
    if added_formats:
        out.append(f"accept more date formats for {name}: {', '.join(map(repr, added_formats))}")
    return out


def _lt(old: Any, new: Any) -> bool:
    return bool(new < old)


def _gt(old: Any, new: Any) -> bool:
    return bool(new > old)


def _bound_loss(
    rule: str,
    name: str,
    old: Bound | None,
    new: Bound | None,
    *,
    looser: Callable[[Any, Any], bool],
) -> list[str]:
    """A bound (min, max, min_length, max_length) dropped, or moved the loose way; a bound
    of another kind (the field's type changed) counts as changed."""
    if old is None:
        return []
    if new is None:
        return [f"drop the {rule} of {name} (was {old})"]
    try:
        moved = looser(old, new)
    except TypeError:  # a date against a number: not comparable, so not the same rule
        return [f"change the {rule} of {name} from {old} to {new}"]
    if moved:
        word = "lower" if rule.startswith("min") else "raise"
        return [f"{word} the {rule} of {name} from {old} to {new}"]
    return []
