"""`importer serve` stops on SIGINT as on SIGTERM: it logs the stop, its worker gives its jobs
back, it logs that it stopped and exits 0 (uvicorn alone would raise the signal again once
stopped, and the process would die of it before its worker stopped)."""

from __future__ import annotations

import signal
from pathlib import Path

from tests.web.serving import environment, free_port, start_serve, wait_for_answer


def test_serve_logs_its_stop_on_sigint_and_exits_0_once_its_worker_stopped(
    database_url: str, tmp_path: Path
) -> None:
    port = free_port()
    process = start_serve(environment(database_url, tmp_path / "home"), port, worker=True)
    wait_for_answer(f"http://127.0.0.1:{port}", process)
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 0, out
    lines = out.decode().splitlines()
    texts = ("stopping on SIGINT", "worker stopped", "stopped on SIGINT")
    said = [_line_of(lines, text) for text in texts]
    assert said == sorted(said), lines  # the stop, its worker's end, then the last word


def _line_of(lines: list[str], text: str) -> int:
    found = [number for number, line in enumerate(lines) if text in line]
    assert found, (text, lines)
    return found[0]
