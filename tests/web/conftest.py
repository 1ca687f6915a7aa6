"""The web front end in-process: the application over a real PostgreSQL, driven by
Starlette's TestClient (httpx), with accounts of each role."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from importer.api import Importer
from importer.config import Settings
from importer.database import Connection
from importer.repositories.accounts import Account
from importer.web import create_app
from tests.support.jobs import PEOPLE_FORM, add_form
from tests.web.browser import browser, playwright_driver, served  # noqa: F401 - fixtures

PASSWORD = "a password long enough"


@dataclass(frozen=True)
class Site:
    importer: Importer
    settings: Settings

    def client(self, max_upload_mb: int | None = None) -> TestClient:
        app = create_app(self.importer, max_upload_mb=max_upload_mb)
        return TestClient(app, follow_redirects=False)

    def account(self, email: str, role: str, forms: list[str] | None = None) -> Account:
        return self.importer.add_user(email, role, forms or [], PASSWORD)

    def signed_in(self, email: str, max_upload_mb: int | None = None) -> TestClient:
        """A browser signed in as ``email``."""
        client = self.client(max_upload_mb)
        page = client.get("/signin")
        response = client.post(
            "/signin", data={"email": email, "password": PASSWORD, "csrf": csrf_of(page.text)}
        )
        assert response.status_code == 303, response.text
        return client

    def token(self, email: str) -> dict[str, str]:
        """The headers of an API client with a token of ``email``."""
        _, token = self.importer.create_token(email, "test")
        return {"Authorization": f"Bearer {token}"}

    def work(self) -> None:
        """A worker takes what is queued, until nothing is left."""
        self.importer.run_worker(once=True)


def send(client: TestClient, token: str, name: str, content: bytes) -> str:
    """Upload a workbook through the page and import it as checked: the job's page."""
    sent = client.post("/imports", data={"csrf": token}, files={"file": (name, content)})
    assert sent.status_code == 303, sent.text
    review = sent.headers["location"]
    assert review.startswith("/uploads/"), review
    started = client.post(f"{review}/import", data={"csrf": token})
    assert started.status_code == 303, started.text
    return str(started.headers["location"])


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None, html
    return found.group(1)


@pytest.fixture
def site(database_url: str, conn: Connection, tmp_path: Path) -> Iterator[Site]:
    add_form(conn)
    add_form(conn, PEOPLE_FORM)
    settings = Settings(database_url=database_url, home=tmp_path / "home")
    yield Site(Importer(settings=settings), settings)
