"""The engine names: one list, one check, one message wherever a name is given."""

from __future__ import annotations

from pathlib import Path

import pytest

from importer.config import load_settings
from importer.errors import ConfigError, InputError
from importer.excel import ENGINES, Engine, UnknownEngine, check_engine, open_sheet, peek_sheet

ORDERS = Path(__file__).resolve().parents[2] / "sample_data" / "orders.xlsx"
CHOICES = "use one of auto, calamine, openpyxl"


def test_the_names() -> None:
    assert ENGINES == ("auto", "calamine", "openpyxl")
    assert [check_engine(name) for name in ENGINES] == list(Engine)


@pytest.mark.parametrize("name", ENGINES)
def test_every_name_is_accepted_wherever_one_is_given(name: str) -> None:
    assert load_settings(environ={"IMPORTER_READER_ENGINE": name}).reader.engine == name
    with open_sheet(ORDERS, engine=name) as reader:
        assert reader.header
    assert peek_sheet(ORDERS, engine=name).header == reader.header


@pytest.mark.parametrize("wrong", ["fast", "Calamine", "", 5, None])
def test_an_unknown_name_is_refused_with_one_message(wrong: object) -> None:
    with pytest.raises(UnknownEngine) as caught:
        check_engine(wrong, named="--engine")
    assert str(caught.value) == f"--engine {wrong!r}: {CHOICES}"
    assert isinstance(caught.value, InputError)  # as open_sheet has always refused it


@pytest.mark.parametrize("wrong", ["fast", "Calamine"])
def test_open_sheet_peek_sheet_and_the_settings_refuse_alike(wrong: str) -> None:
    for read in (open_sheet, peek_sheet):
        with pytest.raises(UnknownEngine, match=f"^engine '{wrong}': {CHOICES}$"):
            read(ORDERS, engine=wrong)
    with pytest.raises(ConfigError) as caught:
        load_settings(environ={"IMPORTER_READER_ENGINE": wrong})
    assert str(caught.value) == f"invalid setting reader.engine = '{wrong}': {CHOICES}"
