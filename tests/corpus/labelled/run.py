"""Every labelled sheet through the real CLI in a scratch database, compared with its label."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from tests.corpus.labelled.figures import Compared, compare
from tests.corpus.labelled.harness import cli_environment, connected, run_sheet, scratch_database
from tests.corpus.labelled.labels import Label
from tests.corpus.run import child_step


def run_labelled(
    server_url: str,
    labels: Sequence[Label],
    progress: Callable[[Compared], None] | None = None,
) -> list[Compared]:
    """Each sheet: infer -> add -> submit, each a child process, in one new database."""
    work = Path(tempfile.mkdtemp(prefix="importer-labelled-"))
    results: list[Compared] = []
    try:
        with scratch_database(server_url) as url, connected(url) as db:
            step = child_step(cli_environment(url, work / "home"), work)
            for index, label in enumerate(labels, start=1):
                result = compare(label, run_sheet(label, index, step, work, db))
                results.append(result)
                if progress is not None:
                    progress(result)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return results
