"""The README's command that starts the page: typed as written, in a folder laid out as a
clone after `make demo`, on the embedded database of a fresh home; the page answers and the
account it made signs in."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _block() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## The sender's page: `importer serve`\n", 1)[1]
    return section.split("```sh\n", 1)[1].split("```", 1)[0]


def _environment(home: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("IMPORTER_") and key not in ("DATABASE_URL", "VIRTUAL_ENV")
    }
    return {**env, "IMPORTER_HOME": str(home), "NO_COLOR": "1"}


@pytest.mark.slow
def test_the_readmes_serve_command_starts_the_page_with_its_account(tmp_path: Path) -> None:
    block = _block()
    password = re.search(r"printf '%s\\n' '([^']+)'", block)
    email = re.search(r"users add (\S+)", block)
    assert password is not None and email is not None, block
    (tmp_path / ".venv").symlink_to(ROOT / ".venv")
    env = _environment(tmp_path / "home")
    served = subprocess.Popen(
        ["bash", "-c", block],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        with httpx.Client(base_url="http://127.0.0.1:8000", timeout=5) as client:
            page = _first_answer(client, "/signin", served)
            assert page.status_code == 200 and "Sign in" in page.text
            token = re.search(r'name="csrf" value="([^"]+)"', page.text)
            assert token is not None
            signed = client.post(
                "/signin",
                data={"email": email.group(1), "password": password.group(1), "csrf": token[1]},
            )
            assert signed.status_code == 303 and signed.headers["location"] == "/imports"
            assert "<h2>Imports</h2>" in client.get("/imports").text  # an admin sees all
    finally:
        os.killpg(served.pid, signal.SIGINT)
        output = served.communicate(timeout=90)[0]
        subprocess.run(
            [str(ROOT / ".venv/bin/importer"), "db", "stop"], env=env, cwd=tmp_path, timeout=60
        )
    assert "added admin" in output and "serving the page at http://127.0.0.1:8000/" in output


def _first_answer(client: httpx.Client, path: str, served: subprocess.Popen[str]) -> httpx.Response:
    """The page's first answer, once the server (and its embedded database) is up."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if served.poll() is not None:
            raise AssertionError(f"the command ended: {served.communicate()[0]}")
        try:
            return client.get(path)
        except httpx.TransportError:
            time.sleep(0.5)
    raise AssertionError("the page did not answer within 3 minutes")
