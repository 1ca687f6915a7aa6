"""The JSON API: bearer tokens, an import created by upload and run by a worker, read, listed,
its rejected rows paged, its error workbook, cancel and retry; errors as {"code", "message"};
no lease owner or host in any answer; the OpenAPI document matches the routes."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.routing import Route

from importer.database import Connection
from importer.web import create_app
from tests.support.jobs import orders_book
from tests.web.conftest import Site


def test_a_bad_token_is_refused_with_a_json_error(site: Site) -> None:
    client = site.client()
    for headers in ({}, {"Authorization": "Bearer imp_nothing"}, {"Authorization": "Basic x"}):
        answer = client.get("/api/imports", headers=headers)
        assert answer.status_code == 401, headers
        assert answer.json()["code"] == "unauthorized" and answer.headers["www-authenticate"]
    site.account("ana@example.com", "sender", ["orders"])
    headers = site.token("ana@example.com")
    assert client.get("/api/imports", headers=headers).status_code == 200
    token_id = site.importer.api_tokens("ana@example.com")[0].id
    site.importer.revoke_token(token_id)
    revoked = client.get("/api/imports", headers=headers)
    assert revoked.status_code == 401 and revoked.json() == {
        "code": "unauthorized",
        "message": "the API token is not valid (revoked, or never made)",
    }


def test_an_import_through_the_api(site: Site, tmp_path: Path, conn: Connection) -> None:
    site.account("ana@example.com", "sender", ["orders"])
    headers = site.token("ana@example.com")
    client = site.client()
    assert client.get("/api/forms", headers=headers).json() == {
        "forms": [{"name": "orders", "version": 1, "key": []}]
    }
    book = orders_book(tmp_path / "orders.xlsx", 40)
    created = client.post(
        "/api/imports",
        headers=headers,
        data={"form": "orders", "max_rejected": "50%"},
        files={"file": ("orders.xlsx", book.path.read_bytes())},
    )
    assert created.status_code == 201, created.text
    job = created.json()
    assert job["status"] == "pending" and job["created"] is True and job["total_rows"] is None
    assert job["submitted_by"] == "ana@example.com" and job["max_rejected"] == "50%"
    site.work()
    done = client.get(f"/api/imports/{job['id']}", headers=headers).json()
    assert done["status"] == "partially_succeeded" and done["done"] is True
    assert (done["total_rows"], done["success_rows"], done["failed_rows"]) == (40, 36, 4)
    listed = client.get("/api/imports", headers=headers).json()
    assert [j["id"] for j in listed["imports"]] == [job["id"]] and listed["next_before"] is None
    first = client.get(f"/api/imports/{job['id']}/rejected?limit=3", headers=headers).json()
    assert first["header"] == ["Order ID", "Customer", "Amount"] and first["rejected_rows"] == 4
    assert len(first["rows"]) == 3 and first["next_after"] == first["rows"][-1]["row"]
    assert first["rows"][0]["problems"][0]["message"]
    rest = client.get(
        f"/api/imports/{job['id']}/rejected?after={first['next_after']}&limit=3", headers=headers
    ).json()
    assert len(rest["rows"]) == 1 and rest["next_after"] is None
    workbook = client.get(f"/api/imports/{job['id']}/rejected.xlsx", headers=headers)
    assert workbook.status_code == 200 and workbook.content[:2] == b"PK"
    # A finished import cannot be cancelled, nor retried: 409, the CLI's line.
    cancel = client.post(f"/api/imports/{job['id']}/cancel", headers=headers)
    assert cancel.status_code == 409 and cancel.json() == {
        "code": "conflict",
        "message": f"import job {job['id']} is already partially_succeeded; nothing to cancel",
    }
    retry = client.post(f"/api/imports/{job['id']}/retry", headers=headers)
    assert retry.status_code == 409 and retry.json()["code"] == "conflict"
    # The same file again: the same import, found (200), not a second one.
    again = client.post(
        "/api/imports", headers=headers, files={"file": ("orders.xlsx", book.path.read_bytes())}
    )
    assert again.status_code == 200 and again.json()["id"] == job["id"]
    assert again.json()["created"] is False
    bad = client.get("/api/imports?limit=0", headers=headers)
    assert bad.status_code == 400 and bad.json()["code"] == "bad_request"


def test_an_import_taken_back_over_its_limit_shows_none_kept(
    site: Site, tmp_path: Path, conn: Connection
) -> None:
    site.account("ana@example.com", "sender", ["orders"])
    headers = site.token("ana@example.com")
    client = site.client()
    book = orders_book(tmp_path / "orders.xlsx", 40)  # 4 of 40 rejected: over 5%
    created = client.post(
        "/api/imports",
        headers=headers,
        data={"form": "orders", "max_rejected": "5%"},
        files={"file": ("orders.xlsx", book.path.read_bytes())},
    )
    assert created.status_code == 201, created.text
    site.work()
    done = client.get(f"/api/imports/{created.json()['id']}", headers=headers).json()
    assert done["status"] == "failed" and "nothing was kept" in done["error"]
    assert (done["success_rows"], done["failed_rows"]) == (0, 4)
    page = site.signed_in("ana@example.com").get(f"/imports/{done['id']}")
    assert '<dd id="imported">0</dd>' in page.text, page.text
    assert "none is kept" in page.text and 'id="taken-back"' in page.text
    # Nothing to retry, undo or fix in place: the whole workbook comes again.
    assert "/retry" not in page.text and 'class="cell"' not in page.text
    site.account("olga@example.com", "operator", ["orders"])
    operator = site.signed_in("olga@example.com").get(f"/imports/{done['id']}")
    assert operator.status_code == 200 and 'id="undo"' not in operator.text


def test_no_answer_names_the_lease_owner_or_its_host(
    site: Site, tmp_path: Path, conn: Connection
) -> None:
    site.account("ops@example.com", "operator", ["*"])
    headers = site.token("ops@example.com")
    client = site.client()
    book = orders_book(tmp_path / "orders.xlsx", 5, bad_every=0)
    job = client.post(
        "/api/imports", headers=headers, files={"file": ("orders.xlsx", book.path.read_bytes())}
    ).json()
    owner = "buildhost-7.internal:4242:1a2b3c4d:c6cc1275570b4cd6-4026531836.987654"
    conn.execute(
        "UPDATE import_jobs SET status = 'running', lease_owner = %s, lease_expires_at = now()"
        " + interval '1 hour', last_error = 'the process running it (' || %s || ') stopped'"
        " WHERE id = %s",
        (owner, owner, job["id"]),
    )
    answers = [
        client.get(f"/api/imports/{job['id']}", headers=headers),
        client.get("/api/imports", headers=headers),
        client.post(f"/api/imports/{job['id']}/cancel", headers=headers),
    ]
    for answer in answers:
        assert answer.status_code == 200, answer.text
        assert "buildhost" not in answer.text and "4242" not in answer.text
        assert "lease" not in answer.text
    assert answers[0].json()["error"] == "the process running it (a worker) stopped"
    page = site.signed_in("ops@example.com")
    for path in (f"/imports/{job['id']}", "/imports", f"/imports/{job['id']}/progress"):
        assert "buildhost" not in page.get(path).text


def test_the_openapi_document_matches_the_routes(site: Site) -> None:
    app = create_app(site.importer)
    routes = {
        (route.path, method.lower())
        for route in app.routes
        if isinstance(route, Route) and route.path.startswith("/api/") and route.methods
        for method in route.methods - {"HEAD"}
        if route.path != "/api/openapi.json"
    }
    document = site.client().get("/api/openapi.json").json()
    assert document["openapi"].startswith("3.")
    documented = {(path, method) for path, item in document["paths"].items() for method in item}
    assert documented == routes
    for path, item in document["paths"].items():
        for operation in item.values():
            assert "401" in operation["responses"], path
            named = set(re.findall(r"{(\w+)}", path))
            given = {p["name"] for p in operation.get("parameters", []) if p["in"] == "path"}
            assert given == named, path
    statuses = document["components"]["schemas"]["Import"]["properties"]["status"]["enum"]
    assert "partially_succeeded" in statuses and "reverted" in statuses
