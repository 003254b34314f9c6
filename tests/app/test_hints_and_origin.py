"""Hints beside the binary's errors and the gate origin (kube / client-go) on the pages:
the same answer as ``kcompat gates --format json``."""

import json

from conftest import open_app, texts

from kcompat.cli.main import main as kcompat


def cli_json(capsys, *argv):
    kcompat(["gates", *argv, "--format", "json"])
    return json.loads(capsys.readouterr().out)


def test_typo_shows_the_binarys_error_and_a_hint_beside_it(capsys):
    at = open_app(binary="1.36", feature_gates="JobManagdBy=true")
    doc = cli_json(capsys, "--binary", "1.36", "--feature-gates", "JobManagdBy=true")
    assert texts(at.error) == doc["errors"] == ["unrecognized feature gate: JobManagdBy"]
    assert texts(at.info)[: len(doc["hints"])] == ["JobManagdBy: did you mean JobManagedBy?"]
    assert doc["hints"][0]["names"] == ["JobManagedBy"]


def test_dependency_errors_each_get_their_fix(capsys):
    flags = "AllAlpha=true,AllBeta=false"
    at = open_app(binary="1.36", feature_gates=flags)
    doc = cli_json(capsys, "--binary", "1.36", "--feature-gates", flags)
    assert texts(at.error) == doc["errors"]
    shown = texts(at.info)
    assert [h["text"] for h in doc["hints"]] == shown[: len(doc["hints"])]
    assert (
        "PodLevelResourceManagers depends on PodLevelResources: enable PodLevelResources or set "
        "PodLevelResourceManagers=false (turned on by AllAlpha=true)"
    ) in shown


def test_client_go_gate_detail_says_where_it_comes_from(catalog):
    at = open_app("gate_detail", binary="1.36", emulated="1.33", gate="WatchListClient")
    markdown = " ".join(m.value for m in at.markdown)
    assert "client-go gate" in markdown
    releases = [d.value for d in at.dataframe][1]
    assert list(releases["listed"]) == [True] * len(catalog.usable_releases())
    assert list(releases["data"]) == [catalog.info(r).source_text for r in catalog.usable_releases()]
    at = open_app("gate_detail", binary="1.36", emulated="1.33", gate="JobManagedBy")
    assert "kube gate" in " ".join(m.value for m in at.markdown)
