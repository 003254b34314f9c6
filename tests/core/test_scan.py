"""Manifests against an emulated control plane (kcompat/core/scan.py): reading every shape of
input with its lines, refusing hostile input, and each object's answer on the bundled data."""

from pathlib import Path

import pytest

from kcompat.answers.scan import scan
from kcompat.core.errors import KcompatError
from kcompat.core.request import Request
from kcompat.core.scan import (
    MAX_SCAN_BYTES,
    MAX_SCAN_DOCUMENTS,
    MAX_SCAN_VALUES,
    read_manifests,
)

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "scan"


def sample(name):
    return (SAMPLES / name).read_bytes()


def test_rendered_helm_output_with_its_templates_and_lines():
    reading = read_manifests(sample("helm-render.yaml"), "render.yaml")
    assert reading.format == "YAML" and reading.documents == 7  # the empty rendered template is no document of its own
    got = [(o.api_version, o.kind, o.name, o.line, o.template) for o in reading.objects]
    assert got[:3] == [
        ("v1", "ServiceAccount", "web", 3, "web/templates/serviceaccount.yaml"),
        ("extensions/v1beta1", "Ingress", "web", 9, "web/templates/ingress.yaml"),
        ("autoscaling/v2beta2", "HorizontalPodAutoscaler", "web", 19, "web/templates/hpa.yaml"),
    ]
    assert got[3] == ("apps/v1", "Deployment", "web", 30, "web/templates/deployment.yaml")
    assert reading.objects[1].namespace == "shop" and reading.objects[1].where == "render.yaml line 9 (web/templates/ingress.yaml)"


def test_a_document_without_a_source_comment_has_no_template():
    reading = read_manifests("# Source: a/templates/x.yaml\napiVersion: v1\nkind: A\n---\napiVersion: v1\nkind: B\n", "x.yaml")
    assert [(o.kind, o.line, o.template) for o in reading.objects] == [("A", 2, "a/templates/x.yaml"), ("B", 5, None)]


def test_kubectl_list_and_json_arrays():
    listed = read_manifests(sample("kubectl-list.json"), "list.json")
    assert listed.format == "JSON"
    assert [(o.kind, o.name, o.namespace, o.line) for o in listed.objects] == [
        ("ConfigMap", "settings", "default", 4), ("CronJob", "nightly", "default", 9),
    ]
    array = read_manifests(sample("array.json"), "array.json")
    assert [(o.api_version, o.line) for o in array.objects] == [("policy/v1beta1", 2), ("policy/v1", 3)]
    # a YAML List as kubectl get -o yaml writes it
    yaml_list = read_manifests("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Secret\n  metadata: {name: s}\n", "l.yaml")
    assert [(o.kind, o.line) for o in yaml_list.objects] == [("Secret", 4)]


def test_custom_resource_definitions_are_read():
    reading = read_manifests(sample("crd-and-widgets.yaml"), "crd.yaml")
    (crd,) = reading.definitions
    assert (crd.group, crd.kind, crd.versions, crd.line) == ("example.com", "Widget", (("v1", True), ("v1beta1", False)), 1)


@pytest.mark.parametrize(
    "text, problem",
    [
        ("a: &x [1]\nb: *x\n", "anchors and aliases are not allowed"),
        ("apiVersion: v1\nkind: A\nkind: B\n", "duplicate key 'kind'"),
        ("a: " + "[" * 100 + "]" * 100 + "\n", "nested too deeply"),
        ("apiVersion: v1\nmetadata: {name: x}\n", "x.yaml line 1: no kind (a string): not a Kubernetes object"),
        ("- just\n- words\n", "x.yaml line 1: expected a Kubernetes object"),
        ("apiVersion: a/b/c\nkind: X\n", "is not group/version or version"),
        ("apiVersion: v1\nkind: [1]\n", "no kind"),
        ("key: 'unterminated\n", "not valid YAML"),
        ("# only a comment\n---\n---\n", "x.yaml: no Kubernetes object in it"),  # a CI scan of nothing does not pass
        ("", "x.yaml: no Kubernetes object in it"),
    ],
)
def test_input_that_is_no_manifest_is_refused_with_its_line(text, problem):
    with pytest.raises(KcompatError, match=problem.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        read_manifests(text, "x.yaml")


def test_hostile_inputs_are_refused_before_they_cost_anything():
    with pytest.raises(KcompatError, match="binary data"):
        read_manifests(b"apiVersion: v1\x00kind: A", "x.bin")
    with pytest.raises(KcompatError, match="not UTF-8"):
        read_manifests(b"kind: \xff\xfe", "x.yaml")
    with pytest.raises(KcompatError, match=f"larger than the limit of {MAX_SCAN_BYTES:,} bytes"):
        read_manifests(b"#" * (MAX_SCAN_BYTES + 1), "big.yaml")
    with pytest.raises(KcompatError, match=f"more than {MAX_SCAN_DOCUMENTS:,} YAML documents"):
        read_manifests("---\napiVersion: v1\nkind: A\n" * (MAX_SCAN_DOCUMENTS + 1), "many.yaml")
    with pytest.raises(KcompatError, match=f"more than {MAX_SCAN_VALUES:,} YAML values"):
        read_manifests("apiVersion: v1\nkind: A\nx: [" + ",".join(["1"] * MAX_SCAN_VALUES) + "]\n", "dense.yaml")
    # a billion-laughs bomb is refused at its first anchor, never expanded
    bomb = "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(f"{c}: &{c} [{',' .join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=False))
    with pytest.raises(KcompatError, match="anchors and aliases"):
        read_manifests(bomb, "bomb.yaml")


# ---------------------------------------------------------------------------------------------
# Each object's answer, on the bundled data


@pytest.fixture(scope="module")
def helm_133_at_131(catalog):
    return {c.object.line: c for c in scan(catalog, Request("1.33", "1.31"), [("render.yaml", sample("helm-render.yaml"))]).checks}


def test_why_and_the_nearest_served_version(helm_133_at_131):
    c = helm_133_at_131
    assert (c[3].status, c[3].resource) == ("served", "serviceaccounts")
    # extensions/v1beta1 Ingress: removed in 1.22 (its lifecycle); the data names networking.k8s.io/v1 Ingress
    ingress = c[9]
    assert (ingress.status, ingress.why, ingress.resource) == ("not served", "removed", "ingresses")
    assert ingress.reason.startswith("removed in 1.22, at or before the emulated version 1.31")
    assert ingress.nearest_text == "networking.k8s.io/v1 Ingress (the replacement the data names)"
    # autoscaling/v2beta2 HPA: removed in 1.26 -> autoscaling/v2
    assert (c[19].why, c[19].nearest) == ("removed", "autoscaling/v2")
    # networking.k8s.io/v1 ServiceCIDR: introduced in 1.33, after the emulated 1.31 (SPEC example 8); its v1beta1
    # is off by default, so no version of it is served
    assert (c[38].why, c[38].reason, c[38].nearest) == ("not-introduced", "introduced in 1.33, after the emulated version 1.31", None)
    # flowcontrol v1beta3: served by a real 1.31, but off by default in the 1.33 binary's lists
    assert c[46].why == "off-by-default" and "--runtime-config=flowcontrol.apiserver.k8s.io/v1beta3=true" in c[46].reason
    assert c[46].nearest == "flowcontrol.apiserver.k8s.io/v1"
    assert (c[52].status, c[52].why) == ("not checked", "not-built-in")


def test_the_selection_changes_the_answer(catalog):
    text = sample("helm-render.yaml")
    # --runtime-config serves networking.k8s.io/v1beta1 ServiceCIDR: the nearest version of the v1 object
    checks = {c.object.line: c for c in scan(catalog, Request("1.33", "1.31", runtime_config="networking.k8s.io/v1beta1=true"), [("r", text)]).checks}
    assert checks[38].nearest_text == "networking.k8s.io/v1beta1 ServiceCIDR (a served version of ServiceCIDR in networking.k8s.io)"
    # not emulating, ServiceCIDR v1 is served by 1.33; disabling its group/version with --runtime-config is said so
    native = {c.object.line: c for c in scan(catalog, Request("1.33"), [("r", text)]).checks}
    assert native[38].status == "served"
    off = {c.object.line: c for c in scan(catalog, Request("1.33", runtime_config="networking.k8s.io/v1=false"), [("r", text)]).checks}
    assert (off[38].status, off[38].why) == ("not served", "disabled-by-runtime-config")
    # a kind whose REST storage is gated: ClusterTrustBundle is off by default in 1.36
    ctb = "apiVersion: certificates.k8s.io/v1beta1\nkind: ClusterTrustBundle\nmetadata: {name: b}\n"
    (check,) = scan(catalog, Request("1.36", runtime_config="certificates.k8s.io/v1beta1=true"), [("ctb.yaml", ctb)]).checks
    assert (check.status, check.why) == ("not served", "gate-off") and "ClusterTrustBundle" in check.reason
    (check,) = scan(catalog, Request("1.36", runtime_config="certificates.k8s.io/v1beta1=true", feature_gates="ClusterTrustBundle=true"), [("ctb.yaml", ctb)]).checks
    assert check.status == "served"


def test_a_kind_the_binary_no_longer_has_is_found_in_the_lifecycle(catalog):
    # autoscaling/v2beta1 is not in the 1.36 API data at all: the lifecycle of the bundled releases says why
    hpa = "apiVersion: autoscaling/v2beta1\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\n"
    (check,) = scan(catalog, Request("1.36"), [("hpa.yaml", hpa)]).checks
    assert (check.why, check.reason) == ("removed", "removed in 1.25: a 1.36 binary no longer has autoscaling/v2beta1 HorizontalPodAutoscaler")
    assert check.nearest_text == "autoscaling/v2 HorizontalPodAutoscaler (the replacement the data names)"
    # a version of a built-in group that never existed
    (check,) = scan(catalog, Request("1.36"), [("x.yaml", "apiVersion: apps/v9\nkind: Deployment\n")]).checks
    assert (check.status, check.why, check.nearest) == ("not served", "unknown-version", "apps/v1")
    # a body kind of a group/version the binary has is no object
    (check,) = scan(catalog, Request("1.36"), [("x.yaml", "apiVersion: autoscaling/v1\nkind: Scale\n")]).checks
    assert check.why == "not-a-resource"


def test_a_crd_of_the_input_is_recognised(catalog):
    checks = scan(catalog, Request("1.36"), [("crd.yaml", sample("crd-and-widgets.yaml"))]).checks
    crd, good, old = checks
    assert crd.status == "served"  # apiextensions.k8s.io/v1 in the 1.36 data
    assert (good.status, good.why) == ("not checked", "custom-resource") and "crd.yaml line 1" in good.reason
    assert (old.status, old.why, old.nearest) == ("not served", "custom-resource-version", "example.com/v1")
    # the same custom resources without their definition: not built in, not checked
    widgets = b"---".join(sample("crd-and-widgets.yaml").split(b"---")[1:])
    assert {c.why for c in scan(catalog, Request("1.36"), [("w.yaml", widgets)]).checks} == {"not-built-in"}


def test_exit_status(catalog):
    served = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n"
    assert scan(catalog, Request("1.36"), [("ok.yaml", served)]).exit_status == 0
    assert scan(catalog, Request("1.36"), [("ok.yaml", served), ("crd.yaml", "apiVersion: x.io/v1\nkind: X\n")]).exit_status == 0
    assert scan(catalog, Request("1.36"), [("old.yaml", "apiVersion: extensions/v1beta1\nkind: Ingress\n")]).exit_status == 1
    refused = scan(catalog, Request("1.36", "1.30"), [("ok.yaml", served)])
    assert refused.exit_status == 2 and refused.errors[0].startswith("emulation version 1.30 is not between")
    unusable = scan(catalog, Request("1.36"), [("ok.yaml", served), ("bad.yaml", "a: &x 1\n")])
    assert unusable.exit_status == 2 and [i.problem for i in unusable.inputs][1].startswith("bad.yaml: anchors")
    assert len(unusable.checks) == 1  # the other input is still checked
