"""Scenario: the disk holding the imported rows fills up during an import.

The stage's form tables (the form's own table, forms.chaos, and import_rejected_rows,
import_row_errors: heap, TOAST and indexes) move to a tablespace on a size-limited tmpfs, most
of it taken by a ballast file, so a job fills it part-way. The batch that hits "No space left
on device" must roll back as a whole, the attempt must fail with one clear line (no
traceback), and no row may be stored without its cursor; once the ballast is removed,
`importer resume` must finish the job exactly. Only that tmpfs fills: the WAL and the rest of
the data directory stay on the server's own disk, and the machine's real disk is never filled.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from psycopg import sql

from importer.database.embedded import SYSTEM_USER
from tests.chaos.campaign import Outcome, ScenarioFailed, Stage, outcome
from tests.chaos.invariants import Conn, jobs_since
from tests.chaos.kills import _stop_gracefully, _totals
from tests.chaos.workbooks import FORM_TABLE, Expected

TABLES = (
    FORM_TABLE.identifier,
    sql.Identifier("import_rejected_rows"),
    sql.Identifier("import_row_errors"),
)
DISK_MB = 32


class SmallDisk:
    """A tmpfs of DISK_MB megabytes with a tablespace folder the server's user owns."""

    def __init__(self) -> None:
        self.mount = Path(tempfile.mkdtemp(prefix="chaos-disk-"))
        self.mounted = False
        self.folder = self.mount / "tablespace"
        self.ballast = self.mount / "ballast"

    def __enter__(self) -> SmallDisk:
        if os.geteuid() != 0:
            raise ScenarioFailed("a size-limited tmpfs needs root (mount -t tmpfs)")
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={DISK_MB}m,mode=0711", "chaos-disk", self.mount],
            check=True,
            capture_output=True,
            timeout=30,
        )
        self.mounted = True
        self.folder.mkdir(mode=0o700)
        with contextlib.suppress(KeyError):
            user = pwd.getpwnam(SYSTEM_USER)
            os.chown(self.folder, user.pw_uid, user.pw_gid)
        return self

    def fill(self, leave_mb: float) -> None:
        """Take all but ``leave_mb`` of the free space with a ballast file."""
        free = shutil.disk_usage(self.mount).free
        size = max(0, free - int(leave_mb * 2**20))
        with open(self.ballast, "wb") as handle:
            chunk = b"\0" * 2**20
            while size > 0:
                handle.write(chunk[: min(size, len(chunk))])
                size -= len(chunk)

    def free_mb(self) -> float:
        return shutil.disk_usage(self.mount).free / 2**20

    def __exit__(self, *exc: object) -> None:
        if self.mounted:
            subprocess.run(["umount", "-l", self.mount], capture_output=True, timeout=30)
        shutil.rmtree(self.mount, ignore_errors=True)


def _job(stage: Stage, job_id: int) -> dict[str, object]:
    with stage.conn() as conn:
        row = conn.execute("SELECT * FROM import_jobs WHERE id = %s", (job_id,)).fetchone()
    if row is None:
        raise ScenarioFailed(f"job {job_id} vanished")
    return row


def _half_written(stage: Stage, job_id: int) -> list[str]:
    """Rows stored or rejected beyond the committed cursor (or missing below it)."""
    with stage.conn() as conn:
        row = conn.execute(
            sql.SQL(
                "SELECT j.success_rows, j.failed_rows,"
                " (SELECT count(*) FROM {} WHERE import_job_id = j.id) AS stored,"
                " (SELECT count(*) FROM import_rejected_rows WHERE import_job_id = j.id)"
                " AS rejected FROM import_jobs j WHERE j.id = %s"
            ).format(FORM_TABLE.identifier),
            (job_id,),
        ).fetchone()
    if row is None:
        return [f"job {job_id}: vanished"]
    if (row["stored"], row["rejected"]) != (row["success_rows"], row["failed_rows"]):
        return [
            f"job {job_id}: after the failed batch {row['stored']} rows stored and "
            f"{row['rejected']} rejected, but the cursor says {row['success_rows']} + "
            f"{row['failed_rows']}"
        ]
    return []


def disk_full(stage: Stage, *, rounds: int, rows: int) -> Outcome:
    began = time.monotonic()
    filled = 0
    expected: dict[int, Expected] = {}
    errors: list[str] = []
    kept: list[int] = []
    with SmallDisk() as disk, stage.conn() as conn:
        conn.execute(f"CREATE TABLESPACE chaos_small_disk LOCATION '{disk.folder}'")
        try:
            _move_tables(conn, "chaos_small_disk")
            for round_no in range(rounds):
                disk.fill(leave_mb=stage.rng.uniform(1.5, 3.5))
                book = stage.workbook(f"disk-{round_no}", rows, seed=1400 + round_no)
                stage.submit_detached(book)
                job_id = jobs_since(conn, 0)[-1]
                expected[job_id] = book
                worker = stage.fleet.start("worker", ["worker", "--concurrency", "1"])

                def failed(job: int = job_id) -> bool:
                    row = _job(stage, job)
                    return row["last_error"] is not None or row["status"] == "succeeded"

                if not stage.wait_until(failed, 120, step=0.1):
                    stage.problems.append(f"job {job_id}: neither failed nor finished in 120 s")
                _stop_gracefully(stage, [worker])
                row = _job(stage, job_id)
                error = str(row["last_error"] or "")
                kept.append(int(row["success_rows"]) + int(row["failed_rows"]))  # type: ignore[call-overload]
                if "No space left on device" in error:
                    filled += 1
                    errors.append(error)
                else:
                    stage.problems.append(
                        f"job {job_id}: ended {row['status']} without a disk-full error"
                        f" ({error or 'none'}): the disk did not fill"
                    )
                if "\n" in error or "Traceback" in error:
                    stage.problems.append(f"job {job_id}: error is not one line: {error!r}")
                out, err = worker.output()
                if "Traceback" in out + err:
                    stage.problems.append(f"{worker.name}: printed a traceback")
                stage.problems.extend(_half_written(stage, job_id))
                disk.ballast.unlink(missing_ok=True)
                free = disk.free_mb()
                code, resume = stage.fleet.run("resume", ["resume", str(job_id)], timeout=180)
                want = 3 if book.bad else 0
                if code != want:
                    stage.problems.append(
                        f"job {job_id}: resume with {free:.0f} MB free exited {code}"
                        f" (expected {want}): {resume.tail()}"
                    )
            checks = stage.check_jobs(expected)
            report = stage.audit()
        finally:
            # Back where they were: the tablespace (and the tmpfs under it) must be removable.
            _move_tables(conn, "pg_default")
            conn.execute("DROP TABLESPACE IF EXISTS chaos_small_disk")

    dups, lost, stuck = _totals(checks)
    shown = errors[0] if errors else "none"
    line = (
        f"disk full: {filled} imports filled a {DISK_MB} MB tmpfs tablespace (form tables and "
        f"their indexes; WAL on the server's own disk, not filled) after "
        f"{', '.join(f'{k:,}' for k in kept)} rows; the batch rolled back, the attempt failed "
        f"with one line ({shown[:90]}...), nothing half-written; resume after freeing the "
        f"space: {sum(c.ok for c in checks)}/{len(checks)} jobs exact, {dups} duplicates, "
        f"{lost} lost, {stuck} stuck; {report.write_transactions} write transactions audited"
    )
    return outcome(
        stage,
        "disk-full",
        line,
        began,
        filled,
        rounds,
        "disk-full failures",
        jobs=len(checks),
        lost=lost,
        twice=dups,
    )


def _move_tables(conn: Conn, tablespace: str) -> None:
    space = sql.Identifier(tablespace)
    for table in TABLES:
        conn.execute(sql.SQL("ALTER TABLE {} SET TABLESPACE {}").format(table, space))
        indexes = conn.execute(
            "SELECT indexrelid::regclass::text AS name FROM pg_index"
            " WHERE indrelid = to_regclass(%s)",
            (table.as_string(conn),),
        ).fetchall()
        for index in indexes:
            # regclass text is already quoted and schema-qualified where it must be
            conn.execute(
                sql.SQL("ALTER INDEX {} SET TABLESPACE {}").format(sql.SQL(index["name"]), space)
            )
