"""Undo on the page and the API, as `importer undo` does it, for operators and admins: a dry
run changes nothing and says what would; the undo takes the rows back and the import is
reverted; later imports that changed its rows are named (409 later_imports_changed) until
the cascade takes them back too; a sender's own import is 403, another's 404."""

from __future__ import annotations

from pathlib import Path

from importer.database import Connection
from tests.support.jobs import KEYED_FORM, add_form, data_rows, orders_book, write_book
from tests.web.conftest import Site, csrf_of


def _upload(site: Site, headers: dict[str, str], path: Path, form: str = "orders") -> int:
    made = site.client().post(
        "/api/imports",
        headers=headers,
        data={"form": form},
        files={"file": (path.name, path.read_bytes())},
    )
    assert made.status_code == 201, made.text
    site.work()
    return int(made.json()["id"])


def test_an_operator_undoes_an_import_through_the_api(
    site: Site, tmp_path: Path, conn: Connection
) -> None:
    site.account("ana@example.com", "sender", ["orders"])
    site.account("ops@example.com", "operator", ["orders"])
    site.account("other@example.com", "operator", ["people"])
    ana = site.token("ana@example.com")
    job_id = _upload(site, ana, orders_book(tmp_path / "orders.xlsx", 40).path)  # 36 good
    client = site.client()
    url = f"/api/imports/{job_id}/undo"

    # A sender may see its import but not undo it; another form's operator does not see it.
    refused = client.post(url, headers=ana)
    assert refused.status_code == 403 and refused.json() == {
        "code": "forbidden",
        "message": "only an operator or an admin can undo an import",
    }
    elsewhere = client.post(url, headers=site.token("other@example.com"))
    assert elsewhere.status_code == 404 and elsewhere.json()["code"] == "not_found"
    ops = site.token("ops@example.com")
    bad = client.post(url, headers=ops, json={"dry_run": "yes"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_request"
    assert len(data_rows(conn, job_id)) == 36  # none of that changed anything

    preview = client.post(url, headers=ops, json={"dry_run": True})
    assert preview.status_code == 200, preview.text
    assert preview.json() == {
        "dry_run": True,
        "form": "orders",
        "removed": 36,
        "restored": 0,
        "imports": [{"id": job_id, "removed": 36, "restored": 0}],
        "reverted": [],
    }
    assert len(data_rows(conn, job_id)) == 36

    done = client.post(url, headers=ops)
    assert done.status_code == 200, done.text
    body = done.json()
    assert (body["dry_run"], body["removed"], [j["status"] for j in body["reverted"]]) == (
        False,
        36,
        ["reverted"],
    )
    assert data_rows(conn, job_id) == {}
    assert client.get(f"/api/imports/{job_id}", headers=ana).json()["status"] == "reverted"
    again = client.post(url, headers=ops)
    assert again.status_code == 409 and again.json()["code"] == "conflict"


def test_the_page_previews_the_undo_and_names_the_later_imports(
    site: Site, tmp_path: Path, conn: Connection
) -> None:
    add_form(conn, KEYED_FORM)  # ledger: the orders keyed on their id
    site.account("ana@example.com", "sender", ["ledger"])
    site.account("admin@example.com", "admin")
    ana = site.token("ana@example.com")
    first = _upload(site, ana, orders_book(tmp_path / "first.xlsx", 10, bad_every=0).path, "ledger")
    # The same orders again, other amounts: the second import overwrites the first's rows.
    later = orders_book(tmp_path / "second.xlsx", 10, bad_every=0)
    for row in later.rows:
        row[2] += 1000
    write_book(later.path, later.rows)
    second = _upload(site, ana, later.path, "ledger")

    # The sender: no undo on its page, and the preview is refused.
    sender = site.signed_in("ana@example.com")
    assert 'id="undo"' not in sender.get(f"/imports/{first}").text
    assert sender.get(f"/imports/{first}/undo").status_code == 403

    page = site.signed_in("admin@example.com")
    assert f'href="/imports/{first}/undo"' in page.get(f"/imports/{first}").text
    named = page.get(f"/imports/{first}/undo")
    assert named.status_code == 200
    assert "Later imports changed its rows since" in named.text
    assert f'href="/imports/{second}"' in named.text and 'id="undo-confirm"' not in named.text
    api = site.client().post(f"/api/imports/{first}/undo", headers=site.token("admin@example.com"))
    assert api.status_code == 409 and api.json()["code"] == "later_imports_changed"

    preview = page.get(f"/imports/{first}/undo?cascade=1")
    assert 'id="undo-confirm"' in preview.text and "Undo these 2 imports" in preview.text
    assert [j.status.value for j in (site.importer.job(first), site.importer.job(second))] == [
        "succeeded",
        "succeeded",
    ]  # the preview was a dry run
    stale = page.post(f"/imports/{first}/undo", data={"csrf": "stale", "cascade": "1"})
    assert stale.status_code == 403 and site.importer.job(first).status.value == "succeeded"
    done = page.post(f"/imports/{first}/undo", data={"csrf": csrf_of(preview.text), "cascade": "1"})
    assert done.status_code == 303 and done.headers["location"] == f"/imports/{first}"
    assert "taken back: none of its rows is kept" in page.get(f"/imports/{first}").text
    assert site.importer.job(second).status.value == "reverted"
    assert conn.execute("SELECT count(*) AS n FROM forms.ledger").fetchone() == {"n": 0}
