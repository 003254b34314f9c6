"""The inspect readers on samples in the formats the real tools write (tests/samples/inspect/),
and hostile or contradictory input: every refusal names the file (and line where there is one)."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspect_samples import SAMPLES, metrics_text

from kcompat.core.inspect import InspectError, combine_readings, read_input
from kcompat.core.inspect.messages import pflag_error
from kcompat.core.inspect.model import MAX_INPUT_BYTES


def read(name):
    return read_input((SAMPLES / name).read_bytes(), name)


def flags(reading, component="kube-apiserver"):
    [flag_set] = [s for s in reading.flag_sets if s.component == component]
    return {name: fact.value for name, fact in flag_set.flags}


def refused(data, name="input.txt"):
    with pytest.raises(InspectError) as exc:
        read_input(data, name)
    return str(exc.value)


# --- command lines ----------------------------------------------------------------------------

def test_ps_line_skips_header_and_grep():
    reading = read("ps-kube-apiserver-1.32.txt")
    [flag_set] = reading.flag_sets
    assert flag_set.component == "kube-apiserver" and flag_set.where.line == 2
    assert flags(reading) == {
        "emulated-version": "1.31", "runtime-config": "",
        # the flags kube-apiserver's start-up checks read (kcompat.core.startup.OPTION_FLAGS)
        "service-account-issuer": "https://kubernetes.default.svc.cluster.local", "service-account-key-file": "/etc/kubernetes/pki/sa.pub",
        "service-account-signing-key-file": "/etc/kubernetes/pki/sa.key", "service-cluster-ip-range": "10.96.0.0/16",
    }


def test_command_line_both_flag_forms_and_continuations():
    text = (
        "# started by hand\n"
        "/usr/local/bin/kube-controller-manager \\\n"
        "  --emulated-version 1.33 \\\n"
        "  --feature-gates='kube:APIServerTracing=false' \\\n"
        "  --leader-elect=true --v 2\n"
    )
    reading = read_input(text, "kcm.sh")
    assert flags(reading, "kube-controller-manager") == {"emulated-version": "1.33", "feature-gates": "kube:APIServerTracing=false"}
    assert reading.flag_sets[0].where.line == 2


def test_flag_without_its_value_is_the_binarys_refusal():
    [flag_set] = read_input("kube-apiserver --emulated-version\n", "input.txt").flag_sets
    [error] = flag_set.refused
    assert (pflag_error(error), str(error.where)) == ("flag needs an argument: --emulated-version", "input.txt line 1")


def test_kubelet_is_refused_with_a_reason():
    reading = read_input("/usr/bin/kubelet --feature-gates=Foo=true --config=/var/lib/kubelet/config.yaml\n", "kubelet.txt")
    with pytest.raises(InspectError, match=r"kubelet\.txt line 1: the kubelet takes no --emulated-version"):
        combine_readings([reading])


# --- static pod, kubeadm, kind ------------------------------------------------------------------

def test_static_pod_manifest():
    reading = read("kube-apiserver.yaml")
    assert [f.value for f in reading.binary] == ["v1.36.2"]
    assert flags(reading) == {
        "emulated-version": "1.34", "feature-gates": "ImageVolume=true",
        "service-account-issuer": "https://kubernetes.default.svc.cluster.local", "service-account-key-file": "/etc/kubernetes/pki/sa.pub",
        "service-account-signing-key-file": "/etc/kubernetes/pki/sa.key", "service-cluster-ip-range": "10.96.0.0/12",
    }
    [emulated] = reading.flag_sets[0].facts("emulated-version")
    assert str(emulated.where) == "kube-apiserver.yaml line 19"


def test_static_pod_args_and_separate_values():
    text = (
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: kube-scheduler\nspec:\n  containers:\n"
        "  - name: kube-scheduler\n    image: registry.k8s.io/kube-scheduler:v1.35.1\n"
        "    command: [kube-scheduler]\n    args:\n    - --emulated-version\n    - \"1.33\"\n    - --min-compatibility-version=1.32\n"
    )
    reading = read_input(text, "kube-scheduler.yaml")
    assert flags(reading, "kube-scheduler") == {"emulated-version": "1.33", "min-compatibility-version": "1.32"}
    assert reading.flag_sets[0].facts("emulated-version")[0].where.line == 11


def test_kubeadm_v1beta3_map_and_v1beta4_list():
    v3 = read("kubeadm-v1beta3.yaml")
    assert [f.value for f in v3.binary] == ["v1.32.4"]
    assert flags(v3) == {"emulated-version": "1.31", "feature-gates": "APIServerTracing=false"}
    assert flags(v3, "kube-scheduler") == {"emulated-version": "1.31"}
    v4 = read("kubeadm-v1beta4.yaml")
    assert flags(v4, "kube-controller-manager") == {"emulated-version": "1.34", "min-compatibility-version": "1.33"}
    assert flags(v4) == {"emulated-version": "1.34", "min-compatibility-version": "1.33", "feature-gates": "ImageVolume=true"}


def test_kubeadm_wrong_extra_args_shape_is_named():
    text = (SAMPLES / "kubeadm-v1beta4.yaml").read_text().replace(
        "  extraArgs:\n  - name: emulated-version\n    value: \"1.34\"\n  - name: min-compatibility-version\n    value: \"1.33\"\n  - name: feature-gates\n    value: ImageVolume=true\n",
        "  extraArgs:\n    emulated-version: \"1.34\"\n", 1)
    message = refused(text, "kubeadm.yaml")
    assert message.startswith("kubeadm.yaml line 14:") and "list of name/value in kubeadm v1beta4" in message
    assert "v1beta2 is not read" in refused(text.replace("v1beta4", "v1beta2"), "kubeadm.yaml")


def test_kind_cluster():
    reading = read("kind-cluster.yaml")
    assert [f.value for f in reading.binary] == ["v1.33.1"]  # the control-plane node only
    assert flags(reading) == {"feature-gates": "APIServerTracing=false", "runtime-config": "api/alpha=false", "emulated-version": "1.32"}
    assert flags(reading, "kube-scheduler") == {"feature-gates": "APIServerTracing=false", "emulated-version": "1.32"}
    combined = combine_readings([reading])
    assert (combined.binary, combined.emulated) == ("v1.33.1", ("1.32",))


# --- /version and /metrics ----------------------------------------------------------------------

def test_version_132_has_no_emulation_fields():
    reading = read("version-1.32.0.json")
    assert [f.value for f in reading.binary] == ["v1.32.0"] and reading.emulated == () and reading.min_compat == ()


def test_version_133_plus_emulation_fields():
    reading = read("version-1.36.2-emulating-1.34.json")
    assert [f.value for f in reading.emulated] == ["1.34"] and [f.value for f in reading.min_compat] == ["1.33"]
    assert str(reading.emulated[0].where) == "version-1.36.2-emulating-1.34.json line 5"


def test_metrics_generated_sample():
    reading = read_input(metrics_text("v1.32.0", "1.31"), "metrics.txt")
    by_name = {g.name: g for g in reading.observed}
    assert [f.value for f in reading.binary] == ["v1.32.0"]
    assert by_name["AllAlpha"].stage == "ALPHA" and not by_name["AllAlpha"].enabled
    assert by_name["APIListChunking"].stage == ""  # GA: the empty stage label
    assert by_name["APIServerTracing"].stage == "BETA" and by_name["APIServerTracing"].enabled


def test_metrics_labels_in_any_order_and_escapes():
    text = 'kubernetes_feature_enabled{stage="BETA",name="Odd\\"Name"} 1\n'
    [gate] = read_input(text, "m.txt").observed
    assert (gate.name, gate.stage, gate.enabled) == ('Odd"Name', "BETA", True)


@pytest.mark.parametrize("line,expected", [
    ('kubernetes_feature_enabled{name="X",stage="BETA"} 2', "m.txt line 2: kubernetes_feature_enabled is 1 or 0, found 2"),
    ('kubernetes_feature_enabled{name="X",stage="GAMMA"} 1', "m.txt line 2: unknown stage 'GAMMA'"),
    ('kubernetes_feature_enabled{name="X"} 1', "m.txt line 2: kubernetes_feature_enabled without the name and stage labels"),
    ('kubernetes_feature_enabled{name="X",stage="BETA" 1', "m.txt line 2: not a Prometheus sample line"),
])
def test_bad_metrics_lines_are_named(line, expected):
    assert refused("# TYPE kubernetes_feature_enabled gauge\n" + line + "\n", "m.txt").startswith(expected)


def test_metrics_contradiction_names_both_lines():
    text = 'kubernetes_feature_enabled{name="X",stage="BETA"} 1\nkubernetes_feature_enabled{name="X",stage="BETA"} 0\n'
    assert refused(text, "m.txt") == "m.txt line 2: X contradicts m.txt line 1 (a /metrics of two different servers?)"


# --- hostile input ------------------------------------------------------------------------------

def test_huge_input():
    assert refused(b"a" * (MAX_INPUT_BYTES + 1), "big.txt").startswith("big.txt: 33,554,433 bytes, larger than the limit")


def test_binary_and_not_utf8():
    assert refused(b"\x7fELF\x02\x01\x00\x00", "kube-apiserver") == "kube-apiserver: an executable (ELF), not text"
    assert refused(b"\x01\x02\x00\x00\x03", "blob") == "blob: binary data (NUL bytes), not a text file"
    assert refused(b"kube-apiserver \xff\xfe", "x.txt") == "x.txt: not UTF-8 text (byte 15)"


def test_alias_bomb_is_refused_before_expansion():
    bomb = "apiVersion: v1\nkind: Pod\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
    message = refused(bomb, "bomb.yaml")
    assert message.startswith("bomb.yaml: anchors and aliases are not allowed (line 3")


def test_huge_yaml_document_is_refused():
    text = "apiVersion: v1\nkind: Pod\nmetadata:\n  annotations:\n    a: '" + "x" * (1024 * 1024 + 10) + "'\n"
    assert "larger than the limit" in refused(text, "pod.yaml")


@pytest.mark.parametrize("text,expected", [
    ("apiVersion: apps/v1\nkind: Deployment\n", "d.yaml line 1: unsupported document (apiVersion 'apps/v1', kind 'Deployment')"),
    ("kind: Pod\napiVersion: v1\nspec:\n  containers:\n  - name: nginx\n    image: nginx:1.27\n", "d.yaml line 1: no container runs kube-apiserver"),
    ("apiVersion: v1\nkind: Pod\nspec: 3\n", "d.yaml line 1: Pod has no spec.containers list"),
    ("kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nfeatureGates: [a]\n", "d.yaml line 3: featureGates must map gate names to true or false"),
    ("---\n- op: add\n  path: /spec/containers/0/command/-\n  value: --emulated-version=1.31\n", "d.yaml line 2: a JSON patch, but for which component?"),
    ("# kubeadm config\n---\nkind: [1, 2\n---\napiVersion: v1\n", "d.yaml: not valid YAML (line "),  # libyaml marks line 4, PyYAML line 3
])
def test_wrong_kinds_get_clear_messages(text, expected):
    assert refused(text, "d.yaml").startswith(expected)


def test_json_that_is_not_version():
    assert refused('{"kind": "Status"}', "v.json") == "v.json: an API error (Status), not a /version response"
    assert refused('{"apiVersion": "v1"}', "v.json") == "v.json: a JSON object without gitVersion: not a /version response"
    assert refused('{"gitVersion": "v1.33.0",\n "emulationMajor": 1}', "v.json") == "v.json line 2: /version field emulationMajor must be a string"
    assert refused("{" * 100_000, "v.json").startswith("v.json")


def test_unknown_text():
    assert refused("hello world\n", "notes.txt").startswith("notes.txt: no command line of kube-apiserver")


def test_two_components_are_refused():
    api = read("kube-apiserver.yaml")
    sched = read_input("kube-scheduler --emulated-version=1.34\n", "sched.txt")
    with pytest.raises(InspectError, match=r"more than one component \(kube-apiserver in kube-apiserver.yaml line 14, kube-scheduler in sched.txt line 1\)"):
        combine_readings([api, sched])


def test_version_reported_against_flags():
    version = read("version-1.36.2-emulating-1.34.json")
    flag = read_input("kube-apiserver --emulated-version=1.35\n", "ps.txt")
    combined = combine_readings([version, flag])  # a disagreement to report, not unusable input
    assert combined.emulated == ("1.35",)
    # both versions from the flags: min compatibility is the default for --emulated-version=1.35 (1.34),
    # never the 1.33 /version reports for the other emulated version
    assert combined.min_compat == () and combined.sources["minCompatibility"] == "default: derived from the emulated version"
    emulation, min_compat = combined.disagreements
    assert "emulationMajor 1, emulationMinor 34 but the flags give emulated 1.35 (ps.txt line 1: --emulated-version=1.35)" in emulation
    assert "minCompatibilityMajor 1, minCompatibilityMinor 33 but the flags give min compatibility 1.34" in min_compat
    assert json.loads((SAMPLES / "version-1.36.2-emulating-1.34.json").read_text())["gitVersion"] == "v1.36.2"
