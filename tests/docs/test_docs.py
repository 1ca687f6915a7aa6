"""Docs that cannot rot: the command-line reference is what the code says, and every
example of the tutorial and the how-to guides prints what the page shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from importer.cli.reference import markdown
from tests.docs.examples import DOCS, environment, normalise, read_page, run, scratch_folder

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
