"""Inputs that are not what they seem: YAML scalars typed as Go's decoders type them (kubeadm, the
kubelet), /metrics and /version that contradict themselves, an endpoint's answer in another
format, files in UTF-16 or gzip, and versions that name no release. Each hostile input is a file
under tests/samples/hostile/."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspect_samples import SAMPLES

from kcompat.core.errors import KcompatError
from kcompat.core.inspect import InspectError, combine_readings, read_input
from kcompat.core.inspect.messages import no_emulated_version
from kcompat.core.safe_yaml import GoScalar, go_resolve, read_yaml_text
from kcompat.core.text_input import decode_input

HOSTILE = SAMPLES.parent / "hostile"


def read(name, expected=None):
    return read_input((HOSTILE / name).read_bytes(), name, expected=expected)


def refused(name, expected=None):
    with pytest.raises(InspectError) as exc:
        read(name, expected)
    return str(exc.value)


# --- YAML typed as go-yaml v2 types it ---------------------------------------------------------------

@pytest.mark.parametrize("text,kind,value", [
    ("1.30", "number", 1.3), ("1", "number", 1), ("017", "number", 15), ("0x1F", "number", 31), ("1e3", "number", 1000.0),
    ("1_000", "number", 1000), (".5", "number", 0.5), ("true", "bool", True), ("y", "bool", True), ("off", "bool", False),
    ("~", "null", None), ("", "null", None), ("v1.30", "str", "v1.30"), ("1:30", "str", "1:30"), ("2024-01-02", "str", "2024-01-02"),
    ("1.30.2", "str", "1.30.2"), ("stable-1.36", "str", "stable-1.36"),
])
def test_go_yaml_resolution(text, kind, value):
    assert go_resolve(text) == (kind, value)


def test_the_safe_reader_keeps_how_a_go_number_was_written():
    doc = read_yaml_text('a: 1.30\nb: "1.30"\nc: yes\nd: !!str 1.30\ne: y\n', "t.yaml", go_scalars=True)
    assert doc == {"a": GoScalar("number", 1.3, "1.30", 1), "b": "1.30", "c": GoScalar("bool", True, "yes", 3), "d": "1.30",
                   "e": GoScalar("bool", True, "y", 5)}
    # without go_scalars the document is PyYAML's own (manifests and data files are unchanged)
    assert read_yaml_text("a: 1.30\ne: y\n", "t.yaml") == {"a": 1.3, "e": "y"}


@pytest.mark.parametrize("name,expected", [
    ("kubeadm-unquoted-version.yaml",
     "kubeadm-unquoted-version.yaml line 7: kubeadm refuses this config: json: cannot unmarshal number into Go struct field "
     "APIServer.apiServer.ControlPlaneComponent.extraArgs of type string (emulated-version: 1.30: unquoted, YAML reads 1.30 as "
     "the number 1.3: write \"1.30\" in quotes)"),
    ("kubeadm-v1beta4-boolean.yaml",
     "kubeadm-v1beta4-boolean.yaml line 8: kubeadm refuses this config: json: cannot unmarshal bool into Go struct field "
     "Arg.apiServer.ControlPlaneComponent.extraArgs.value of type string (value: true: unquoted, YAML reads true as a boolean: "
     "write \"true\" in quotes)"),
    ("kubeadm-kubernetes-version-number.yaml",
     "kubeadm-kubernetes-version-number.yaml line 3: kubeadm refuses this config: json: cannot unmarshal number into Go struct "
     "field ClusterConfiguration.kubernetesVersion of type string (kubernetesVersion: 1.30: unquoted, YAML reads 1.30 as the "
     "number 1.3: write \"1.30\" in quotes)"),
])
def test_kubeadm_refuses_what_its_types_refuse(name, expected):
    assert refused(name) == expected


def test_kubeadm_null_is_an_empty_string_as_go_decodes_it():
    text = "apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nkubernetesVersion: v1.33.1\napiServer:\n  extraArgs:\n    feature-gates:\n"
    [flag_set] = [s for s in read_input(text, "k.yaml").flag_sets if s.component == "kube-apiserver"]
    assert [(n, f.value) for n, f in flag_set.flags] == [("feature-gates", "")]


@pytest.mark.parametrize("field,value,struct", [
    ("command", "[kube-apiserver, 1.30]", "Container.spec.containers.command"),
    ("args", "[--x, true]", "Container.spec.containers.args"),
])
def test_the_kubelet_refuses_a_static_pod_with_a_number_in_a_string_list(field, value, struct):
    text = f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: kube-apiserver\nspec:\n  containers:\n  - name: kube-apiserver\n    {field}: {value}\n"
    with pytest.raises(InspectError) as exc:
        read_input(text, "pod.yaml")
    assert str(exc.value).startswith("pod.yaml line 8: the kubelet would not run this static pod: couldn't parse as pod(json: cannot unmarshal")
    assert f"into Go struct field {struct} of type string)" in str(exc.value)


def test_an_unquoted_env_value_is_refused_like_the_kubelet_does():
    text = (HOSTILE / "pod-env-var.yaml").read_text().replace('value: "1.34"', "value: 1.34")
    with pytest.raises(InspectError, match=r"pod.yaml line 18: the kubelet would not run this static pod: couldn't parse as pod\(json: "
                       r"cannot unmarshal number into Go struct field EnvVar.spec.containers.env.value of type string\)"):
        read_input(text, "pod.yaml")


def test_a_bad_kind_feature_gate_is_named_at_its_line():
    assert refused("kind-bad-feature-gate.yaml") == (
        "kind-bad-feature-gate.yaml line 9: featureGates must map gate names to true or false, found JobManagedBy: a string"
    )


# --- /metrics and /version that contradict themselves -----------------------------------------------

def test_two_build_info_series_are_a_contradiction():
    assert refused("metrics-two-build-info.txt") == (
        "metrics-two-build-info.txt line 4: kubernetes_build_info git_version v1.33.0 contradicts metrics-two-build-info.txt "
        "line 3 (v1.36.5): a /metrics of two different servers?"
    )


def test_the_same_build_info_twice_is_not():
    text = (HOSTILE / "metrics-two-build-info.txt").read_text().replace('git_version="v1.33.0"', 'git_version="v1.36.5"')
    assert [f.value for f in read_input(text, "m.txt").binary] == ["v1.36.5"]


def test_a_version_minor_that_contradicts_git_version():
    assert refused("version-minor-contradicts.json") == (
        'version-minor-contradicts.json line 3: /version minor "31" contradicts gitVersion v1.33.4 '
        "(version-minor-contradicts.json line 8): an edited /version, or the answers of two servers pasted together?"
    )


def test_a_providers_minor_with_a_plus_is_the_same_minor():
    text = (HOSTILE / "version-minor-contradicts.json").read_text().replace('"minor": "31"', '"minor": "33+"')
    assert [f.value for f in read_input(text, "v.json").binary] == ["v1.33.4"]


# --- each endpoint's format, from what it is ---------------------------------------------------------

def test_metrics_that_answers_version_json_is_named():
    assert refused("version-1.36.2-emulating-1.33.json", "/metrics") == (
        "version-1.36.2-emulating-1.33.json: given as /metrics, but this is /version JSON (gitVersion v1.36.2)"
    )
    assert read("version-1.36.2-emulating-1.33.json", "/version").kind == "/version"


def test_version_that_answers_metrics_text_is_named():
    assert refused("metrics-two-build-info.txt", "/version") == "metrics-two-build-info.txt: given as /version, but this is /metrics text"


def test_an_html_login_page_is_named():
    expected = "login.html: an HTML page (Sign in - Corporate SSO), not an answer of the API server: a login page or a proxy answered instead"
    assert refused("login.html") == expected
    assert refused("login.html", "/version") == expected.replace("login.html: an", "login.html: given as /version, but this is an")


def test_a_json_array_is_named():
    assert refused("versions-array.json") == "versions-array.json: a JSON array of 2 item(s), not a /version response (a JSON object with gitVersion)"


def test_a_systemd_unit_is_not_taken_for_a_json_array():
    assert read("kube-apiserver.service").kind == "command line"


# --- files that are not UTF-8 text ---------------------------------------------------------------------

def test_utf16_with_a_byte_order_mark_is_read():
    reading = read("version-utf16.json")
    assert reading.kind == "/version" and [f.value for f in reading.emulated] == ["1.34"]


def test_gzip_is_decompressed_within_the_limit():
    reading = read("metrics.txt.gz")
    assert reading.kind == "/metrics" and [f.value for f in reading.binary] == ["v1.36.0"]


def test_a_gzip_bomb_is_stopped_at_the_limit():
    import gzip

    bomb = gzip.compress(b"a" * 2_000_000)
    with pytest.raises(KcompatError, match="gzip-compressed, and it decompresses to more than the limit of 1,000,000 bytes"):
        decode_input(bomb, "bomb.gz", 1_000_000)


@pytest.mark.parametrize("data,expected", [
    ("kube-apiserver --x\n".encode("utf-16-le"), "t: UTF-16LE text without a byte-order mark: save it as UTF-8 (iconv -f UTF-16LE -t UTF-8)"),
    (b"\x1f\x8b\x08\x00broken", "t: gzip-compressed, but cut short"),
    (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xff\xff\xff\xff", "t: gzip-compressed, but the data is damaged"),
    (b"PK\x03\x04zip", "t: a zip archive: extract the file first"),
    (b"\xfd7zXZ\x00\x00", "t: xz-compressed: decompress it first (unxz)"),
    (b"\x89PNG\r\n\x1a\n", "t: a PNG image, not text"),
])
def test_binary_files_are_named_by_what_they_are(data, expected):
    with pytest.raises(KcompatError) as exc:
        decode_input(data, "t", 1_000_000)
    assert str(exc.value).startswith(expected)


# --- versions that name no release ---------------------------------------------------------------------

@pytest.mark.parametrize("name,why", [
    ("pod-image-latest.yaml", "pod-image-latest.yaml line 9: image registry.k8s.io/kube-apiserver:latest: the tag latest moves from release to release: it names none"),
    ("pod-image-digest.yaml", "an image by digest alone names no release"),
    ("kubeadm-stable.yaml", "kubeadm-stable.yaml line 3: kubernetesVersion: stable: kubeadm resolves stable from dl.k8s.io when it runs"),
])
def test_no_binary_version_says_why_the_one_given_cannot_be_used(name, why):
    with pytest.raises(InspectError) as exc:
        combine_readings([read(name)])
    [problem] = exc.value.problems
    assert problem.startswith("no binary version in the inputs: ") and why in problem


def test_a_kubeadm_stable_label_with_a_minor_names_that_release():
    result = combine_readings([read("kubeadm-stable-label.yaml")])
    assert (result.binary, result.emulated) == ("1.36", ("1.34",))
    assert result.sources["binary"].endswith("kubernetesVersion: stable-1.36 (the newest 1.36 patch when kubeadm ran)")


def test_an_unusable_image_beside_a_version_is_a_warning():
    result = combine_readings([read("pod-image-latest.yaml"), read_input((SAMPLES / "version-1.36.2-emulating-1.34.json").read_bytes(), "v.json")])
    assert result.binary == "v1.36.2"
    assert any(w.endswith("the tag latest moves from release to release: it names none; not used for the binary") for w in result.warnings)


# --- the emulated version nobody shows ---------------------------------------------------------------------

def test_no_emulated_version_message_reads_right_for_each_release():
    assert no_emulated_version("1.32", False, True).startswith(
        "no input shows the emulated version (a 1.32 server's /version does not report it; from 1.33 on it does)"
    )
    assert "which a 1.36 server reports (an edited or cut /version?)" in no_emulated_version("1.36", True, True)
    assert no_emulated_version("1.36", True, False).startswith("no input shows the emulated version: assumed the binary's own release (1.36)")
    for text in (no_emulated_version("1.36", True, True), no_emulated_version("1.36", True, False)):
        assert "before 1.33" not in text


def test_metrics_alone_warns_without_garbling_the_release():
    result = combine_readings([read("metrics.txt.gz")])
    [warning] = [w for w in result.warnings if "emulated version" in w]
    assert warning == no_emulated_version("1.36", True, False)
