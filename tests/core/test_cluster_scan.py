"""kcompat.core.cluster_scan: the last-applied annotation, Helm 3's release encoding, the tally's bounds."""

import base64
import gzip
import json

import pytest

from kcompat.core.cluster_scan import (
    MAX_EXAMPLES,
    MAX_HELM_RELEASE_BYTES,
    Tally,
    decode_helm_release,
    last_applied_type,
)
from kcompat.core.errors import KcompatError


def test_last_applied_type():
    assert last_applied_type('{"apiVersion":"apps/v1","kind":"Deployment","metadata":{}}') == ("apps/v1", "Deployment")
    assert last_applied_type('{"apiVersion":"v1","kind":"ConfigMap"}') == ("v1", "ConfigMap")
    for text in ("", "not json", "[]", '{"kind":"Deployment"}', '{"apiVersion":"a/b/c","kind":"X"}', '{"apiVersion":1,"kind":"X"}',
                 "[" * 100_000):
        assert last_applied_type(text) is None


def _release(status="deployed", manifest="apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: x, namespace: y}\n",
             compress=True):
    data = json.dumps({"name": "web", "namespace": "shop", "version": 4, "info": {"status": status}, "manifest": manifest}).encode()
    return base64.b64encode(gzip.compress(data) if compress else data).decode()


def test_helm_release_decoded_gzip_or_not():
    for compress in (True, False):
        release = decode_helm_release(_release(compress=compress), "Secret", "shop/sh.helm.release.v1.web.v4")
        assert (release.name, release.namespace, release.revision, release.status) == ("web", "shop", 4, "deployed")
        assert [(o.api_version, o.kind, o.name) for o in release.objects] == [("policy/v1beta1", "PodDisruptionBudget", "x")]
        assert release.label == "shop/web revision 4" and release.problem is None


def test_helm_release_not_deployed_keeps_no_objects():
    release = decode_helm_release(_release(status="superseded"), "ConfigMap", "shop/x")
    assert release.status == "superseded" and release.objects == ()


def test_helm_release_manifest_problem_is_kept():
    release = decode_helm_release(_release(manifest="a: [unclosed"), "Secret", "shop/x")
    assert release.objects == () and release.problem and "Helm release shop/web revision 4" in release.problem


@pytest.mark.parametrize(("data", "message"), [
    ("%%%", "not base64"),
    (base64.b64encode(b"\x1f\x8b\x08garbage").decode(), "corrupt gzip"),
    (base64.b64encode(b"{}").decode(), "no name, namespace and version"),
    (base64.b64encode(b"[1]").decode(), "not a JSON object"),
    (base64.b64encode(gzip.compress(b" " * (MAX_HELM_RELEASE_BYTES + 10))).decode(), "larger than"),
])
def test_helm_release_refused(data, message):
    with pytest.raises(KcompatError, match=message):
        decode_helm_release(data, "Secret", "shop/x")


def test_tally_keeps_counts_and_few_names():
    tally = Tally()
    applied = json.dumps({"apiVersion": "extensions/v1beta1", "kind": "Ingress"})
    for i in range(1000):
        tally.add("ingresses.networking.k8s.io", {"name": f"i{i}", "namespace": "web",
                                                  "annotations": {"kubectl.kubernetes.io/last-applied-configuration": applied}})
    tally.add("configmaps", "not a mapping")
    (found,) = tally.applied_versions()
    assert (found.api_version, found.kind, found.objects) == ("extensions/v1beta1", "Ingress", 1000)
    assert len(found.examples) == MAX_EXAMPLES and found.examples[0] == "ingresses.networking.k8s.io web/i0"
    assert tally.objects == 1001
