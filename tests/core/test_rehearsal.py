"""The rollback rehearsal's pure parts: the corpus builder, the templates, the judgement of a
recording and the plan citing it (kcompat.core.rehearsal, kcompat.core.plan.cite_rehearsals)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kcompat.core.rehearsal import (
    LABEL,
    NAMESPACE,
    PHASES,
    ServedResource,
    build_corpus,
    judge,
    served_from_discovery,
    template_keys,
    template_object,
)

ROOT = Path(__file__).resolve().parents[2]
CRUD = frozenset({"create", "get", "list", "update", "delete"})


def _served(group: str, version: str, resource: str, kind: str, namespaced: bool = True, verbs: frozenset[str] = CRUD) -> ServedResource:
    return ServedResource(group, version, resource, kind, namespaced, verbs)


def test_corpus_has_one_entry_per_stored_kind_in_the_template_version():
    served = [
        _served("autoscaling", "v1", "horizontalpodautoscalers", "HorizontalPodAutoscaler"),
        _served("autoscaling", "v2", "horizontalpodautoscalers", "HorizontalPodAutoscaler"),
        _served("", "v1", "configmaps", "ConfigMap"),
        _served("", "v1", "pods/status", "Pod"),
        _served("", "v1", "pods", "Pod"),
    ]
    corpus = build_corpus(served)
    assert [e.key for e in corpus.entries] == ["autoscaling/HorizontalPodAutoscaler", "core/ConfigMap", "core/Pod"]
    hpa = corpus.entries[0]
    assert hpa.resource.api_version == "autoscaling/v2"  # the template's version, though v1 is listed first
    assert hpa.path("x") == f"/apis/autoscaling/v2/namespaces/{NAMESPACE}/horizontalpodautoscalers/x"
    assert hpa.object(3)["apiVersion"] == "autoscaling/v2"
    assert corpus.no_template == () and corpus.not_stored == ()


def test_corpus_names_kinds_without_a_template_and_kinds_not_stored():
    served = [
        _served("example.io", "v1", "widgets", "Widget", namespaced=False),
        _served("authorization.k8s.io", "v1", "subjectaccessreviews", "SubjectAccessReview", False, frozenset({"create"})),
        _served("", "v1", "namespaces", "Namespace", namespaced=False),
    ]
    corpus = build_corpus(served, required=["example.io/Widget", "core/Namespace"])
    assert [e.key for e in corpus.entries] == ["core/Namespace"]
    assert corpus.entries[0].path() == "/api/v1/namespaces"  # cluster-scoped: no namespace in the path
    assert corpus.no_template == ("example.io/Widget",)
    assert corpus.not_stored == ("authorization.k8s.io/SubjectAccessReview",)
    assert corpus.missing_required == ("example.io/Widget",)
    doc = corpus.document()
    assert doc["noTemplate"] == ["example.io/Widget"] and doc["resources"] == ["v1 namespaces"]


def test_corpus_of_a_recorded_discovery_leaves_no_stored_built_in_without_a_template():
    """Every stored resource a recorded kube-apiserver 1.36.5 serves at its own version has a template."""
    live = json.loads((ROOT / "data" / "oracle" / "v1.36.5" / "live" / "1.36-1.36.json").read_text())
    corpus = build_corpus(served_from_discovery(live["discovery"]))
    assert corpus.no_template == ()
    assert len(corpus.entries) >= 55
    assert "core/Binding" in corpus.not_stored and "authentication.k8s.io/TokenReview" in corpus.not_stored


@pytest.mark.parametrize("key", template_keys())
def test_templates_are_distinct_objects_per_index(key):
    first, second = template_object(key, 0), template_object(key, 1)
    assert first["kind"] == key.split("/", 1)[1]
    assert first["metadata"]["name"] != second["metadata"]["name"]
    first.setdefault("metadata", {}).setdefault("labels", {})[LABEL] = "x"
    assert LABEL not in (template_object(key, 0)["metadata"].get("labels") or {})  # a fresh copy each time


def _recording(rollback_results, started=True, unsupported=None):
    phases = [{"name": name, "started": True, "results": []} for name, _, _ in PHASES]
    phases[2] = {"name": "rollback", "started": started, "results": rollback_results, "error": None if started else "exited with status 1"}
    if unsupported is not None:
        phases[4]["results"] = unsupported
    return {"from": "v1.35.8", "to": "v1.36.5", "fromMinor": "1.35", "toMinor": "1.36", "fromEmulated": "1.35", "phases": phases}


OK = {"resource": "v1 configmaps", "object": "a", "read": True, "decoded": True, "updated": True}
BAD = {"resource": "v1 secrets", "object": "b", "read": True, "decoded": False, "updated": False, "error": "decode: the answer is not the object"}


def test_judge_held_when_every_object_came_back():
    j = judge(_recording([OK, dict(OK, object="b")], unsupported=[OK, BAD]))
    assert j.held and (j.read, j.total) == (2, 2) and j.broken == ()
    assert j.summary == "rehearsed on v1.36.5 -> v1.35.8: 2 of 2 objects read back, decoded and updated"
    assert j.unsupported == (1, 2)


def test_judge_broken_by_one_object_or_a_server_that_did_not_start():
    j = judge(_recording([OK, BAD]))
    assert not j.held and j.broken == ("v1 secrets b: decode: the answer is not the object",)
    assert "THE PROMISE BROKE" in j.summary
    j = judge(_recording([], started=False))
    assert not j.held and "did not start" in j.broken[0]
    assert not judge(_recording([])).held  # nothing read back is no evidence
