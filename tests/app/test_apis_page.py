"""The APIs page: served APIs with --runtime-config and the forward-compatibility flags, the
comparison with the binary, storage versions, skew, downloads; the same answer as kcompat apis."""

import json
import shlex

import pytest
from conftest import current_page, metric, open_app, rerun, texts

from kcompat.cli.main import main as kcompat
from kcompat.core.apis import evaluate_api_availability
from kcompat.core.runtime_config import MAX_RUNTIME_CONFIG_LENGTH
from kcompat.core.skew import skew_policy
from kcompat.core.storage import storage_versions
from kcompat.data.apis import api_files
from kcompat.documents.apis import DIFFERENCE_COLUMNS, TABLE_COLUMNS, api_rows

BUNDLED = api_files()

RC = "networking.k8s.io/v1beta1=true"
STORAGE_KEYS = ["group", "resource", "kind", "storageVersion", "served", "reason"]


@pytest.fixture(scope="module")
def at_rc():
    return open_app("apis", binary="1.33", emulated="1.31", runtime_config=RC)


def frame(at, first_column, columns=None):
    """The dataframe whose first column is ``first_column`` (and, if given, exactly ``columns``)."""
    for d in at.dataframe:
        value = d.value
        if list(value.columns)[:1] == [first_column] and (columns is None or list(value.columns) == list(columns)):
            return value
    raise AssertionError(f"no table starting with {first_column!r}")


def api_table(at):
    return frame(at, "group", TABLE_COLUMNS)


def diff_tables(at):
    return [d.value for d in at.dataframe if list(d.value.columns) == ["group", "version", "kind", "resource", "stage", "reason"]]


#: how the table says a deprecation fact the JSON writes null
FACT_WORDS = ("not deprecated", "no removal set", "none named", "not recorded")


def as_json_items(table):
    """The table's rows in the JSON shape (subresources are shown comma-separated, the
    deprecation facts in words)."""
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


def differences(at):
    return frame(at, "group", DIFFERENCE_COLUMNS)


def command(at):
    """The ``kcompat apis`` command line the page shows."""
    return next(c.value for c in at.code if c.value.startswith("kcompat apis"))


def cli_json(capsys, at):
    argv = shlex.split(command(at))[1:]
    code = kcompat(argv)
    return code, json.loads(capsys.readouterr().out)


def test_default_load():
    at = open_app("apis", binary="1.36", emulated="1.36")
    assert current_page(at) == "apis"
    assert at.subheader[0].value == "Built-in APIs of a 1.36 kube-apiserver emulating 1.36"
    expected = evaluate_api_availability("1.36", api_data=BUNDLED)
    assert len(api_table(at)) == len(expected.entries)
    assert metric(at, "Served") == str(len(expected.served()))
    assert metric(at, "Enabled vs 1.36") == metric(at, "Removed vs 1.36") == "0"
    assert not at.error and not at.warning
    assert at.query_params == {"binary": "1.36", "emulated": "1.36"}
    assert at.text_input(key="apis_runtime_config").value == ""
    assert not at.toggle(key="apis_efc").value and not at.toggle(key="apis_rcefc").value


def test_deep_link_with_runtime_config(at_rc):
    assert at_rc.text_input(key="apis_runtime_config").value == RC
    assert at_rc.query_params == {"binary": "1.33", "emulated": "1.31", "runtime_config": RC}
    table = api_table(at_rc).set_index(["group", "version", "resource"])
    for resource in ("servicecidrs", "ipaddresses"):
        row = table.loc[("networking.k8s.io", "v1beta1", resource)]
        assert row["served"] and RC in row["reason"]
        assert not table.loc[("networking.k8s.io", "v1", resource), "served"]


def test_comparison_with_the_binary(at_rc):
    diff = evaluate_api_availability("1.33", "1.31", RC, api_data=BUNDLED).compared_with_binary()
    assert diff.enabled == ()  # an empty side shows a sentence, not a table
    [removed] = diff_tables(at_rc)
    assert [(r["version"], r["kind"]) for _, r in removed.iterrows()] == [(e.version, e.kind) for e in diff.removed]
    assert ("v1", "ServiceCIDR") in [(e.version, e.kind) for e in diff.removed]
    assert removed["reason"].str.contains("introduced in 1.33").all()
    assert metric(at_rc, "Removed vs 1.33") == str(len(diff.removed))
    assert metric(at_rc, "Enabled vs 1.33") == str(len(diff.enabled))


@pytest.mark.parametrize(
    "params",
    [
        {"binary": "1.33", "emulated": "1.31", "runtime_config": RC},
        {"binary": "1.33", "emulated": "1.32", "runtime_config": RC, "emulation_forward_compatible": "true"},
        {
            "binary": "1.35",
            "emulated": "1.33",
            "min_compat": "1.32",
            "runtime_config": "api/beta=true,networking.k8s.io/v1/servicecidrs=true",
            "runtime_config_emulation_forward_compatible": "true",
        },
        {"binary": "1.36", "emulated": "1.36", "runtime_config": "foo", "emulation_forward_compatible": "true"},
    ],
)
def test_table_equals_the_cli_json(capsys, params):
    at = open_app("apis", **params)
    code, doc = cli_json(capsys, at)
    shown = api_table(at)
    assert as_json_items(shown) == doc["apis"]
    assert list(shown["resource"]) == [r["resource"] for r in api_rows(evaluate_api_availability(
        params["binary"], params["emulated"], params["runtime_config"],
        params.get("emulation_forward_compatible") == "true",
        params.get("runtime_config_emulation_forward_compatible") == "true", api_data=BUNDLED,
    ))]
    assert texts(at.error) == doc["errors"]
    assert texts(at.warning) == doc["warnings"]
    assert (code == 0) is doc["valid"] is (not at.error)
    assert metric(at, "Served") == str(sum(a["served"] for a in doc["apis"]))


def test_forward_compatible_toggle_from_the_url_serves_the_newer_version():
    at = open_app("apis", binary="1.33", emulated="1.32", runtime_config=RC, emulation_forward_compatible="true")
    assert at.toggle(key="apis_efc").value
    row = api_table(at).set_index(["group", "version", "kind"]).loc[("networking.k8s.io", "v1", "ServiceCIDR")]
    assert row["served"] and "--emulation-forward-compatible" in row["reason"]


def test_malformed_runtime_config_shows_the_engine_error():
    at = open_app("apis", binary="1.33", emulated="1.31", runtime_config="networking.k8s.io/v1beta1=maybe")
    expected = evaluate_api_availability("1.33", "1.31", "networking.k8s.io/v1beta1=maybe", api_data=BUNDLED).errors
    assert texts(at.error) == list(expected) and "invalid value of networking.k8s.io/v1beta1: maybe" in expected[0]
    assert any("would refuse to start" in c.value for c in at.caption)
    assert len(api_table(at)) > 0  # the rest is still shown


def test_typing_a_runtime_config_writes_the_url():
    at = open_app("apis", binary="1.33", emulated="1.31")
    at.text_input(key="apis_runtime_config").input(RC)
    rerun(at)
    assert at.query_params["runtime_config"] == RC
    assert api_table(at).set_index(["version", "resource"]).loc[("v1beta1", "servicecidrs"), "served"]
    at.text_input(key="apis_runtime_config").input("")
    rerun(at)
    assert "runtime_config" not in at.query_params


def test_forward_compatible_toggle_without_emulation_is_rejected():
    at = open_app("apis", binary="1.33")
    at.toggle(key="apis_efc").set_value(True)
    rerun(at)
    assert at.query_params["emulation_forward_compatible"] == "true"
    assert texts(at.error) == [
        "ServerRunOptions.EmulationForwardCompatible cannot be set to true if the emulation version is the same as the binary version"
    ]
    at.toggle(key="apis_efc").set_value(False)
    rerun(at)
    assert "emulation_forward_compatible" not in at.query_params and not at.error


def test_toggle_on_a_binary_without_the_flag_is_rejected():
    at = open_app("apis", binary="1.31", runtime_config_emulation_forward_compatible="true")
    assert texts(at.error) == [
        "unknown flag: --runtime-config-emulation-forward-compatible (a 1.31 binary has no such flag; it exists from 1.33)"
    ]


def test_invalid_toggle_value_in_the_url_is_explained_and_defaulted():
    at = open_app("apis", binary="1.33", emulated="1.32", emulation_forward_compatible="yes")
    warnings = texts(at.warning)
    assert any("emulation_forward_compatible='yes' in the URL is not one of true, false; it is ignored." in w for w in warnings)
    assert not at.toggle(key="apis_efc").value
    assert "emulation_forward_compatible" not in at.query_params
    assert not at.error


def test_overlong_runtime_config_in_the_url_is_explained_and_defaulted():
    at = open_app("apis", binary="1.33", runtime_config="a" * (MAX_RUNTIME_CONFIG_LENGTH + 1))
    assert any("runtime_config='aaaa" in w and "more than the limit" in w for w in texts(at.warning))
    assert at.text_input(key="apis_runtime_config").value == ""
    assert "runtime_config" not in at.query_params


def test_filters():
    at = open_app("apis", binary="1.33", emulated="1.31", runtime_config=RC)
    at.segmented_control(key="apis_served").set_value("served")
    at.pills(key="apis_stages").set_value(["beta"])
    rerun(at)
    shown = api_table(at)
    assert len(shown) > 0 and shown["served"].all() and (shown["stage"] == "beta").all()
    at.segmented_control(key="apis_served").set_value(None)
    at.pills(key="apis_stages").set_value([])
    at.multiselect(key="apis_groups").set_value(["networking.k8s.io"])
    at.text_input(key="apis_text").input("CIDR")
    rerun(at)
    shown = api_table(at)
    assert set(shown["kind"]) == {"ServiceCIDR"} and set(shown["group"]) == {"networking.k8s.io"}
    total = len(evaluate_api_availability("1.33", "1.31", RC, api_data=BUNDLED).entries)
    assert any(f"{len(shown)} of {total} resources match" in c.value for c in at.caption)


def storage_command(at):
    return next(c.value for c in at.code if c.value.startswith("kcompat storage"))


@pytest.mark.parametrize(
    "params",
    [
        {"binary": "1.35", "emulated": "1.33", "min_compat": "1.32"},
        {"binary": "1.36", "emulated": "1.33"},
        {"binary": "1.33", "emulated": "1.33"},
        {"binary": "1.37", "emulated": "1.35"},
    ],
)
def test_storage_tab_equals_the_cli_json(capsys, params):
    at = open_app("apis", **params)
    argv = shlex.split(storage_command(at))[1:]
    code = kcompat(argv)
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["valid"]
    shown = frame(at, "group", STORAGE_KEYS)
    rows = shown.to_dict("records")
    for row in rows:
        row["storageVersion"] = row["storageVersion"] if isinstance(row["storageVersion"], str) else None
    assert rows == doc["resources"]
    assert (doc["emulated"], doc["minCompatibility"]) == (params["emulated"], str(storage_versions(
        params["binary"], params["emulated"], params.get("min_compat"), api_data=BUNDLED).min_compat))
    for warning in doc["warnings"]:
        assert warning in texts(at.warning)


def test_storage_tab_names_pod_certificate_request_and_device_taint_rule_correctly():
    at = open_app("apis", binary="1.36", emulated="1.33")
    shown = frame(at, "group", STORAGE_KEYS).set_index(["group", "kind"])
    assert shown.loc[("certificates.k8s.io", "PodCertificateRequest"), "storageVersion"] == "certificates.k8s.io/v1beta1"
    at = open_app("apis", binary="1.33", emulated="1.33")
    shown = frame(at, "group", STORAGE_KEYS).set_index(["group", "kind"])
    assert shown.loc[("resource.k8s.io", "DeviceTaintRule"), "storageVersion"] == "resource.k8s.io/v1alpha3"
    described = texts(at.markdown)
    assert any("min compatibility 1.32" in m and str(storage_versions("1.33", api_data=BUNDLED).rule) in m for m in described)


def test_page_leads_with_the_differences_from_the_real_release(capsys):
    at = open_app("apis", binary="1.33", emulated="1.31")
    shown = differences(at)
    assert [(r["group"], r["version"], r["resource"], r["served"], r["servedByRelease"]) for _, r in shown.iterrows()] == [
        ("flowcontrol.apiserver.k8s.io", "v1beta3", "flowschemas", False, True),
        ("flowcontrol.apiserver.k8s.io", "v1beta3", "prioritylevelconfigurations", False, True),
    ]
    # it comes before the full table, and says which side is which
    assert at.dataframe[0].value.equals(shown)
    assert "**Differences from a real 1.31 kube-apiserver** (2)" in texts(at.markdown)
    assert any("a real 1.31 binary with the same --runtime-config" in c for c in texts(at.caption))
    _code, doc = cli_json(capsys, at)
    from_cli = [a for a in doc["apis"] if a["servedByRelease"] is not None and a["servedByRelease"] != a["served"]]
    assert [(a["group"], a["version"], a["resource"]) for a in from_cli] == list(zip(shown["group"], shown["version"], shown["resource"], strict=True))


def test_no_differences_says_so():
    at = open_app("apis", binary="1.35", emulated="1.34")
    if evaluate_api_availability("1.35", "1.34", api_data=BUNDLED).differences_from_release():
        pytest.skip("1.35@1.34 differs from 1.34")
    assert any("serves exactly the resources a real 1.34 binary serves" in s for s in texts(at.success))


def test_skew_table():
    at = open_app("apis", binary="1.35", emulated="1.33")
    policy = skew_policy("1.35", "1.33")
    shown = frame(at, "component")
    assert list(shown["component"]) == [r.component for r in policy.emulation_aware]
    assert list(shown["emulation-aware range"]) == [str(r) for r in policy.emulation_aware]
    assert list(shown["classic range"]) == [str(policy.classic_for(r.component)) for r in policy.emulation_aware]


def test_downloads_are_the_cli_formats(at_rc):
    buttons = [b for b in at_rc.get("download_button") if "apis_download_" in b.proto.id]
    assert [b.label for b in buttons] == ["CSV", "JSON", "Markdown"]
    assert all(b.proto.deferred_file_id and b.proto.ignore_rerun for b in buttons)
    assert all(f"kcompat apis --format {fmt}" in b.proto.help for fmt, b in zip(("csv", "json", "markdown"), buttons, strict=True))


def test_the_view_is_restored_from_the_url():
    at = open_app(
        "apis", binary="1.33", emulated="1.31", apis_tab="storage", apis_served="not served", apis_stages="beta",
        apis_groups="core,networking.k8s.io", apis_text="cidr",
    )
    assert at.session_state["apis_tab"] == "Storage versions"
    assert at.segmented_control(key="apis_served").value == "not served"
    assert at.pills(key="apis_stages").value == ["beta"]
    assert at.multiselect(key="apis_groups").value == ["core", "networking.k8s.io"]
    assert at.text_input(key="apis_text").value == "cidr"
    assert not at.warning
    shown = api_table(at)
    assert set(shown["group"]) <= {"", "networking.k8s.io"} and not shown["served"].any()


def test_the_core_group_filter_travels_as_core():
    at = open_app("apis", binary="1.33", emulated="1.31")
    at.multiselect(key="apis_groups").set_value(["core"])
    rerun(at)
    assert at.query_params["apis_groups"] == "core"
    shown = api_table(at)
    assert len(shown) and set(shown["group"]) == {""}


def test_invalid_view_values_warn_and_are_ignored():
    at = open_app("apis", binary="1.33", emulated="1.31", apis_tab="nope", apis_served="maybe", apis_groups="no.such.group")
    warnings = texts(at.warning)
    for key in ("apis_tab", "apis_served", "apis_groups"):
        assert any(w.startswith(f"{key}=") for w in warnings), key
    assert at.session_state["apis_tab"] == "API table"
    assert at.segmented_control(key="apis_served").value is None
    assert at.query_params == {"binary": "1.33", "emulated": "1.31"}


def test_each_table_has_a_csv_with_the_cli_columns(csv_downloads, capsys):
    at = open_app("apis", binary="1.33", emulated="1.31", runtime_config=RC)
    assert {"apis_differences_csv", "apis_storage_csv", "apis_skew_csv"} <= set(csv_downloads)
    short = [k for k in ("apis_enabled_csv", "apis_removed_csv") if k in csv_downloads]
    assert len(short) == len(diff_tables(at)) > 0  # one CSV per table shown
    assert kcompat([*shlex.split(command(at).replace("--format json", "--format csv"))[1:]]) in (0, 2)
    apis_csv = capsys.readouterr().out.splitlines()
    differing = csv_downloads["apis_differences_csv"].splitlines()
    assert differing[0] == ",".join(DIFFERENCE_COLUMNS) == ",".join(differences(at).columns)  # the columns shown
    assert len(differing) - 1 == len(differences(at)) > 0
    assert apis_csv[0] == ",".join(TABLE_COLUMNS)
    storage_argv = shlex.split(storage_command(at).replace("--format json", "--format csv"))[1:]
    assert kcompat(storage_argv) in (0, 2)
    assert csv_downloads["apis_storage_csv"] == capsys.readouterr().out
    assert all(csv_downloads[k].splitlines()[0] == "group,version,kind,resource,stage,reason" for k in short)


def test_the_selections_feature_gates_decide_feature_gated_storage():
    """kube-apiserver installs scheduling.k8s.io workloads only while GenericWorkload (Beta, off in
    1.37) is on (recorded from the real v1.37.2): with every API on, the page serves them only when
    the selection turns the gate on, as `kcompat apis --feature-gates` does."""
    def workloads_served(at):
        table = api_table(at)
        row = table[(table["group"] == "scheduling.k8s.io") & (table["version"] == "v1beta1") & (table["resource"] == "workloads")]
        return bool(row["served"].iloc[0])

    off = open_app("apis", binary="1.37", emulated="1.37", runtime_config="api/all=true")
    on = open_app("apis", binary="1.37", emulated="1.37", runtime_config="api/all=true", feature_gates="GenericWorkload=true")
    assert not workloads_served(off) and workloads_served(on)


def test_the_command_shown_carries_every_flag_the_page_applies(capsys):
    """/apis?binary=1.33&emulated=1.33&feature_gates=StorageVersionMigrator=true&runtime_config=
    storagemigration.k8s.io/v1alpha1=true: the gate decides whether kube-apiserver installs the
    storage of storageversionmigrations, so the command must carry --feature-gates; its answer has
    the page's counts (62 served, not the 61 of the command without the gate)."""
    params = {"binary": "1.33", "emulated": "1.33", "feature_gates": "StorageVersionMigrator=true",
              "runtime_config": "storagemigration.k8s.io/v1alpha1=true"}
    at = open_app("apis", **params)
    line = command(at)
    assert "--feature-gates StorageVersionMigrator=true" in line
    code, doc = cli_json(capsys, at)
    assert code == 0
    served = sum(a["served"] for a in doc["apis"])
    assert metric(at, "Served") == str(served) == "62"
    assert metric(at, "Not served") == str(len(doc["apis"]) - served)
    svm = next(a for a in doc["apis"] if a["resource"] == "storageversionmigrations")
    assert svm["served"] is True
    # and with a min compatibility: the command carries it too
    at = open_app("apis", binary="1.36", emulated="1.35", min_compat="1.33")
    assert "--min-compat 1.33" in command(at)
    _code, doc = cli_json(capsys, at)
    assert metric(at, "Served") == str(sum(a["served"] for a in doc["apis"]))


def test_the_table_says_deprecated_in_removed_in_and_the_replacement(at_rc):
    """1.33 emulating 1.31: flowcontrol v1beta3 FlowSchema, deprecated in 1.29, removed in 1.32,
    replaced by flowcontrol v1 (data/apis/v1.33.yaml); an alpha group/version without lifecycle
    data says not recorded; a GA kind not deprecated."""
    shown = api_table(at_rc).set_index(["group", "version", "kind"])
    flow = shown.loc[("flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema")]
    assert (flow["deprecatedIn"], flow["removedIn"], flow["replacement"]) == ("1.29", "1.32", "flowcontrol.apiserver.k8s.io/v1 FlowSchema")
    storage = shown.loc[("internal.apiserver.k8s.io", "v1alpha1", "StorageVersion")]
    assert (storage["deprecatedIn"], storage["removedIn"], storage["replacement"]) == ("not recorded",) * 3
    pod = shown.loc[("", "v1", "Pod")]
    assert (pod["deprecatedIn"], pod["removedIn"], pod["replacement"]) == ("not deprecated", "no removal set", "none named")
