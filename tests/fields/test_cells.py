"""A text in a date format the field reads, naming a day that does not exist, is told as
such: the sender wrote the right format, and the message says what is wrong with the day."""

from __future__ import annotations

import pytest

from importer.fields.cells import Invalid, build_coercer
from importer.forms.definition import parse_form_text

FORM = """
name = "days"
[[fields]]
name = "day"
header = "Day"
type = "date"
formats = ["%d/%m/%Y", "%d %b %y"]
[[fields]]
name = "us_day"
header = "US Day"
type = "date"
formats = ["%d/%m/%Y", "%m/%d/%Y"]
[[fields]]
name = "moment"
header = "Moment"
type = "datetime"
formats = ["%d/%m/%Y %H:%M"]
"""
FIELDS = {f.name: f for f in parse_form_text(FORM).fields}


def _message(field: str, text: str) -> str:
    coerce = build_coercer(FIELDS[field])
    with pytest.raises(Invalid) as refused:
        coerce(text)
    return refused.value.message


@pytest.mark.parametrize(
    ("field", "text", "message"),
    [
        ("day", "31/02/2024", "'31/02/2024': February 2024 has no day 31"),
        ("day", "31/04/2024", "'31/04/2024': April 2024 has no day 31"),
        ("day", "13/13/2024", "'13/13/2024': there is no month 13"),
        ("day", "29/02/2023", "'29/02/2023': 2023 is not a leap year: February has 28 days"),
        ("day", "00/05/2024", "'00/05/2024': there is no day 0"),
        ("day", "30 Feb 24", "'30 Feb 24': February 2024 has no day 30"),
        # ISO, in both the shapes Python reads
        ("day", "2024-02-30", "'2024-02-30': February 2024 has no day 30"),
        ("day", "2023-02-29", "'2023-02-29': 2023 is not a leap year: February has 28 days"),
        ("day", "20241301", "'20241301': there is no month 13"),
        # Two formats: the one reading a real month says what is wrong.
        ("us_day", "02/31/2024", "'02/31/2024': February 2024 has no day 31"),
        ("moment", "31/06/2024 10:30", "'31/06/2024 10:30': June 2024 has no day 31"),
        ("moment", "2023-02-29T10:30:00", "'2023-02-29T10:30:00': 2023 is not a leap year: "
         "February has 28 days"),
    ],
)  # fmt: skip
def test_a_day_that_does_not_exist_is_named(field: str, text: str, message: str) -> None:
    assert _message(field, text) == message


def test_a_leap_day_and_real_days_are_dates() -> None:
    assert build_coercer(FIELDS["day"])("29/02/2024") == "2024-02-29"
    assert build_coercer(FIELDS["day"])("2024-02-29") == "2024-02-29"
    assert build_coercer(FIELDS["us_day"])("02/28/2024") == "2024-02-28"


@pytest.mark.parametrize(
    ("field", "text", "message"),
    [
        ("day", "soon", "'soon' is not a date (expected YYYY-MM-DD or DD/MM/YYYY, DD Mon YY)"),
        ("day", "31-02-2024", "'31-02-2024' is not a date (expected YYYY-MM-DD or DD/MM/YYYY, "
         "DD Mon YY)"),
        ("day", "31 Fby 24", "'31 Fby 24' is not a date (expected YYYY-MM-DD or DD/MM/YYYY, "
         "DD Mon YY)"),
        # A real day and a time of day that is not: the format is what to say.
        ("moment", "30/06/2024 25:30", "'30/06/2024 25:30' is not a date and time (expected "
         "YYYY-MM-DD hh:mm:ss or DD/MM/YYYY hh:mm)"),
    ],
)  # fmt: skip
def test_other_texts_still_name_the_formats(field: str, text: str, message: str) -> None:
    assert _message(field, text) == message
