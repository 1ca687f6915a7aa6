"""The page in a real browser: `importer serve --no-worker` on a free loopback port against
this test's database, Debian's Chromium driven by Playwright (never a browser of Playwright's
own: it is launched from /usr/bin/chromium), and the worker run by the test when it wants the
job to move. Whatever a page does that a person would notice (a dialog, a script error) is
recorded."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Dialog, Page, Playwright, sync_playwright

from importer.api import Importer
from importer.config import Settings
from tests.web.serving import environment, free_port, start_serve, wait_for_answer

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WIDE, NARROW = 1280, 390
PASSWORD = "a password long enough"
WAIT_MS = 30_000


@dataclass
class Served:
    """The page served by its own process; ``importer`` reaches the same database."""

    url: str
    importer: Importer
    process: subprocess.Popen[bytes]

    def account(self, email: str, role: str, forms: list[str]) -> None:
        self.importer.add_user(email, role, forms, PASSWORD)

    def work_in_background(self) -> threading.Thread:
        """A worker takes what is queued now (the page watches it run), on a thread."""
        thread = threading.Thread(target=self.importer.run_worker, kwargs={"once": True})
        thread.start()
        return thread


@dataclass
class Watched:
    """A page and what it did that no sender should see: dialogs opened, errors logged."""

    page: Page
    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def assert_quiet(self) -> None:
        assert self.dialogs == [], self.dialogs
        assert self.errors == [], self.errors


@pytest.fixture
def served(database_url: str, tmp_path: Path) -> Iterator[Served]:
    port = free_port()
    process = start_serve(environment(database_url, tmp_path / "home"), port)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_answer(url, process)
        importer = Importer(settings=Settings(database_url=database_url, home=tmp_path / "home"))
        yield Served(url, importer, process)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
        process.communicate(timeout=60)


@pytest.fixture(scope="module")
def playwright_driver() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright_driver: Playwright) -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    launched = playwright_driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
    yield launched
    launched.close()


def open_page(browser: Browser, width: int, base_url: str) -> Watched:
    """A fresh browser profile at ``width`` pixels; dialogs are dismissed and recorded, as
    are the page's script errors and failed checks of its console."""
    context = browser.new_context(viewport={"width": width, "height": 900}, base_url=base_url)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    watched = Watched(page)

    def on_dialog(dialog: Dialog) -> None:
        watched.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def on_console(message: ConsoleMessage) -> None:
        if message.type in ("error", "warning"):
            watched.errors.append(message.text)

    page.on("dialog", on_dialog)
    page.on("console", on_console)
    page.on("pageerror", lambda error: watched.errors.append(str(error)))
    return watched


def tab_to(page: Page, selector: str, presses: int = 40) -> None:
    """Press Tab until the element ``selector`` has the focus (it is reachable by keyboard)."""
    for _ in range(presses):
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} was not reached with Tab in {presses} presses")


def overflowing(page: Page) -> list[str]:
    """What sticks out of the page's width, and the tables a sender would have to scroll
    sideways to read (a phone shows them row by row instead)."""
    found: list[str] = page.evaluate(
        """() => {
          const width = document.documentElement.clientWidth;
          const out = [];
          for (const el of document.querySelectorAll("body *")) {
            if (el.closest(".scroll")) continue;
            const box = el.getBoundingClientRect();
            if (box.width && box.right > width + 1) out.push(`${el.tagName}.${el.className}`);
          }
          for (const box of document.querySelectorAll(".scroll")) {
            if (box.scrollWidth > box.clientWidth + 1) out.push(`${box.id || "a table"} scrolls`);
          }
          if (document.documentElement.scrollWidth > width + 1) out.push("the page scrolls");
          return out;
        }"""
    )
    return found
