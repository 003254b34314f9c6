"""Every export is exactly the view on screen: the rows, order and columns shown, as CSV, Markdown
and JSON; the Markdown and JSON files start with a line naming the selection, the page's filters and
the data's source, the CSV is the table alone (a spreadsheet reads every line of a CSV as data)."""

import csv
import io
import json

import pytest
from conftest import APP, TIMEOUT, open_app, open_export, rerun

from kcompat.documents.apis import TABLE_COLUMNS

GATES_VIEW = {"binary": "1.36", "emulated": "1.33", "feature_gates": "AllBeta=false", "gates_quick": "Beta", "gates_text": "Job"}


def csv_rows(export) -> tuple[str, list[dict]]:
    """The export's header line (the JSON file's ``header``, the Markdown file's first line) and its
    CSV rows. The CSV has no line before the table: its first line is the columns."""
    text = export.text("csv")
    assert not text.startswith("#") and text.splitlines()[0].split(",") == list(export.columns)
    return json.loads(export.text("json"))["header"], list(csv.DictReader(io.StringIO(text)))


def markdown_rows(text: str) -> tuple[str, list[str], list[list[str]]]:
    lines = text.splitlines()
    assert lines[1] == "" and lines[3].replace("|", "").replace("-", "") == ""
    cells = [[c.strip() for c in line.strip("|").split(" | ")] for line in lines[4:]]
    return lines[0], [c.strip() for c in lines[2].strip("|").split(" | ")], cells


def flag(value) -> str:
    return "" if value is None else ("true" if value is True else "false" if value is False else str(value))


@pytest.fixture
def gates(exports):
    at = open_export(open_app(**GATES_VIEW), "download_open")
    return at, exports["download_open"]


def test_gates_exports_are_the_filtered_rows_shown(gates):
    at, export = gates
    shown = at.dataframe[0].value
    total = len(open_app(binary="1.36", emulated="1.33").dataframe[0].value)
    assert 0 < len(shown) < total  # the filters are at work

    header, rows = csv_rows(export)
    assert header.startswith(
        "kcompat Gates · selection: binary 1.36; emulated 1.33; min compat 1.33 (default); feature gates AllBeta=false · "
        f"view: gates_quick=Beta; gates_text=Job · {len(shown)} rows · data: bundled data of kcompat"
    )
    assert list(rows[0]) == list(shown.columns)
    assert [r["gate"] for r in rows] == list(shown["gate"])
    assert [r["enabled"] for r in rows] == [flag(v) for v in shown["enabled"]]
    assert all(r["stage"] == "Beta" for r in rows)

    md_header, columns, cells = markdown_rows(export.text("markdown"))
    assert md_header.startswith("kcompat Gates · selection: binary 1.36; emulated 1.33;") and f"· {len(shown)} rows ·" in md_header
    assert columns == list(shown.columns)
    assert [c[0] for c in cells] == list(shown["gate"])
    assert all(len(c) == len(columns) for c in cells)

    document = json.loads(export.text("json"))
    assert next(iter(document)) == "header" and document["header"] == header
    assert document["view"] == {"gates_quick": "Beta", "gates_text": "Job"}
    assert document["selection"]["feature gates"] == "AllBeta=false"
    assert document["columns"] == list(shown.columns)
    assert document["rows"] == json.loads(shown.to_json(orient="records"))


def test_gates_export_follows_a_filter_change(gates, exports):
    at, before = gates
    at.text_input(key="gates_text").set_value("DRA")
    rerun(at)
    shown = at.dataframe[0].value
    open_export(at, "download_open")
    header, rows = csv_rows(exports["download_open"])
    assert exports["download_open"] is not before
    assert "view: gates_quick=Beta; gates_text=DRA ·" in header
    assert [r["gate"] for r in rows] == list(shown["gate"])


def test_the_gates_file_names_and_buttons(gates):
    at, export = gates
    buttons = {b.label: b for b in at.get("download_button") if "-download_open_" in b.proto.id}
    assert sorted(buttons) == ["CSV", "JSON", "Markdown"]
    assert export.file_name("csv") == "gates-1.36-emulating-1.33-shown.csv"
    assert export.file_name("markdown") == "gates-1.36-emulating-1.33-shown.md"
    assert all(b.proto.deferred_file_id for b in buttons.values())


APIS_VIEW = {
    "binary": "1.33",
    "emulated": "1.31",
    "runtime_config": "networking.k8s.io/v1beta1=true",
    "apis_served": "served",
    "apis_text": "networking",
}


def test_apis_exports_are_the_filtered_rows_shown(exports):
    at = open_export(open_app("apis", **APIS_VIEW), "apis_table_export")
    shown = next(d.value for d in at.dataframe if list(d.value.columns) == list(TABLE_COLUMNS))
    assert len(shown) > 1 and shown["served"].all()
    export = exports["apis_table_export"]
    header, rows = csv_rows(export)
    assert header.startswith("kcompat APIs · selection: binary 1.33; emulated 1.31; min compat 1.31 (default); feature gates none · ")
    assert "runtime_config=networking.k8s.io/v1beta1=true" in header and "apis_served=served" in header
    assert "apis_text=networking" in header and f"· {len(shown)} rows ·" in header
    assert [(r["group"], r["version"], r["resource"]) for r in rows] == list(zip(shown["group"], shown["version"], shown["resource"], strict=True))
    assert [r["served"] for r in rows] == ["true"] * len(shown)
    _, columns, cells = markdown_rows(export.text("markdown"))
    assert columns == list(shown.columns) and [c[3] for c in cells] == list(shown["resource"])
    assert len(json.loads(export.text("json"))["rows"]) == len(shown)


def test_a_page_without_the_selection_says_so(exports):
    at = open_export(open_app("about", binary="1.36", emulated="1.33"), "about_releases_csv")
    export = exports["about_releases_csv"]
    header, _ = csv_rows(export)
    assert header.startswith("kcompat About the data · selection: none (this page does not depend on it) · view: no filter · ")
    assert "data: bundled data of kcompat" in header and "(releases " in header
    assert at.table  # the releases table is drawn; its export has a row per release
    assert len(export.text("csv").splitlines()) - 1 == len(json.loads(export.text("json"))["rows"]) > 5


def test_gate_detail_exports_name_the_gate(exports):
    open_export(open_app("gate_detail", binary="1.36", emulated="1.33", gate="JobManagedBy", gate_from="25"), "detail_releases_csv")
    header, _ = csv_rows(exports["detail_releases_csv"])
    assert "· view: gate=JobManagedBy; gate_from=25 ·" in header


def test_plan_exports_name_the_target(exports):
    open_export(open_app("plan", binary="1.35", emulated="1.34", to="1.36"), "plan_overview_csv")
    header = exports["plan_overview_csv"].text("markdown").splitlines()[0]
    assert header.startswith("kcompat Upgrade plan · selection: binary 1.35; emulated 1.34;")
    assert "view: to=1.36 ·" in header


def test_an_uploaded_manifest_is_named_as_the_source(exports):
    import hashlib

    from streamlit.testing.v1 import AppTest

    from dashboard.uploads import custom_manifest as upload

    manifest = b"".join(
        f'- name: Mine{i}\n  versionedSpecs:\n  - {{version: "1.30", default: false, lockToDefault: false, preRelease: Beta}}\n'.encode()
        for i in range(3)
    )
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params.update({"binary": "1.36", "gates_text": "Mine"})
    at.session_state[upload.SESSION] = upload._Upload("mine.yaml", manifest, hashlib.sha256(manifest).hexdigest())
    open_export(rerun(at), "download_open")
    header, rows = csv_rows(exports["download_open"])
    assert header.endswith(" · 3 rows · data: uploaded manifest mine.yaml (3 gates)")
    assert [r["gate"] for r in rows] == ["Mine0", "Mine1", "Mine2"] == list(at.dataframe[0].value["gate"])
