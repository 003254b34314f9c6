"""Exports are inert: spreadsheet formulas and Markdown in data stay text."""

import csv
import io
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from kcompat.core.errors import UNSAFE_CHARACTERS
from kcompat.documents.formats import (
    render_rows,
    rows_to_csv,
    rows_to_markdown,
    to_json,
)


def test_csv_cells_that_would_be_formulas_are_quoted():
    rows = [{"name": "+SUM(A1)", "d": "=HYPERLINK(\"http://x\")"}, {"name": "@cmd", "d": "-1"}, {"name": "ok", "d": "\tx"}]
    parsed = list(csv.reader(io.StringIO(rows_to_csv(rows, ["name", "d"]))))
    assert parsed[1] == ["'+SUM(A1)", "'=HYPERLINK(\"http://x\")"]
    assert parsed[2] == ["'@cmd", "'-1"]
    # the tab is written as an escape: no control character reaches a spreadsheet or a terminal
    assert parsed[3] == ["ok", "'\\tx"]


def test_full_width_and_small_formula_signs_are_quoted_too():
    rows = [{"a": "\uff1dcmd|' /C calc'!A0", "b": "\uff20SUM(1)", "c": "\ufe622", "d": "\uff0d1", "e": "1\uff1d1"}]
    parsed = list(csv.reader(io.StringIO(rows_to_csv(rows, ["a", "b", "c", "d", "e"]))))
    assert parsed[1] == ["'\uff1dcmd|' /C calc'!A0", "'\uff20SUM(1)", "'\ufe622", "'\uff0d1", "1\uff1d1"]


def test_markdown_cells_escape_markup_and_pipes():
    text = rows_to_markdown([{"name": "<b>x</b> | [l](javascript:1) *e*"}], ["name"])
    assert "\\<b\\>x\\</b\\> \\| \\[l\\](javascript:1) \\*e\\*" in text


def test_markdown_strikethrough_autolinks_and_entities_stay_text():
    text = rows_to_markdown([{"name": "~~strike~~ www.evil.example/phish https://evil.example a@evil.example &#x202E; $x$"}], ["name"])
    cell = text.splitlines()[2]
    assert "\\~\\~strike\\~\\~" in cell and "www\\.evil.example" in cell and "https\\://evil" in cell
    assert "a\\@evil" in cell and "\\&\\#x202E;" in cell and "\\$x\\$" in cell


def test_no_format_can_be_forged_or_styled_by_a_cell():
    rows = [{"name": "X\n# Disagreements (0)\nnone", "d": "\x1b[31mred\x1b[0m \u202eevil \x9b2J"}]
    for fmt in ("table", "csv", "markdown"):
        out = render_rows(fmt, rows, ["name", "d"])
        assert out.count("\n") == (3 if fmt in ("table", "markdown") else 2), (fmt, out)
        assert not UNSAFE_CHARACTERS.search(out.replace("\n", "")), (fmt, out)
        assert "\\x1b" in out and "\\u202e" in out and "\\x9b" in out  # shown as escapes (Markdown doubles the backslash)
    doc = to_json(rows)
    assert json.loads(doc) == rows and not UNSAFE_CHARACTERS.search(doc.replace("\n", ""))


_SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
_DOCUMENTS = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner) | st.dictionaries(st.text(max_size=5) | st.integers(), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(_DOCUMENTS)
def test_json_is_the_text_json_dumps_writes_with_the_unsafe_characters_escaped(document):
    # to_json writes the common documents itself (faster than json's indenting encoder): the same text
    expected = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    expected = "".join(f"\\u{ord(c):04x}" if UNSAFE_CHARACTERS.fullmatch(c) and c not in "\t\n\r" and ord(c) >= 0x7F else c for c in expected)
    assert to_json(document) == expected
