"""kcompat apis: the JSON contract, formats and exit codes."""

import csv
import io
import json

import pytest

from kcompat.cli.main import main
from kcompat.data.catalog import catalog_for

DOCUMENT_KEYS = ["binary", "emulated", "valid", "verdict", "errors", "notReady", "warnings", "hints", "against", "onlyDifferences", "apis"]
API_KEYS = [
    "group", "version", "kind", "resource", "subresources", "stage", "served", "servedByRelease", "deprecatedIn", "removedIn", "replacement",
    "lifecycleRecorded", "reason",
]


def run(capsys, *argv, data_dir=None):
    code = main(["apis", *argv], catalog_for(data_dir))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_contract(capsys):
    code, out, _ = run(capsys, "--binary", "1.33", "--emulated", "1.31", "--runtime-config", "networking.k8s.io/v1beta1=true", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and list(doc) == DOCUMENT_KEYS
    assert (doc["binary"], doc["emulated"], doc["valid"], doc["errors"], doc["warnings"]) == ("1.33", "1.31", True, [], [])
    assert all(list(a) == API_KEYS for a in doc["apis"])
    pod = next(a for a in doc["apis"] if a["kind"] == "Pod")
    assert pod == {"group": "", "version": "v1", "kind": "Pod", "resource": "pods",
                   # the connect subresources are served; resize only while InPlacePodVerticalScaling is on (off at 1.31)
                   "subresources": ["attach", "binding", "ephemeralcontainers", "eviction", "exec", "log", "portforward", "proxy", "status"],
                   "stage": "GA", "served": True, "servedByRelease": True,
                   "deprecatedIn": None, "removedIn": None, "replacement": None, "lifecycleRecorded": True,
                   "reason": "enabled by default (GA group/version in the default list)"}
    flow = next(a for a in doc["apis"] if (a["group"], a["version"], a["kind"]) == ("flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema"))
    assert (flow["resource"], flow["served"], flow["servedByRelease"]) == ("flowschemas", False, True)
    # data/apis/v1.33.yaml: APILifecycleDeprecated 1.29, APILifecycleRemoved 1.32, replacement flowcontrol v1
    assert (flow["deprecatedIn"], flow["removedIn"], flow["replacement"], flow["lifecycleRecorded"]) == (
        "1.29", "1.32", "flowcontrol.apiserver.k8s.io/v1 FlowSchema", True)
    endpoints = next(a for a in doc["apis"] if a["kind"] == "Endpoints")
    component = next(a for a in doc["apis"] if a["kind"] == "ComponentStatus")
    assert (endpoints["resource"], component["resource"]) == ("endpoints", "componentstatuses")
    cidr = next(a for a in doc["apis"] if (a["group"], a["version"], a["kind"]) == ("networking.k8s.io", "v1beta1", "ServiceCIDR"))
    assert cidr["served"] is True and cidr["stage"] == "beta" and "networking.k8s.io/v1beta1=true" in cidr["reason"]


def test_invalid_flags_exit_2_with_errors_in_json(capsys):
    code, out, _ = run(capsys, "--binary", "1.33", "--emulated", "1.31", "--runtime-config", "networking.k8s.io/v1/servicecidrs=true", "--format", "json")
    doc = json.loads(out)
    assert code == 2 and doc["valid"] is False and doc["errors"][0].startswith("cannot enable resource networking.k8s.io/v1, Resource=servicecidrs")
    code, out, _ = run(capsys, "--binary", "1.33", "--emulation-forward-compatible", "--format", "json")
    assert code == 2 and json.loads(out)["errors"] == [
        "ServerRunOptions.EmulationForwardCompatible cannot be set to true if the emulation version is the same as the binary version"
    ]


def test_forward_compat_flags(capsys):
    code, out, _ = run(capsys, "--binary", "1.33", "--emulated", "1.31", "--runtime-config", "networking.k8s.io/v1/servicecidrs=true",
                       "--runtime-config-emulation-forward-compatible", "--format", "json")
    doc = json.loads(out)
    served = {(a["version"], a["kind"]) for a in doc["apis"] if a["group"] == "networking.k8s.io" and a["served"]}
    assert code == 0 and ("v1", "ServiceCIDR") in served and ("v1", "IPAddress") not in served


def test_unusable_binary_gives_a_rejected_document(capsys):
    code, out, _ = run(capsys, "--binary", "1.29", "--format", "json")
    doc = json.loads(out)
    assert code == 2 and list(doc) == DOCUMENT_KEYS and doc["apis"] == [] and "predates compatibility versions" in doc["errors"][0]
    code, out, err = run(capsys, "--binary", "banana")
    assert code == 2 and out == "" and "kcompat: error: invalid binary version 'banana'" in err


def test_table_markdown_and_csv(capsys):
    code, out, err = run(capsys, "--binary", "1.37")
    assert code == 0 and out.splitlines()[0].split() == ["group", "version", "kind", "resource", "subresources", "stage", "served", "servedByRelease", "deprecatedIn", "removedIn", "replacement", "reason"]
    assert "default lists of 1.37 (oracle-v1.37.2)" in err and "emulated 1.37" in err
    code, out, _ = run(capsys, "--binary", "1.33", "--format", "markdown")
    assert out.startswith("| group | version | kind | resource | subresources | stage | served | servedByRelease | deprecatedIn | removedIn | replacement | reason |\n|---|")
    code, out, _ = run(capsys, "--binary", "1.33", "--emulated", "1.31", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    row = next(r for r in rows if (r["group"], r["version"], r["kind"]) == ("networking.k8s.io", "v1", "ServiceCIDR"))
    assert row["served"] == "false" and row["resource"] == "servicecidrs" and "after the emulated version 1.31" in row["reason"]


def test_errors_go_to_stderr_for_tables(capsys):
    code, _, err = run(capsys, "--binary", "1.33", "--runtime-config", "api/all=false")
    assert code == 2 and "error: invalid key with only api/all=false" in err


def test_repeated_runtime_config_values_accumulate(capsys):
    code, out, _ = run(capsys, "--binary", "1.33", "--runtime-config", "api/all=false", "--runtime-config", "apps/v1=true", "--format", "json")
    doc = json.loads(out)
    assert {(a["group"], a["version"]) for a in doc["apis"] if a["served"]} == {("apps", "v1")}
    # kube-apiserver itself refuses that: API Priority and Fairness needs flowcontrol v1 (its option check)
    assert code == 2 and doc["errors"] == ["--runtime-config=api/all=false conflicts with --enable-priority-and-fairness=true"]


def test_wired_into_kcompat(capsys):
    cli = pytest.importorskip("kcompat.cli.main")
    code = cli.main(["apis", "--binary", "1.34", "--emulated", "1.33", "--runtime-config", "coordination.k8s.io/v1alpha2=true", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["warnings"][0].startswith("alpha api enabled with emulated version 1.33 instead of the binary's version 1.34.0")


def run_storage_cli(capsys, *argv):
    from kcompat.cli.main import main

    code = main(["storage", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


STORAGE_KEYS = ["binary", "emulated", "minCompatibility", "valid", "errors", "warnings", "resources"]
STORAGE_RESOURCE_KEYS = ["group", "resource", "kind", "storageVersion", "served", "reason"]


def test_storage_json_contract(capsys):
    code, out, _ = run_storage_cli(capsys, "--binary", "1.36", "--emulated", "1.33", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and list(doc) == STORAGE_KEYS
    assert (doc["binary"], doc["emulated"], doc["minCompatibility"], doc["valid"]) == ("1.36", "1.33", "1.33", True)
    assert all(list(r) == STORAGE_RESOURCE_KEYS for r in doc["resources"])
    pcr = next(r for r in doc["resources"] if r["kind"] == "PodCertificateRequest")
    assert (pcr["group"], pcr["resource"], pcr["storageVersion"], pcr["served"]) == (
        "certificates.k8s.io", "podcertificaterequests", "certificates.k8s.io/v1beta1", False)


def test_storage_min_compat_and_bad_input(capsys):
    code, out, _ = run_storage_cli(capsys, "--binary", "1.36", "--emulated", "1.34", "--min-compat", "1.33", "--format", "json")
    doc = json.loads(out)
    cidr = next(r for r in doc["resources"] if r["resource"] == "servicecidrs")
    assert code == 0 and doc["minCompatibility"] == "1.33" and cidr["storageVersion"] == "networking.k8s.io/v1"
    # a 1.34 kube-apiserver has no --min-compatibility-version, even at its default value: it exits,
    # as `kcompat gates` says; the document shows the binary's defaults
    for value in ("1.33", "1.32"):
        code, out, _ = run_storage_cli(capsys, "--binary", "1.34", "--emulated", "1.33", "--min-compat", value, "--format", "json")
        doc = json.loads(out)
        assert code == 2 and doc["errors"] == ["unknown flag: --min-compatibility-version"]
        assert (doc["emulated"], doc["minCompatibility"], doc["valid"]) == ("1.34", "1.33", False)
    code, _, err = run_storage_cli(capsys, "--binary", "1.34", "--min-compat", "1.33")
    assert code == 2 and "unknown flag: --min-compatibility-version" in err
    code, out, _ = run_storage_cli(capsys, "--binary", "1.33", "--emulated", "1.30", "--format", "json")
    assert code == 2 and "emulation version 1.30 is not between [1.31, 1.33.0]" in json.loads(out)["errors"]
    code, out, _ = run_storage_cli(capsys, "--binary", "nope", "--format", "json")
    doc = json.loads(out)
    assert code == 2 and list(doc) == STORAGE_KEYS and doc["resources"] == [] and doc["errors"]
    code, out, err = run_storage_cli(capsys, "--binary", "1.29")
    assert code == 2 and "kcompat: error:" in err and "Traceback" not in err


def test_without_binary_the_newest_release_and_says_so(capsys):
    """Issue 28: ``kcompat apis`` required --binary while ``kcompat gates`` defaults to the newest release."""
    code, out, err = run(capsys, "--format", "json")
    assert code == 0 and json.loads(out)["binary"] == "1.37"
    code, out, err = run(capsys)
    assert code == 0 and err.startswith("# binary 1.37 (the newest bundled release: --binary picks another), emulated 1.37")


def test_against_native_and_only_differences(capsys):
    """The APIs page's comparisons on the command line: a real release (servedByRelease) or the
    binary at its own version (servedByBinary), every row or only the differing ones."""
    code, out, err = run(capsys, "--binary", "1.33", "--emulated", "1.31", "--only-differences", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and (doc["against"], doc["onlyDifferences"]) == ("release", True)
    assert [(a["group"], a["version"], a["kind"], a["served"], a["servedByRelease"]) for a in doc["apis"]] == [
        ("flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema", False, True),
        ("flowcontrol.apiserver.k8s.io", "v1beta3", "PriorityLevelConfiguration", False, True),
    ]
    code, out, err = run(capsys, "--binary", "1.33", "--emulated", "1.31", "--against", "native", "--only-differences", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and list(rows[0]) == ["group", "version", "kind", "resource", "subresources", "stage", "served", "servedByBinary", "deprecatedIn", "removedIn", "replacement", "reason"]
    # networking.k8s.io/v1 servicecidrs and ipaddresses were introduced in 1.33: the binary serves them, not at 1.31 (SPEC example 8)
    assert {(r["kind"], r["served"], r["servedByBinary"]) for r in rows} >= {("ServiceCIDR", "false", "true"), ("IPAddress", "false", "true")}
    assert all(r["served"] != r["servedByBinary"] for r in rows)
    assert "differ from the 1.33 binary at its own version, only those shown" in err
    code, out, _ = run(capsys, "--binary", "1.33", "--emulated", "1.31", "--against", "native", "--format", "json")
    every = json.loads(out)["apis"]
    assert len(every) > len(rows) and sum(a["served"] != a["servedByBinary"] for a in every) == len(rows)


def test_a_comparison_release_that_refuses_is_not_mistaken_for_the_binary(capsys):
    """A 1.36 binary emulating 1.34 accepts a --runtime-config that release 1.34's own binary
    refuses: the warning says the comparison refuses, naming both binaries; the answer stays valid."""
    code, out, _ = run(capsys, "--binary", "1.36", "--emulated", "1.34", "--runtime-config", "storagemigration.k8s.io/v1beta1=true", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["valid"] and doc["errors"] == []
    [warning] = doc["warnings"]
    assert warning == (
        "servedByRelease is false for every resource: release 1.34's own binary (the comparison, not this 1.36 binary "
        "emulating 1.34) would refuse this --runtime-config (group version storagemigration.k8s.io/v1beta1 that has not been registered)"
    )
    assert not any(a["servedByRelease"] for a in doc["apis"])


def test_the_older_releases_serve_what_their_real_binary_serves(capsys):
    """1.31-1.34 read from their running code: the chained apiservers' resources, v1/bindings and
    the connect subresources are served; storage a gate installs follows the gate; an API the
    binary has no storage for is never served (networking.k8s.io/v1alpha1 in v1.31.14)."""
    code, out, _ = run(capsys, "--binary", "1.34.4", "--format", "json")
    served = {(a["group"], a["resource"]): a["subresources"] for a in json.loads(out)["apis"] if a["served"]}
    assert code == 0
    assert served[("apiextensions.k8s.io", "customresourcedefinitions")] == ["status"]
    assert served[("apiregistration.k8s.io", "apiservices")] == ["status"] and ("", "bindings") in served
    assert {"exec", "attach", "portforward"} <= set(served[("", "pods")]) and "proxy" in served[("", "nodes")]
    # pods/resize only while InPlacePodVerticalScaling is on: Beta on at 1.33 and 1.34, Alpha off before
    code, out, _ = run(capsys, "--binary", "1.34.4", "--emulated", "1.32", "--format", "json")
    pods = next(a for a in json.loads(out)["apis"] if a["served"] and a["resource"] == "pods" and a["group"] == "")
    assert "resize" not in pods["subresources"] and "resize" in served[("", "pods")]
    code, out, _ = run(capsys, "--binary", "1.31.14", "--runtime-config", "api/all=true", "--format", "json")
    document = json.loads(out)
    assert code == 0 and not [a for a in document["apis"] if a["served"] and (a["group"], a["version"]) == ("networking.k8s.io", "v1alpha1")]


def test_every_api_says_its_deprecation_facts_from_the_data_or_not_recorded(capsys):
    """Every entry of the JSON, the CSV and the table says deprecated-in, removed-in and the
    replacement; a kind whose package has no lifecycle data (internal.apiserver.k8s.io/v1alpha1, lifecycleFile
    false in data/apis/v1.33.yaml) says "not recorded", never a guessed release."""
    from kcompat.data.apis import api_files

    release = api_files().api_release("1.33")
    data = {(k.group, k.version, k.kind): k for gv in release.group_versions for k in gv.kinds}
    code, out, _ = run(capsys, "--binary", "1.33", "--emulated", "1.31", "--format", "json")
    doc = json.loads(out)
    assert code == 0
    for a in doc["apis"]:
        kind = data[(a["group"], a["version"], a["kind"])]
        assert a["deprecatedIn"] == (str(kind.deprecated) if kind.deprecated else None)
        assert a["removedIn"] == (str(kind.removed) if kind.removed else None)
        assert a["lifecycleRecorded"] is kind.lifecycle_recorded
    assert sum(not a["lifecycleRecorded"] for a in doc["apis"]) > 0
    _code, out, _ = run(capsys, "--binary", "1.33", "--emulated", "1.31", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    review = next(r for r in rows if (r["group"], r["version"], r["kind"]) == ("internal.apiserver.k8s.io", "v1alpha1", "StorageVersion"))
    assert (review["deprecatedIn"], review["removedIn"], review["replacement"]) == ("not recorded",) * 3
    flow = next(r for r in rows if (r["group"], r["version"], r["kind"]) == ("flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema"))
    assert (flow["deprecatedIn"], flow["removedIn"], flow["replacement"]) == ("1.29", "1.32", "flowcontrol.apiserver.k8s.io/v1 FlowSchema")
    pod = next(r for r in rows if r["kind"] == "Pod")
    assert (pod["deprecatedIn"], pod["removedIn"], pod["replacement"]) == ("not deprecated", "no removal set", "none named")
    assert all(r["deprecatedIn"] and r["removedIn"] and r["replacement"] for r in rows)
