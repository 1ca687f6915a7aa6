"""The sender's path in Debian's Chromium against `importer serve`: sign in, upload a workbook
with mistakes whose header names one column its own way, match that column to its field,
check the rows first, import the good ones, watch it run, see the rejected rows, fix two
cells in place (one by the lookup's suggestion), import the fixed rows and see them counted;
by mouse at 1280 pixels and by keyboard alone at 390, with screenshots of each page at both
widths (in the test's folder). Markup in a cell, the sheet's name and the file's name shows
as text, and no script of it runs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
import xlsxwriter
from playwright.sync_api import Browser, FileChooser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from importer.database import Connection
from tests.support.jobs import ORDERS_FORM, add_form, orders_book
from tests.web.browser import (
    NARROW,
    PASSWORD,
    WIDE,
    Served,
    Watched,
    open_page,
    overflowing,
    tab_to,
)

pytestmark = pytest.mark.slow

CELL_SCRIPT = "<script>alert('cell')</script>"
SHEET = "<script>alert(2)"
FILE = "<script>alert(3).xlsx"
EMAIL = "ana@example.com"
# The orders form, its customer a lookup whose near misses the sender may be shown.
FORM = ORDERS_FORM.replace(
    'type = "string"\nrequired = true',
    'type = "integer"\nrequired = true\nlookup = { table = "customers", match = "name",'
    ' returns = "id", ignore_case = true, show_to_senders = true }',
    1,
)


def prepare(conn: Connection, served: Served) -> None:
    conn.execute("CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL)")
    conn.execute("INSERT INTO customers SELECT n, 'customer ' || n FROM generate_series(1, 30) n")
    assert "lookup" in FORM
    add_form(conn, FORM)
    served.account(EMAIL, "sender", ["orders"])


def book_with_mistakes(path: Path) -> Path:
    """24 orders under "Order No" (not a name of the form's Order ID): rows 5, 9, 13 and 17
    have a negative amount, row 7 an order id that is markup, row 11 a customer that is a
    script and a negative amount, row 15 a customer misspelt (7 rejected rows)."""
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet(SHEET)
    sheet.write_row(0, 0, ["Order No", "Customer", "Amount"])
    for row in range(1, 25):
        number = row + 1
        values: list[Any] = [row, f"customer {row}", row * 10]
        if number in (5, 9, 13, 17):
            values[2] = -5
        if number == 7:
            values[0] = '<img src=x onerror="alert(4)">'
        if number == 11:
            values[1:] = [CELL_SCRIPT, -1]
        if number == 15:
            values[1] = "custmer 14"
        sheet.write_row(row, 0, values)
    book.close()
    return path


def shoot(watched: Watched, folder: Path, name: str) -> Path:
    """A full-page screenshot; the page must not stick out sideways at its width."""
    target = folder / f"{name}.png"
    watched.page.screenshot(path=str(target), full_page=True)
    assert overflowing(watched.page) == [], name
    return target


def sign_in_by_mouse(page: Page) -> None:
    page.goto("/")
    page.get_by_label("E-mail address").fill(EMAIL)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Send a workbook")).to_be_visible()


def see_the_check(page: Page) -> None:
    """The rows checked before anything is imported."""
    expect(page.get_by_role("heading", name=f"Check of {FILE}")).to_be_visible()
    expect(page.locator("#check-rows")).to_have_text("24")
    expect(page.locator("#check-good")).to_have_text("17")
    expect(page.locator("#check-rejected")).to_have_text("7")
    expect(page.locator("#reasons")).to_contain_text("Amount: the value is less than")
    expect(page.locator("#import")).to_have_text("Import the 17 good rows")


def watch_it_run(served: Served, page: Page) -> None:
    """The job waits for a worker; one starts, and the page follows it to its end by
    itself (no reload from here)."""
    expect(page.locator("#state")).to_have_text("waiting for a worker")
    expect(page.locator("#job")).to_have_attribute("data-done", "no")
    expect(page.locator("#job")).to_have_attribute("data-live", "events")
    worker = served.work_in_background()
    expect(page.locator("#job")).to_have_attribute("data-done", "yes")
    worker.join(60)
    expect(page.locator("#status")).to_have_text("partially_succeeded")
    expect(page.locator("#state")).to_have_text("17 rows imported, 7 rejected")


def see_the_rejected_rows(page: Page) -> None:
    table = page.locator("table.rejected")
    expect(table.locator("tbody tr")).to_have_count(7)
    markup = table.locator("tbody tr", has_text="onerror")
    expect(markup.locator("td").nth(1).locator("input")).to_have_value(
        '<img src=x onerror="alert(4)">'
    )
    script = table.locator("tbody tr", has_text="alert('cell')")
    expect(script.locator("td").nth(2).locator("input")).to_have_value(CELL_SCRIPT)
    expect(script.locator("td.problems")).to_contain_text("Amount")
    expect(page.locator("h1 .file")).to_have_text(FILE)
    expect(page.locator(".meta strong").nth(1)).to_have_text(SHEET)
    assert page.locator("script:not([src])").count() == 0  # nothing of the sheet became markup


def see_them_counted(served: Served, page: Page, shots: Path, watched: Watched, width: int) -> None:
    """The correction runs; its import then counts the rows it fixed."""
    page.wait_for_url("**/imports/*")
    expect(page.locator(".meta")).to_contain_text("a correction of import")
    worker = served.work_in_background()
    expect(page.locator("#job")).to_have_attribute("data-done", "yes")
    worker.join(60)
    expect(page.locator("#state")).to_have_text("2 rows imported")
    shoot(watched, shots, f"correction-{width}")
    page.locator(".meta a").click()
    expect(page.locator("#fixed-later")).to_have_text("2")
    expect(page.locator("#still-open")).to_have_text("5")
    expect(page.locator("#row-5 td.problems")).to_contain_text("imported later by")
    expect(page.locator("#row-15 td.problems")).to_contain_text("imported later by")
    shoot(watched, shots, f"counted-{width}")


def see_the_list(page: Page) -> None:
    """My imports: the correction, newest, above the import it fixed."""
    files = page.locator("table.jobs td.file")
    expect(files).to_have_count(2)
    expect(files.nth(0)).to_contain_text("correction of job 1.xlsx")
    expect(files.nth(1)).to_contain_text(FILE)
    expect(files.nth(1).locator(".sheet")).to_have_text(SHEET)


def fix_by_mouse(page: Page) -> None:
    amount = page.locator("#row-5 input[name='cell:Amount']")
    amount.fill("50")
    amount.press("Enter")
    expect(page.locator("#row-5")).to_have_class(re.compile(r"\bfixed\b"))
    page.locator("#row-15").get_by_role("button", name="Use customer 14").click()
    expect(page.locator("#row-15")).to_have_class(re.compile(r"\bfixed\b"))
    expect(page.locator("#row-15 input[name='cell:Customer']")).to_have_value("customer 14")
    expect(page.locator("#ready")).to_have_text("2")


def fix_by_keyboard(page: Page) -> None:
    keys = page.keyboard
    tab_to(page, "#row-5 input[name='cell:Amount']", presses=80)
    keys.press("Control+A")
    keys.type("50")
    keys.press("Enter")
    expect(page.locator("#row-5")).to_have_class(re.compile(r"\bfixed\b"))
    tab_to(page, "#row-15 button[name='use:Customer']", presses=80)
    keys.press("Enter")
    expect(page.locator("#row-15")).to_have_class(re.compile(r"\bfixed\b"))
    expect(page.locator("#ready")).to_have_text("2")


def test_the_senders_path_by_mouse(
    served: Served, browser: Browser, conn: Connection, tmp_path: Path
) -> None:
    prepare(conn, served)
    book = book_with_mistakes(tmp_path / "book.xlsx")
    shots = tmp_path / "screens"
    watched = open_page(browser, WIDE, served.url)
    page = watched.page
    sign_in_by_mouse(page)
    shoot(watched, shots, "imports-1280")
    page.locator("#file").set_input_files(
        {"name": FILE, "mimeType": "application/octet-stream", "buffer": book.read_bytes()}
    )
    page.get_by_role("button", name="Send").click()
    page.wait_for_url("**/uploads/*")
    expect(page.locator("#review-error")).to_contain_text("missing required column 'Order ID'")
    expect(page.locator("#column-1")).to_have_value("customer")
    shoot(watched, shots, "columns-1280")
    page.get_by_label("Order No").select_option("order_id")
    page.get_by_role("button", name="Use these columns").click()
    see_the_check(page)
    shoot(watched, shots, "check-1280")
    page.locator("#import").click()
    page.wait_for_url("**/imports/*")
    shoot(watched, shots, "waiting-1280")
    watch_it_run(served, page)
    see_the_rejected_rows(page)
    shoot(watched, shots, "rejected-1280")
    fix_by_mouse(page)
    shoot(watched, shots, "fixed-1280")
    page.get_by_role("button", name="Import the fixed rows").click()
    see_them_counted(served, page, shots, watched, WIDE)
    page.get_by_role("link", name="All imports").click()
    see_the_list(page)
    watched.assert_quiet()


def choose_file_by_keyboard(page: Page) -> FileChooser:
    """Space on the focused file button opens the chooser; on a loaded machine the browser may
    take the key before the button is ready to open it, so the key is pressed again (three
    times at most) rather than failing on the first miss."""
    for attempt in range(3):
        try:
            with page.expect_file_chooser(timeout=10_000) as chooser:
                page.keyboard.press("Space")
            return chooser.value
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def test_the_senders_path_by_keyboard_on_a_phone(
    served: Served, browser: Browser, conn: Connection, tmp_path: Path
) -> None:
    prepare(conn, served)
    book = book_with_mistakes(tmp_path / "book.xlsx")
    shots = tmp_path / "screens"
    watched = open_page(browser, NARROW, served.url)
    page = watched.page
    page.goto("/")
    shoot(watched, shots, "signin-390")
    keys = page.keyboard
    tab_to(page, "#email")
    keys.type(EMAIL)
    keys.press("Tab")
    keys.type(PASSWORD)
    keys.press("Enter")
    expect(page.get_by_role("heading", name="Send a workbook")).to_be_visible()
    shoot(watched, shots, "imports-390")
    tab_to(page, "#file")
    chooser = choose_file_by_keyboard(page)
    chooser.set_files(
        {"name": FILE, "mimeType": "application/octet-stream", "buffer": book.read_bytes()}
    )
    tab_to(page, "#upload-form button[type=submit]")
    keys.press("Enter")
    page.wait_for_url("**/uploads/*")
    shoot(watched, shots, "columns-390")
    tab_to(page, "#column-0")
    keys.press("ArrowDown")  # from "ignore this column" to the form's first field, Order ID
    expect(page.locator("#column-0")).to_have_value("order_id")
    tab_to(page, "#columns-form button[type=submit]")
    keys.press("Enter")
    see_the_check(page)
    shoot(watched, shots, "check-390")
    tab_to(page, "#import")
    keys.press("Enter")
    page.wait_for_url("**/imports/*")
    shoot(watched, shots, "waiting-390")
    watch_it_run(served, page)
    see_the_rejected_rows(page)
    shoot(watched, shots, "rejected-390")
    tab_to(page, "#download")
    with page.expect_download() as download:
        keys.press("Enter")
    assert download.value.suggested_filename.endswith(".xlsx")
    fix_by_keyboard(page)
    shoot(watched, shots, "fixed-390")
    tab_to(page, "#import-fixed button", presses=80)
    keys.press("Enter")
    see_them_counted(served, page, shots, watched, NARROW)
    tab_to(page, "a[href='/imports']")
    keys.press("Enter")
    see_the_list(page)
    shoot(watched, shots, "list-390")
    watched.assert_quiet()


def test_a_browser_without_event_source_follows_the_job_by_asking(
    served: Served, browser: Browser, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    served.account(EMAIL, "sender", ["orders"])
    _, token = served.importer.create_token(EMAIL, "test")
    book = orders_book(tmp_path / "orders.xlsx", 20)  # rows 11 and 21 rejected
    made = httpx.post(
        f"{served.url}/api/imports",
        headers={"Authorization": f"Bearer {token}"},
        files={"file": ("orders.xlsx", book.path.read_bytes())},
        timeout=30,
    )
    assert made.status_code == 201, made.text
    watched = open_page(browser, WIDE, served.url)
    page = watched.page
    page.add_init_script("delete window.EventSource;")
    sign_in_by_mouse(page)
    page.goto(f"/imports/{made.json()['id']}")
    expect(page.locator("#job")).to_have_attribute("data-live", "polling")
    worker = served.work_in_background()
    expect(page.locator("#job")).to_have_attribute("data-done", "yes")
    worker.join(60)
    expect(page.locator("#state")).to_have_text("18 rows imported, 2 rejected")
    watched.assert_quiet()
