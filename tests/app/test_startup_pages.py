"""kube-apiserver's start-up on the pages: its option refusals (red, with the remedies) beside the
gate and API ones, and the amber "starts but does not become ready" state, with the same lines
as ``kcompat gates`` / ``kcompat apis`` for the same flags."""

import json

from conftest import open_app, plain, texts

from kcompat.cli.main import main as kcompat


def cli(capsys, *argv):
    code = kcompat([*argv, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_the_gates_page_shows_kube_apiservers_option_refusal(capsys):
    gates = "AuthorizeNodeWithSelectors=true,AuthorizeWithSelectors=false"
    at = open_app("gates", binary="1.34", emulated="1.33", feature_gates=gates)
    code, document = cli(capsys, "gates", "--binary", "1.34", "--emulated", "1.33", "--feature-gates", gates)
    assert code == 2
    assert [plain(e) for e in texts(at.error)] == document["errors"] == [
        "AuthorizeNodeWithSelectors feature requires AuthorizeWithSelectors feature to be enabled"
    ]
    assert [plain(i) for i in texts(at.info)][: len(document["hints"])] == [h["text"] for h in document["hints"]]


def test_the_apis_page_reads_priority_and_fairness_with_runtime_config(capsys):
    at = open_app("apis", binary="1.37", emulated="1.37", runtime_config="api/all=false,api/v1=true")
    code, document = cli(capsys, "apis", "--binary", "1.37", "--runtime-config", "api/all=false,api/v1=true")
    assert code == 2 and document["errors"] == ["--runtime-config=api/all=false conflicts with --enable-priority-and-fairness=true"]
    assert [plain(e) for e in texts(at.error)] == document["errors"]
    assert any("add flowcontrol.apiserver.k8s.io/v1=true to --runtime-config" in plain(i) for i in texts(at.info))
    # the toggle off: kube-aggregator's refusal instead, and the URL keeps it
    at.toggle(key="apis_apf").set_value(False).run()
    assert [plain(e) for e in texts(at.error)] == ["API group/version apiregistration.k8s.io/v1 must be enabled"]
    assert at.query_params["enable_priority_and_fairness"] == "false"
    code, document = cli(capsys, "apis", "--binary", "1.37", "--runtime-config", "api/all=false,api/v1=true",
                         "--enable-priority-and-fairness=false")
    assert code == 2 and document["errors"] == ["API group/version apiregistration.k8s.io/v1 must be enabled"]


def test_the_plan_keeps_the_selections_gates_and_flags_the_steps_that_would_not_start(capsys):
    gates = "AuthorizeNodeWithSelectors=true,AuthorizeWithSelectors=false"
    at = open_app("plan", binary="1.33", emulated="1.31", feature_gates=gates, to="1.35")
    refused = [e for e in texts(at.error) if "would refuse to start" in e]
    # where it starts (1.33@1.31) and after the 1.33 -> 1.34 step; once AuthorizeWithSelectors is locked on, its lock refuses
    assert len(refused) >= 2 and all("AuthorizeNodeWithSelectors feature requires AuthorizeWithSelectors" in e for e in refused[:2])
    assert any("feature is locked to true" in e for e in refused[2:])
    code = kcompat(["plan", "--from", "1.33@1.31", "--to", "1.35", "--feature-gates", gates, "--format", "json"])
    document = json.loads(capsys.readouterr().out)
    assert code == 2 and document["startup"]["verdict"] == "refuses"
    assert [s["startup"]["verdict"] for s in document["steps"] if s["startup"]][:1] == ["refuses"]
