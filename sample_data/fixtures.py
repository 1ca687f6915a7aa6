"""The small sample files, each written by the program named in its file name."""

from __future__ import annotations

import csv
from pathlib import Path

from sample_data.generate import ORDER_HEADER, order_rows, write_orders_xlsx


def write_orders_csv(path: Path, count: int = 60) -> None:
    with path.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(ORDER_HEADER)
        for row in order_rows(count, seed=11):
            out = []
            for column in ORDER_HEADER:
                value = row[column]
                if column == "Order Date" and not isinstance(value, str):
                    value = value.strftime("%d/%m/%Y")
                elif column == "Zip Code" and isinstance(value, int):
                    value = f"{value:05d}"
                elif isinstance(value, bool):
                    value = "yes" if value else "no"
                out.append(value)
            writer.writerow(out)


def write_all(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    target = out / "orders.xlsx"
    write_orders_xlsx(target)
    written.append(target)
    target = out / "orders.csv"
    write_orders_csv(target)
    written.append(target)
    return written
