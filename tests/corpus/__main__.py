"""python -m tests.corpus [-v] [FILE ...]: the whole corpus (or the files named) through the
real CLI; prints the summary and exits 1 when a file broke. Without FILEs, the labelled
corpus follows (tests/corpus/labelled: each sheet compared with what a person sees in it),
and the run exits 1 too when a sheet's figures are worse than its recorded baseline.

The server is IMPORTER_TEST_DATABASE_URL when set (a throw-away database is created on it
and dropped afterwards), else an embedded server started in a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import uuid
from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from tests.corpus.labelled.figures import Compared, load_baseline, report, worse_than
from tests.corpus.labelled.labels import load_labels
from tests.corpus.labelled.run import run_labelled
from tests.corpus.run import child_step, corpus_files, run_file, summary


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.corpus")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per file")
    parser.add_argument("files", nargs="*", type=Path, help="default: the whole corpus")
    args = parser.parse_args(argv)
    files = [p.resolve() for p in args.files] or corpus_files()
    work = Path(tempfile.mkdtemp(prefix="importer-corpus-"))
    server = None
    labelled: list[Compared] = []
    try:
        url = os.environ.get("IMPORTER_TEST_DATABASE_URL")
        if not url:
            from importer.database.embedded import EmbeddedServer

            server = EmbeddedServer(work / "pg")
            url = server.ensure_running()
        name = f"importer_corpus_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        try:
            env = {
                k: v
                for k, v in os.environ.items()
                if not k.startswith("IMPORTER_") and k != "DATABASE_URL"
            }
            env.update(
                IMPORTER_DATABASE_URL=make_conninfo(url, dbname=name),
                IMPORTER_HOME=str(work / "home"),
                NO_COLOR="1",
            )
            outcomes = []
            for index, path in enumerate(files, start=1):
                outcome = run_file(path, index, child_step(env, work), work)
                outcomes.append(outcome)
                if args.verbose:
                    print(
                        f"{outcome.status:8s} {outcome.seconds:5.2f} s "
                        f"{outcome.peak_rss_mb:4.0f} MB  {outcome.label}  {outcome.reason}",
                        flush=True,
                    )
        finally:
            with psycopg.connect(url, autocommit=True) as admin:
                admin.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
                )
        if not args.files:
            labelled = run_labelled(url, load_labels())
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)
    for line in summary(outcomes):
        print(line)
    worse = worse_than(load_baseline(), labelled) if labelled else []
    for line in [*(report(labelled) if labelled else []), *(f"WORSE {w}" for w in worse)]:
        print(line)
    return 1 if any(o.status == "broken" for o in outcomes) or worse else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
