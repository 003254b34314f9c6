"""Rendering rows as table, JSON, CSV or Markdown text (shared by the CLI and the downloads)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence

FORMATS = ("table", "json", "csv", "markdown")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def csv_safe(text: str) -> str:
    """Neutralise spreadsheet formulas (CSV injection): a leading = + - @ tab or CR gets a quote."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def rows_to_csv(rows: Sequence[Mapping[str, object]], columns: Sequence[str]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([csv_safe(cell_text(row.get(c))) for c in columns])
    return out.getvalue()


def _md_escape(text: str) -> str:
    text = text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")
    for ch in "`*_[]<>#!":
        text = text.replace(ch, "\\" + ch)
    return text


def md_escape(text: str) -> str:
    """Text for a Markdown line: pipes, emphasis and HTML characters escaped."""
    return _md_escape(text)


def rows_to_markdown(rows: Sequence[Mapping[str, object]], columns: Sequence[str]) -> str:
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(_md_escape(cell_text(row.get(c))) for c in columns) + " |")
    return "\n".join(lines) + "\n"


def rows_to_table(rows: Sequence[Mapping[str, object]], columns: Sequence[str]) -> str:
    cells = [[cell_text(row.get(c)) for c in columns] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    fmt = "  ".join("{:<%d}" % w for w in widths)
    lines = [fmt.format(*columns).rstrip(), fmt.format(*("-" * w for w in widths)).rstrip()]
    lines += [fmt.format(*r).rstrip() for r in cells]
    return "\n".join(lines) + "\n"


def render_rows(fmt: str, rows: Sequence[Mapping[str, object]], columns: Sequence[str]) -> str:
    """Rows as ``table``, ``csv`` or ``markdown`` text."""
    return {"table": rows_to_table, "csv": rows_to_csv, "markdown": rows_to_markdown}[fmt](rows, columns)


def report_problems(summary: str, warnings: Sequence[str], errors: Sequence[str], stream, hints: Sequence[str] = ()) -> None:
    """The lines a text-format command prints on stderr beside its table (hints after the errors)."""
    print(f"# {summary}", file=stream)
    for warning in warnings:
        print(f"warning: {warning}", file=stream)
    for error in errors:
        print(f"error: {error}", file=stream)
    for hint in hints:
        print(f"hint: {hint}", file=stream)


def to_json(document: object) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
