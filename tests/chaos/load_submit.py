"""`python -m tests.chaos.load_submit FORM NOW TIMED SPREAD SEED FILE...`: submit NOW jobs to
run at once and TIMED jobs behind scheduled_import timers due 2..SPREAD seconds after their
submit (on the database's clock), cycling through FILE..., through one in-process Importer
(the services the CLI calls), interleaved, as fast as it goes."""

from __future__ import annotations

import random
import sys
from datetime import timedelta
from pathlib import Path

from importer.api import Importer, SubmitRequest


def main(argv: list[str]) -> int:
    form, now, timed, spread, seed = argv[0], int(argv[1]), int(argv[2]), float(argv[3]), argv[4]
    files = [Path(p) for p in argv[5:]]
    rng = random.Random(seed)
    kinds = [False] * now + [True] * timed
    rng.shuffle(kinds)
    importer = Importer()
    reused = 0
    for i, scheduled in enumerate(kinds):
        due = timedelta(seconds=rng.uniform(2.0, spread)) if scheduled else None
        request = SubmitRequest(
            files[i % len(files)], form=form, force=True, run_here=False, due_at=due
        )
        done = importer.submit_workbook(request).submission
        if not done.created:
            reused += 1
            print(f"submit {i} of {files[i % len(files)].name} gave job {done.job.id} back")
    print(f"{len(kinds) - reused} jobs created, {reused} not")
    return 1 if reused else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
