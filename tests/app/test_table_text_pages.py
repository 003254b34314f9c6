"""Every page's grids as text: opened, each "Table as text" expander holds exactly its grid's rows
(the dataframe element's value, cell by cell as the grid shows it); closed, nothing is built; no
grid draws a boolean as a read-only checkbox."""

from __future__ import annotations

import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import ROOT, open_app, rerun

from dashboard.tables.table_text import LABEL
from dashboard.text import MISSING

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspect_samples import SAMPLES, flip, metrics_text, version_info

SEL = {"binary": "1.36", "emulated": "1.33"}


class _Tables(HTMLParser):
    """Caption, header texts and row cell texts (row headers included) of each ``<table>``."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict] = []
        self._text: list[str] | None = None
        self._part = ""

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append({"caption": "", "headers": [], "rows": []})
        elif tag in ("thead", "tbody"):
            self._part = tag
        elif tag == "tr" and self._part == "tbody":
            self.tables[-1]["rows"].append([])
        elif tag in ("caption", "th", "td"):
            self._text = []

    def handle_data(self, data):
        if self._text is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag not in ("caption", "th", "td") or self._text is None:
            return
        text, self._text = "".join(self._text), None
        table = self.tables[-1]
        if tag == "caption":
            table["caption"] = text
        elif self._part == "thead":
            table["headers"].append(text)
        else:
            table["rows"][-1].append(text)


def text_tables(at) -> list[dict]:
    parser = _Tables()
    for box in at.expander:
        if box.label == LABEL:
            for element in box.get("html"):
                parser.feed(element.proto.body)
    return parser.tables


def text_keys(at) -> list[str]:
    """The widget keys of the page's "Table as text" expanders."""
    return [re.sub(r"^.*-(table_text_\w+)$", r"\1", box.proto.id) for box in at.expander if box.label == LABEL]


def open_text(at):
    keys = text_keys(at)
    assert keys, "no Table as text on the page"
    for key in keys:
        at.session_state[key] = True
    return rerun(at)


def shown_text(value, config: dict) -> str:
    """A cell as the grid shows it: a selectbox column's label for its value, no value as "—"."""
    options = (config.get("type_config") or {}).get("options")
    if value is None or (not isinstance(value, str) and value != value):
        return MISSING
    if options:
        return next(o["label"] for o in options if o["value"] == value)
    if value == "":
        return MISSING
    return str(value)


def grid_as_text(grid) -> dict:
    """What the grid shows: header labels and the rows' cell texts."""
    frame = grid.value
    config = json.loads(grid.proto.columns or "{}")
    names = [str(c) for c in frame.columns]
    return {
        "headers": [config.get(n, {}).get("label") or n for n in names],
        "rows": [
            [shown_text(v.item() if hasattr(v, "item") else v, config.get(n, {})) for n, v in zip(names, row, strict=True)]
            for row in frame.itertuples(index=False)
        ],
    }


def assert_every_grid_as_text(at) -> int:
    """Each grid (named by its ``alt``) has a text table captioned "<alt>: <n> rows" with its
    headers and rows; returns how many grids were compared."""
    tables = text_tables(at)
    by_caption = {t["caption"]: t for t in tables}
    assert len(by_caption) == len(tables), [t["caption"] for t in tables]
    grids = list(at.dataframe)
    assert grids
    for grid in grids:
        assert grid.proto.alt, f"grid {grid.key} has no accessible name"
        caption = f"{grid.proto.alt}: {len(grid.value)} rows"
        assert caption in by_caption, (caption, list(by_caption))
        table = by_caption.pop(caption)
        assert {"headers": table["headers"], "rows": table["rows"]} == grid_as_text(grid), grid.key
    assert not by_caption, f"text tables without a grid: {list(by_caption)}"
    return len(grids)


def assert_no_checkbox_grid(at) -> None:
    for grid in at.dataframe:
        config = json.loads(grid.proto.columns or "{}")
        for name in grid.value.columns:
            kind = (config.get(str(name), {}).get("type_config") or {}).get("type")
            assert kind != "checkbox", (grid.key, name)
            if grid.value[name].dtype == bool:
                assert kind == "selectbox", (grid.key, name, kind)


PAGES = {
    "gates": (None, {**SEL, "gates_text": "DRA"}),
    "matrix": ("matrix", {"matrix_text": "DRA"}),
    "matrix-all": ("matrix", {}),
    "changes": ("changes", SEL),
    "apis": ("apis", SEL),
    "apis-not-emulating": ("apis", {"binary": "1.34"}),
    "gate_detail": ("gate_detail", {**SEL, "gate": "JobManagedBy"}),
    "plan": ("plan", {"binary": "1.33", "emulated": "1.32", "to": "1.35"}),
}


@pytest.mark.parametrize("case", PAGES)
def test_each_grid_has_its_rows_as_text(case):
    page, params = PAGES[case]
    at = open_app(page, **params)
    assert text_tables(at) == []  # closed: nothing built
    assert_no_checkbox_grid(at)
    open_text(at)
    assert assert_every_grid_as_text(at) >= 1


def test_cluster_grids_as_text():
    at = open_app("cluster")
    version = (SAMPLES / "version-1.32.0.json").read_text()
    at.text_area(key="cluster_paste_cmdline").input((SAMPLES / "ps-kube-apiserver-1.32.txt").read_text())
    at.text_area(key="cluster_paste_version").input(version)
    at.text_area(key="cluster_paste_metrics").input(
        flip(metrics_text("v1.32.0", "1.31", info=version_info("version-1.32.0.json")), "APIServerTracing")
    )
    next(b for b in at.button if b.label == "Check").click()
    rerun(at)
    assert text_tables(at) == []
    assert_no_checkbox_grid(at)
    open_text(at)
    assert assert_every_grid_as_text(at) == 3  # disagreements, sources, predicted gates


def test_manifests_grid_as_text():
    at = open_app("manifests", **SEL)
    at.text_area(key="manifests_paste").input((ROOT / "tests" / "samples" / "scan" / "helm-render.yaml").read_text())
    next(b for b in at.button if b.label == "Check").click()
    rerun(at)
    assert text_tables(at) == []
    assert_no_checkbox_grid(at)
    open_text(at)
    assert assert_every_grid_as_text(at) == 1


def test_timeline_rows_as_text():
    at = open_app("timeline", **SEL, timeline_text="JobManaged")
    assert text_tables(at) == []
    open_text(at)
    (table,) = text_tables(at)
    shown = next(c.value for c in at.caption if re.fullmatch(r"\d+ of \d+ gates( \(.*\))?", c.value))
    count = int(shown.split()[0])
    assert table["caption"] == f"Stage history of the 1.36 binary's gates: {count} rows"
    assert table["headers"] == ["gate", "stage at 1.33", "stages, release by release", "matched"]
    assert [r[0] for r in table["rows"]] == ["JobManagedBy"] and table["rows"][0][3] == "name"
    assert table["rows"][0][1] == "Beta"
    assert "Alpha, default off, 1.30" in table["rows"][0][2] and "Beta, default on, 1.32" in table["rows"][0][2]


def test_no_read_only_checkbox_column_in_the_pages():
    sources = [*(ROOT / "dashboard").rglob("*.py")]
    users = [p.relative_to(ROOT) for p in sources if "CheckboxColumn" in p.read_text(encoding="utf-8")]
    assert users == []
