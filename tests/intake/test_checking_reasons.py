"""`check`'s most common problems count equal mistakes together: the cell's own value is
left out of the reason, in words a person reads."""

from __future__ import annotations

import pytest

from importer.forms.validation import RowError
from importer.intake.checking import reason_of


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ("'31/02/2024': February 2024 has no day 31", "February 2024 has no day 31"),
        ("'12.5' is not a whole number", "the value is not a whole number"),
        ("a value is required but the cell is empty", "a value is required but the cell is empty"),
    ],
)
def test_the_value_is_left_out_of_the_reason(message: str, reason: str) -> None:
    assert reason_of(RowError("Day", "31/02/2024", message)) == reason


def test_a_row_level_message_is_kept_whole() -> None:
    assert reason_of(RowError("(row)", None, "'a' and 'b' clash")) == "'a' and 'b' clash"
