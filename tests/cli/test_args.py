"""Ids as typed: 0 is told apart from text that is not a number."""

from __future__ import annotations

import pytest

from tests.conftest import Cli


@pytest.mark.parametrize(
    ("args", "what"), [(("status", "0"), "job"), (("timers", "cancel", "00"), "timer")]
)
def test_an_id_of_zero_says_ids_start_at_1(
    cli: Cli, cli_env: dict[str, str], args: tuple[str, ...], what: str
) -> None:
    result = cli(*args)
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {what} ids are whole numbers such as 12 and start at 1, not {args[-1]!r}\n"
    )


def test_text_is_still_told_it_is_not_a_number(cli: Cli, cli_env: dict[str, str]) -> None:
    result = cli("status", "x1")
    assert result.stderr == "error: job ids are whole numbers such as 12, not 'x1'\n"
