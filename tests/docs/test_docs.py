"""Docs that cannot rot: the command-line reference is what the code says, and every
example of the tutorial and the how-to guides prints what the page shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from importer.cli.reference import markdown
from tests.docs.examples import DOCS, environment, normalise, read_page, run, scratch_folder
from tests.docs.references import generated_part, settings_table

PAGES = sorted([DOCS / "tutorial.md", *(DOCS / "how-to").glob("*.md")])


def test_the_cli_reference_is_what_the_code_says() -> None:
    committed = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    assert committed == markdown(), (
        "docs/reference/cli.md is stale: python -m importer.cli.reference > docs/reference/cli.md"
    )


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_example_prints_what_the_page_shows(
    page: Path, empty_database_url: str, tmp_path: Path
) -> None:
    examples = read_page(page).examples
    env = environment(empty_database_url, scratch_folder(tmp_path))
    for example in examples:
        if example.skipped is not None:
            continue
        printed = run(example.command, tmp_path, env)
        assert normalise(printed) == normalise(example.shown), (
            f"{page.name}:{example.line}: $ {example.command}\n--- shown\n{example.shown}"
            f"\n--- printed\n{printed}\n(capture again: python -m tests.docs.examples capture"
            f" docs/{page.relative_to(DOCS)})"
        )


def test_the_http_api_reference_is_what_the_server_serves() -> None:
    from importer.web.reference import markdown as http_markdown

    committed = (DOCS / "reference" / "http-api.md").read_text(encoding="utf-8")
    assert committed == http_markdown(), (
        "docs/reference/http-api.md is stale:"
        " python -m importer.web.reference > docs/reference/http-api.md"
    )


def _page(name: str) -> str:
    return (DOCS / "reference" / name).read_text(encoding="utf-8")


def test_the_settings_reference_names_every_setting_with_its_variable() -> None:
    page = _page("settings.md")
    assert generated_part(page) == settings_table(), "python -m tests.docs.references"


def test_the_form_reference_names_every_key_a_form_may_hold() -> None:
    from importer.forms.definition import _FIELD_KEYS, _FORM_KEYS

    page = _page("forms.md")
    missing = sorted(key for key in _FORM_KEYS | _FIELD_KEYS if f"`{key}`" not in page)
    assert missing == [], f"form keys without a line in docs/reference/forms.md: {missing}"


def test_the_exit_codes_reference_names_every_exit_code() -> None:
    from importer.cli.exit_codes import ExitCode

    page = _page("exit-codes.md")
    assert all(f"| {int(code)} |" in page for code in ExitCode), page


def test_the_production_reference_names_every_metric() -> None:
    import re

    source = (DOCS.parent / "importer" / "daemons" / "metrics.py").read_text(encoding="utf-8")
    metrics = set(re.findall(r'"(importer_[a-z_]+)"', source))
    page = _page("production.md")
    assert metrics and sorted(m for m in metrics if m not in page) == []
