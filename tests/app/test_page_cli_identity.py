"""Every question, asked on its page and with ``kcompat <sub>`` for the same selection, gets the same
answer: the page (run with AppTest from its URL parameters) shows what the command (a real
subprocess, ``python -m kcompat.cli.main``) prints, on the bundled data.

Both front ends call the same function of :mod:`kcompat.answers` with the same arguments; these
tests compare what reaches the user, so a front end that wraps, filters or bypasses its answer
fails here."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, metric, open_app, plain, rerun

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspect_samples import SAMPLES, flip, metrics_text, version_info

#: Non-trivial selections: emulation with --feature-gates, and the whole API surface of 1.37.
EMULATING = {"binary": "1.36", "emulated": "1.33", "feature_gates": "AllBeta=false"}
EMULATING_ARGS = ["--binary", "1.36", "--emulated", "1.33", "--feature-gates", "AllBeta=false"]


def kcompat(*argv: str, expect: tuple[int, ...] = (0,)) -> str:
    """What ``kcompat argv`` prints on stdout, run as its own process."""
    done = subprocess.run([sys.executable, "-m", "kcompat.cli.main", *argv], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode in expect, (argv, done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    return done.stdout


def kcompat_json(*argv: str, expect: tuple[int, ...] = (0,)) -> dict:
    return json.loads(kcompat(*argv, "--format", "json", expect=expect))


def frame_with(at, columns):
    """The page's dataframe with exactly these columns."""
    found = [d.value for d in at.dataframe if list(d.value.columns) == list(columns)]
    assert len(found) == 1, [list(d.value.columns) for d in at.dataframe]
    return found[0]


# --- gates --------------------------------------------------------------------------------------

GATE_VIEW = ["gate", "enabled", "stage", "default", "locked", "binary_stage", "changed", "origin", "history_from"]


@pytest.mark.parametrize(
    "params, argv",
    [
        (EMULATING, EMULATING_ARGS),
        ({"binary": "1.37", "emulated": "1.35"}, ["--binary", "1.37", "--emulated", "1.35"]),
    ],
    ids=["1.36@1.33 AllBeta=false", "1.37@1.35"],
)
def test_gates(params, argv):
    at = open_app(**params)
    document = kcompat_json("gates", *argv)
    shown = frame_with(at, GATE_VIEW)
    keys = {"gate": "name", "enabled": "enabled", "stage": "stage", "default": "default", "locked": "locked",
            "origin": "origin", "history_from": "historyFrom"}
    assert shown[list(keys)].rename(columns=keys).to_dict("records") == [
        {k: f[k] for k in keys.values()} for f in document["features"]
    ]
    # "stage in 1.36" and "changed vs 1.36": the CLI's binaryStage and changed (its table's "stage in binary", "changed")
    assert list(zip(shown["binary_stage"], shown["changed"], strict=False)) == [(f["binaryStage"], f["changed"]) for f in document["features"]]
    table = kcompat("gates", *argv, "--format", "csv").splitlines()
    assert table[0] == "name,enabled,stage,default,locked,explicit,stage in binary,changed"
    assert [line.split(",")[-2:] for line in table[1:]] == [[b, str(c).lower()] for b, c in zip(shown["binary_stage"], shown["changed"], strict=False)]
    assert len(shown) > 200
    assert not at.error and document["valid"] and not document["errors"]
    # the figures count the same gates
    enabled = sum(f["enabled"] for f in document["features"])
    assert next(m.value for m in at.metric if m.label.startswith("Enabled at")) == str(enabled)


def test_gates_refused_shows_the_same_errors_and_hints():
    params = dict(EMULATING, feature_gates="JobManagdBy=true")
    at = open_app(**params)
    document = kcompat_json("gates", "--binary", "1.36", "--emulated", "1.33", "--feature-gates", "JobManagdBy=true", expect=(2,))
    assert not document["valid"]
    shown_errors = [plain(e.value) for e in at.error]
    for error in document["errors"]:
        assert any(error in shown for shown in shown_errors), (error, shown_errors)
    hints = [plain(i.value) for i in at.info]
    assert document["hints"] and all(any(h["text"] in shown for shown in hints) for h in document["hints"])
    assert "JobManagedBy" in document["hints"][0]["names"]


def test_gates_downloads_are_what_the_cli_prints():
    # the texts the page's "Download…" buttons produce when clicked (the page's own code path)
    from dashboard import data
    from dashboard.state.selection import Selection
    from dashboard.tables import downloads
    from kcompat.data.catalog import DEFAULT_CATALOG

    sel = Selection("1.36", "1.33", None, "AllBeta=false")
    for fmt in ("json", "csv", "markdown"):
        text = downloads._deferred(DEFAULT_CATALOG, fmt, data.download_args(sel), None)()  # noqa: SLF001
        assert text == kcompat("gates", *EMULATING_ARGS, "--format", fmt)


# --- versions -----------------------------------------------------------------------------------


@pytest.mark.parametrize("binary", ["1.36", "1.35"])
def test_versions_are_the_emulated_choices(binary):
    at = open_app(binary=binary, emulated=binary)
    document = kcompat_json("versions", "--binary", binary)
    options = list(at.selectbox(key="sel_emulated").options)
    allowed = [e["emulated"] for e in document["emulated"]]
    assert [o.split(" ")[0] for o in options] == list(reversed(allowed))  # newest first on the page
    assert options[0] == f"{binary} (not emulating)" and document["defaultEmulated"] == binary
    assert document["bundled"] and not document["warnings"]


# --- APIs and storage ---------------------------------------------------------------------------

API_COLUMNS = [
    "group", "version", "kind", "resource", "subresources", "stage", "served", "servedByRelease", "deprecatedIn", "removedIn", "replacement",
    "reason",
]
#: how the table says a deprecation fact the JSON writes null
FACT_WORDS = ("not deprecated", "no removal set", "none named", "not recorded")
STORAGE_COLUMNS = ["group", "resource", "kind", "storageVersion", "served", "reason"]


def api_items(table):
    rows = table.to_dict("records")
    out = []
    for row in rows:
        row["subresources"] = row["subresources"].split(", ") if row["subresources"] else []
        if row["servedByRelease"] is not None:
            row["servedByRelease"] = bool(row["servedByRelease"])
        recorded = row["deprecatedIn"] != "not recorded"
        for key in ("deprecatedIn", "removedIn", "replacement"):
            row[key] = None if row[key] in FACT_WORDS else row[key]
        reason = row.pop("reason")
        out.append({**row, "lifecycleRecorded": recorded, "reason": reason})
    return out


@pytest.mark.parametrize(
    "params, argv",
    [
        ({"binary": "1.37", "emulated": "1.37", "runtime_config": "api/all=true"}, ["--binary", "1.37", "--runtime-config", "api/all=true"]),
        (EMULATING, EMULATING_ARGS),
    ],
    ids=["1.37 api/all=true", "1.36@1.33 AllBeta=false"],
)
def test_apis(params, argv):
    at = open_app("apis", **params)
    document = kcompat_json("apis", *argv)
    shown = api_items(frame_with(at, API_COLUMNS))
    assert shown == document["apis"]
    assert sum(a["served"] for a in document["apis"]) > 50


@pytest.mark.parametrize(
    "params, argv",
    [
        ({"binary": "1.33", "emulated": "1.31"}, ["--binary", "1.33", "--emulated", "1.31"]),
        (EMULATING, EMULATING_ARGS),
    ],
    ids=["1.33@1.31", "1.36@1.33 AllBeta=false"],
)
def test_apis_differences_are_the_cli_differences(params, argv):
    """The page's "Differences from a real 1.31 kube-apiserver" is ``kcompat apis --only-differences``;
    its "Enabled/Removed compared with the binary" is ``--against native --only-differences``."""
    at = open_app("apis", **params)
    release = kcompat_json("apis", *argv, "--only-differences")
    assert release["against"] == "release" and release["onlyDifferences"] is True
    heading = next(m.value for m in at.markdown if m.value.startswith("**Differences from a real"))
    assert heading.endswith(f"({len(release['apis'])})")
    if release["apis"]:
        differences = frame_with(at, ["group", "version", "resource", "kind", "served", "servedByRelease", "reason"]).to_dict("records")
        assert [{k: d[k] for k in row} for d, row in zip(release["apis"], differences, strict=False)] == differences
        assert len(differences) == len(release["apis"]) and all(d["served"] != d["servedByRelease"] for d in release["apis"])
    else:  # the same resources as the real release: said so, no empty table
        assert any("serves exactly the resources a real" in s.value for s in at.success)
    native = kcompat_json("apis", *argv, "--against", "native", "--only-differences")
    assert native["apis"] and all(a["served"] != a["servedByBinary"] for a in native["apis"])
    keys = ["group", "version", "kind", "resource", "stage", "reason"]
    shown = [tuple(r[k] for k in keys) for d in at.dataframe if list(d.value.columns) == keys for r in d.value.to_dict("records")]
    assert sorted(shown) == sorted(tuple(a[k] for k in keys) for a in native["apis"])
    enabled = [a for a in native["apis"] if a["served"]]
    assert next(m.value for m in at.metric if m.label.startswith("Enabled vs")) == str(len(enabled))


@pytest.mark.parametrize(
    "params, argv",
    [
        (EMULATING, ["--binary", "1.36", "--emulated", "1.33"]),
        ({"binary": "1.35", "emulated": "1.33", "min_compat": "1.32"}, ["--binary", "1.35", "--emulated", "1.33", "--min-compat", "1.32"]),
    ],
    ids=["1.36@1.33", "1.35@1.33 min 1.32"],
)
def test_storage(params, argv):
    at = open_app("apis", **params)
    document = kcompat_json("storage", *argv)
    shown = frame_with(at, STORAGE_COLUMNS).to_dict("records")
    assert shown == document["resources"]
    assert any(r["storageVersion"] for r in shown)


def test_skew():
    at = open_app("apis", **EMULATING)
    rows = list(csv.DictReader(io.StringIO(kcompat("skew", "--binary", "1.36", "--emulated", "1.33", "--format", "csv"))))
    shown = frame_with(at, ["component", "emulation-aware range", "emulation-aware rule", "classic range", "classic rule"])
    assert shown.to_dict("records") == rows and len(rows) == 7


# --- gate detail and timeline -------------------------------------------------------------------


def test_gate_detail():
    """``kcompat gate JobManagedBy --binary 1.36 --emulated 1.33 --format json`` is the Gate detail page."""
    from kcompat.documents.gate import TABLES, change_rows, release_rows, spec_rows

    at = open_app("gate_detail", **EMULATING, gate="JobManagedBy")
    document = kcompat_json("gate", "JobManagedBy", *EMULATING_ARGS)
    assert frame_with(at, TABLES["specs"][0]).to_dict("records") == spec_rows(document)
    assert frame_with(at, TABLES["releases"][0]).to_dict("records") == release_rows(document)
    changes = frame_with(at, [*TABLES["changes"][0], "KEP"]).drop(columns="KEP")
    assert changes.to_dict("records") == change_rows(document)
    state = document["state"]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics == {
        "Enabled at 1.33": "on" if state["enabled"] else "off", "Stage at 1.33": state["stage"],
        "Stage in 1.36": state["binaryStage"], "Locked": "yes" if state["locked"] else "no",
    }
    assert (document["binary"], document["emulated"], state["stage"], state["binaryStage"]) == ("1.36", "1.33", "Beta", "GA")
    assert at.subheader[0].value == "JobManagedBy" and document["description"] in [t.value for t in at.text]
    # the command line the page shows is the one asked here
    assert at.code[-1].value == "kcompat gate JobManagedBy " + " ".join(EMULATING_ARGS) + " --format json"


def test_timeline():
    """``kcompat timeline --binary 1.36 --format csv`` is the Timeline page's rows (its table as text)."""
    from test_table_text_pages import open_text, text_tables

    at = open_text(open_app("timeline", binary="1.36"))
    (table,) = text_tables(at)
    rows = list(csv.reader(io.StringIO(kcompat("timeline", "--binary", "1.36", "--format", "csv"))))
    assert rows[0] == ["gate", "stage", "history"] and table["headers"] == ["gate", "stage at 1.36", "stages, release by release"]
    assert table["rows"] == rows[1:] and len(rows) > 200
    assert at.code[-1].value == "kcompat timeline --binary 1.36 --emulated 1.36 --format csv"


def test_timeline_filtered():
    from test_table_text_pages import open_text, text_tables

    at = open_text(open_app("timeline", **EMULATING, timeline_stages="PreAlpha", timeline_text="DRA", timeline_sort="name"))
    (table,) = text_tables(at)
    argv = ["--binary", "1.36", "--emulated", "1.33", "--stage", "PreAlpha", "--search", "DRA", "--sort", "name"]
    document = kcompat_json("timeline", *argv)
    assert [r[0] for r in table["rows"]] == [r["gate"] for r in document["rows"]] != []
    assert {r[1] for r in table["rows"]} == {"not yet introduced"}
    assert at.code[-1].value == "kcompat timeline " + " ".join(argv) + " --format csv"


# --- changes ------------------------------------------------------------------------------------


def test_changes_vs_release():
    at = open_app("changes", **EMULATING)
    document = kcompat_json("changes", *EMULATING_ARGS, "--against", "release")
    shown = next(d for d in at.dataframe if d.key == "changes_release_table_0").value
    differing = [c for c in document["changes"] if c["behaviour"] != "same"]
    assert differing
    assert list(shown["gate"]) == [c["name"] for c in differing]
    assert list(shown["here_on"]) == [c["here"]["enabled"] for c in differing]
    assert list(shown["there_on"]) == [c["there"]["enabled"] for c in differing]
    assert list(shown["why"]) == [c["why"] for c in differing]


@pytest.mark.parametrize(
    "params",
    [
        {"binary": "1.33", "emulated": "1.31"},  # a lock-only difference (AllowServiceLBStatusOnNonLB) once counted on the page only
        EMULATING,
        {"binary": "1.35", "emulated": "1.32", "feature_gates": "AllAlpha=true"},  # refused when emulating, accepted natively
        {"binary": "1.36", "emulated": "1.35", "feature_gates": "JobManagedBy=true"},
        {"binary": "1.35", "emulated": "1.34", "patch": "0"},
    ],
)
def test_changed_on_the_gates_page_is_what_changes_against_native_lists(params):
    """One definition of "changed vs the binary": the Gates page's metric and column count exactly
    the gates ``kcompat changes --against native`` lists for the same selection."""

    at = open_app("gates", **params)
    binary = params["binary"] + (f".{params['patch']}" if "patch" in params else "")
    argv = ["--binary", binary, "--emulated", params["emulated"]]
    if "feature_gates" in params:
        argv += ["--feature-gates", params["feature_gates"]]
    document = kcompat_json("changes", *argv, "--against", "native", expect=(0, 2))
    listed = {c["name"] for c in document["changes"]}
    table = frame_with(at, GATE_VIEW)
    assert int(metric(at, f"Changed vs {params['binary']}")) == len(listed) > 0
    assert set(table[table["changed"]]["gate"]) == listed


# --- plan ---------------------------------------------------------------------------------------


def test_plan():
    at = open_app("plan", binary="1.33", emulated="1.32", to="1.36")
    document = kcompat_json("plan", "--from", "1.33@1.32", "--to", "1.36")
    shown = next(d.value for d in at.dataframe if list(d.value.columns)[:3] == ["step", "kind", "what"])
    steps = document["steps"]
    assert len(steps) >= 3
    assert list(shown["step"]) == [s["number"] for s in steps]
    labels = {"binary": "Binary upgrade", "emulation": "Emulation step", "nodes": "Kubelet upgrade"}  # the page's words
    assert list(shown["kind"]) == [labels[s["kind"]] for s in steps]
    assert list(shown["what"]) == [s["title"] for s in steps]
    assert list(shown["emulated"]) == [s["after"]["emulated"] for s in steps]
    assert list(shown["gates"]) == [len(s["gateChanges"]) for s in steps]
    assert list(shown["APIs"]) == [len(s["apiChanges"]) for s in steps]
    assert list(shown["storage"]) == [len(s["storageChanges"]) for s in steps]


# --- matrix -------------------------------------------------------------------------------------


def test_matrix():
    at = open_app("matrix")
    printed = list(csv.DictReader(io.StringIO(kcompat("matrix", "--format", "csv"))))
    shown = at.dataframe[0].value
    releases = [c for c in shown.columns if c != "gate"]
    assert releases and set(releases) <= set(printed[0])
    assert shown.to_dict("records") == [{"gate": r["gate"], **{rel: r[rel] for rel in releases}} for r in printed]


# --- config -------------------------------------------------------------------------------------


def test_config_for_the_selection():
    at = open_app("cluster", **EMULATING)
    shown = [c.value.rstrip("\n") for c in at.code]
    for fmt in ("cmdline", "kubeadm", "kind"):
        printed = kcompat("config", *EMULATING_ARGS, "--format", fmt).rstrip("\n")
        assert printed in shown, fmt
    assert "--feature-gates=AllBeta=false" in shown[0]


# --- inspect ------------------------------------------------------------------------------------


def test_inspect(tmp_path):
    cmdline = (SAMPLES / "ps-kube-apiserver-1.32.txt").read_text()
    version = (SAMPLES / "version-1.32.0.json").read_text()
    metrics = flip(metrics_text("v1.32.0", "1.31", info=version_info("version-1.32.0.json")), "APIServerTracing")
    files = []
    for name, text in (("ps.txt", cmdline), ("version.json", version), ("metrics.txt", metrics)):
        (tmp_path / name).write_text(text)
        files.append(str(tmp_path / name))
    document = kcompat_json("inspect", *files, expect=(1,))
    at = open_app("cluster")
    at.text_area(key="cluster_paste_cmdline").input(cmdline)
    at.text_area(key="cluster_paste_version").input(version)
    at.text_area(key="cluster_paste_metrics").input(metrics)
    next(b for b in at.button if b.label == "Check").click()
    rerun(at)
    disagree = at.dataframe[0].value
    from kcompat.documents.inspect import disagree_rows

    assert disagree.to_dict("records") == disagree_rows(document["observed"]["disagree"])
    assert list(disagree["name"]) == ["APIServerTracing"]
    # the likely cause is the answer: its column is as wide as its longest text (nothing cut)
    from dashboard.tables.text_width import column_px

    widths = {name: c.get("width") for name, c in json.loads(at.dataframe[0].proto.columns).items()}
    assert widths["likely"] == column_px(["likely", *disagree["likely"]]) > 300
    assert [m.value for m in at.metric] == [document["component"], document["binary"], document["emulated"], document["minCompatibility"]]
    gates = frame_with(at, ["name", "enabled", "stage", "default", "locked", "explicit"])
    assert gates.to_dict("records") == [{k: f[k] for k in gates.columns} for f in document["gates"]["features"]]


# --- a patch release ----------------------------------------------------------------------------


def test_a_chosen_patch_release_is_the_binary_of_every_page():
    # v1.35.0's gates differ from the newest recorded 1.35 patch's (MaxUnavailableStatefulSet)
    at = open_app(binary="1.35", emulated="1.35", patch="0")
    document = kcompat_json("gates", "--binary", "1.35.0")
    shown = frame_with(at, GATE_VIEW)
    assert dict(zip(shown["gate"], shown["enabled"], strict=True)) == {f["name"]: f["enabled"] for f in document["features"]}
    newest = kcompat_json("gates", "--binary", "1.35")
    assert document["features"] != newest["features"]
    params = {"binary": "1.35", "emulated": "1.34", "patch": "0"}
    # the commands the APIs and What changes pages show name the patch binary, and print what they show
    at = open_app("apis", **params)
    [apis_command] = [c.value for c in at.code if c.value.startswith("kcompat apis")]
    [storage_command] = [c.value for c in at.code if c.value.startswith("kcompat storage")]
    assert "--binary 1.35.0" in apis_command and "--binary 1.35.0" in storage_command
    stored = kcompat_json("storage", "--binary", "1.35.0", "--emulated", "1.34")
    assert frame_with(at, STORAGE_COLUMNS).to_dict("records") == stored["resources"]
    at = open_app("changes", **dict(params, emulated="1.32"))  # a real 1.32 behaves otherwise for three gates
    release_command = next(c.value for c in at.code if c.value.startswith("kcompat changes"))
    assert release_command.startswith("kcompat changes --binary 1.35.0 --emulated 1.32")
    changes = kcompat_json(*release_command.split()[1:])
    shown = next(d for d in at.dataframe if d.key == "changes_release_table_0").value
    assert list(shown["gate"]) == [c["name"] for c in changes["changes"] if c["behaviour"] != "same"]


# --- scan ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params, argv",
    [
        ({"binary": "1.33", "emulated": "1.31"}, ["--binary", "1.33", "--emulated", "1.31"]),
        (
            {**EMULATING, "manifests_runtime_config": "networking.k8s.io/v1beta1=true", "manifests_all": "true"},
            [*EMULATING_ARGS, "--runtime-config", "networking.k8s.io/v1beta1=true", "--all"],
        ),
    ],
    ids=["1.33@1.31", "1.36@1.33 AllBeta=false runtime-config, all"],
)
def test_scan(params, argv):
    """The Check manifests page's rows are kcompat scan's for the same manifests and selection
    (pasted on the page, on stdin for the command: only the file name differs)."""
    sample = ROOT / "tests" / "samples" / "scan" / "helm-render.yaml"
    done = subprocess.run([sys.executable, "-m", "kcompat.cli.main", "scan", "-", *argv, "--format", "csv"],
                          input=sample.read_text(), capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    printed = list(csv.DictReader(io.StringIO(done.stdout)))
    at = open_app("manifests", **params)
    at.text_area(key="manifests_paste").input(sample.read_text())
    next(b for b in at.button if b.label == "Check").click()
    rerun(at)
    shown = frame_with(at, ["where", "apiVersion", "kind", "name", "status", "reason", "nearest", "lifecycle"]).to_dict("records")
    for row in printed:
        row["where"] = row["where"].replace("stdin", "pasted manifests", 1)
    assert shown == printed and len(shown) >= 5
    assert next(m.value for m in at.metric if m.label == "Not served") == str(sum(r["status"] == "not served" for r in printed))
    assert [c.value for c in at.code][-1].startswith("kcompat scan - --binary ")
