"""`python -m tests.chaos [--quick] [--scenario NAME ...] [--seed N] [--keep]`"""

from __future__ import annotations

import argparse
import random
import sys
import time

from tests.chaos import run_campaign


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.chaos", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="the bounded slice run by CI")
    parser.add_argument(
        "--scenario", "--only", dest="only", nargs="+", metavar="NAME", help="run only these"
    )
    parser.add_argument("--seed", type=int, default=None, help="repeat a campaign exactly")
    parser.add_argument("--keep", action="store_true", help="keep the logs and workbooks")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    kind = "quick slice" if args.quick else "full campaign"
    print(f"chaos {kind}, seed {seed} (repeat with --seed {seed})", flush=True)
    began = time.monotonic()
    # Only a full run of every scenario is published (docs/RELIABILITY.md).
    publish = not args.quick and not args.only
    outcomes = run_campaign(
        quick=args.quick, seed=seed, only=args.only, out=sys.stdout, keep=args.keep, report=publish
    )
    failed = [o.name for o in outcomes if not o.ok]
    if failed:
        print(f"failed scenarios: {', '.join(failed)}")
    print(f"chaos took {time.monotonic() - began:.0f} s")
    print(f"chaos: {len(outcomes) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed or not outcomes else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
