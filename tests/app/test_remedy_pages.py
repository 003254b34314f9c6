"""Remedies on the pages (issue 19): every page that shows one of the binary's refusals shows the
remedy beside it, the same text as ``kcompat ... --format json`` ``hints``; the Check a cluster page
shows a refused manifest's refusal, remedy and what was read, and its selection bar follows the
inspected cluster. Real bundled data, the real entry script."""

import json
from pathlib import Path

import pytest
from conftest import open_app, plain, rerun, texts

from kcompat.cli.main import main as kcompat

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "inspect"


def cli_json(capsys, *argv):
    kcompat([*argv, "--format", "json"])
    return json.loads(capsys.readouterr().out)


def manifest(emulated="1.31", flags=("--runtime-config=resource.k8s.io/v1beta1=true",), binary="v1.33.0"):
    text = (SAMPLES / "kube-apiserver.yaml").read_text()
    text = text.replace("kube-apiserver:v1.36.2", f"kube-apiserver:{binary}").replace("--emulated-version=1.34", f"--emulated-version={emulated}")
    return text.replace("    - --feature-gates=ImageVolume=true\n", "".join(f"    - {f}\n" for f in flags))


def check(at, cmdline):
    at.text_area(key="cluster_paste_cmdline").input(cmdline)
    next(b for b in at.button if b.label == "Check").click()
    return rerun(at)


def selection_bar(at):
    return {s.label: s.value for s in at.selectbox if s.label in ("Binary release", "Emulated version")}


@pytest.mark.parametrize(
    "argv",
    [
        ("--binary", "1.34", "--emulated", "1.32", "--feature-gates", "DRAPrioritizedList=true"),
        ("--binary", "1.34", "--feature-gates", "CloudDualStackNodeIPs=true"),
        ("--binary", "1.34", "--feature-gates", "AllowServiceLBStatusOnNonLB=true"),
        ("--binary", "1.33", "--feature-gates", "PodCertificateRequest=true"),
    ],
    ids=["not-introduced", "removed-gate", "locked", "later-gate"],
)
def test_gates_page_shows_the_remedy_of_the_cli(capsys, argv):
    doc = cli_json(capsys, "gates", *argv)
    values = dict(zip(argv[::2], argv[1::2], strict=True))
    params = {"binary": values["--binary"], "emulated": values.get("--emulated", values["--binary"]), "feature_gates": values["--feature-gates"]}
    at = open_app(**params)
    assert texts(at.error) == doc["errors"]
    [hint] = doc["hints"]  # its kind and text are checked in tests/cli/test_remedies.py
    assert texts(at.info)[0] == hint["text"]


def test_version_out_of_range_shows_the_range_and_nearest_value(capsys):
    doc = cli_json(capsys, "gates", "--binary", "1.36", "--emulated", "1.30")
    at = open_app(binary="1.36", emulated="1.30")
    shown = texts(at.info)
    expected = [h["text"] for h in doc["hints"]]
    assert expected[0].startswith("a 1.36 binary emulates 1.33 to 1.36: set --emulated-version=1.33")
    assert shown[: len(expected)] == expected


def test_apis_page_shows_the_runtime_config_remedy(capsys):
    doc = cli_json(capsys, "apis", "--binary", "1.33", "--emulated", "1.31", "--runtime-config", "resource.k8s.io/v1beta1=true")
    at = open_app("apis", binary="1.33", emulated="1.31", runtime_config="resource.k8s.io/v1beta1=true")
    assert doc["errors"][0] in texts(at.error)
    assert doc["hints"][0]["text"] in texts(at.info)
    assert doc["hints"][0]["text"].startswith("resource.k8s.io/v1beta1 appears in 1.32")


def test_refused_manifest_shows_refusal_remedy_and_what_was_read(capsys, tmp_path):
    path = tmp_path / "kube-apiserver.yaml"
    path.write_text(manifest())
    doc = cli_json(capsys, "inspect", str(path))
    at = check(open_app("cluster"), manifest())
    [error] = texts(at.error)
    assert error.startswith("**This kube-apiserver would exit at start-up** with\n")
    assert f"`error: {doc['errors'][0]}`" in error
    assert texts(at.info)[0] == doc["hints"][0]["text"]
    assert "Read: pasted input: static pod manifest" in texts(at.caption)
    # what was read from where, and the selection bar follows the inspected cluster
    sources = at.dataframe[0].value
    assert "--runtime-config" in sources["setting"].tolist()
    assert selection_bar(at) == {"Binary release": "1.33", "Emulated version": "1.31"}
    assert (at.query_params["binary"], at.query_params["emulated"]) == ("1.33", "1.31")
    assert not at.code  # no config snippet repeating the refused flag


def test_following_the_remedy_is_accepted_and_the_bar_follows(capsys):
    at = check(open_app("cluster"), manifest())
    at = check(at, manifest(emulated="1.32"))
    assert not at.error
    assert selection_bar(at) == {"Binary release": "1.33", "Emulated version": "1.32"}
    assert "--runtime-config=resource.k8s.io/v1beta1=true" in at.code[0].value


def test_the_bar_changed_by_hand_is_not_undone_while_the_input_stays(capsys):
    at = check(open_app("cluster"), manifest(emulated="1.32"))
    assert selection_bar(at)["Emulated version"] == "1.32"
    at.selectbox(key="sel_emulated").set_value("1.33")
    at = rerun(at)
    assert selection_bar(at)["Emulated version"] == "1.33"


def test_version_disagreement_is_shown_on_the_page():
    ps = "root 1 0 kube-apiserver --emulated-version=1.35 --min-compatibility-version=1.33\n"
    at = open_app("cluster")
    at.text_area(key="cluster_paste_version").input((SAMPLES / "version-1.36.2-emulating-1.34.json").read_text())
    at = check(at, ps)
    assert any("emulationMajor 1, emulationMinor 34 but the flags give emulated 1.35" in plain(e.value) for e in at.error)
    assert selection_bar(at) == {"Binary release": "1.36", "Emulated version": "1.35"}


def test_min_compatibility_follows_the_flags_not_version_on_the_page():
    """The manifest's --emulated-version=1.34 with a /version of a 1.36 binary not emulating: the
    page answers for 1.34 with its default min compatibility 1.33 (as kcompat inspect does), shows
    the two /version disagreements, and no start-up refusal."""
    from kcompat.answers.inspect import inspect
    from kcompat.data.catalog import DEFAULT_CATALOG
    from kcompat.documents.inspect import inspect_document

    text, version = (SAMPLES / "kube-apiserver.yaml").read_text(), (SAMPLES / "version-1.36.2.json").read_text()
    at = open_app("cluster")
    at.text_area(key="cluster_paste_version").input(version)
    at = check(at, text)
    cli = inspect_document(inspect(DEFAULT_CATALOG, [("pasted input", text), ("pasted /version", version)]))
    assert (cli["emulated"], cli["minCompatibility"], cli["valid"]) == ("1.34", "1.33", True)
    errors = texts(at.error)
    assert not any("exit at start-up" in e or "is not between" in e for e in errors), errors
    assert [e for e in errors if "but the flags give" in e] == [plain(md) for md in cli["versionDisagreements"]]
    assert [m.value for m in at.metric][:4] == ["kube-apiserver", "1.36", "1.34", "1.33"]
    assert selection_bar(at) == {"Binary release": "1.36", "Emulated version": "1.34"}


def test_a_refused_gate_or_version_stays_on_this_page_not_in_the_bar(capsys):
    """The bar follows only a selection it can show: a refused --feature-gates value or an
    out-of-range emulated version is shown (with its remedy) on the page, not hidden behind the
    bar's own refusal."""
    at = check(open_app("cluster"), manifest(binary="v1.34.1", emulated="1.32", flags=("--feature-gates=DRAPrioritizedList=true",)))
    [error] = texts(at.error)
    assert "cannot set feature gate DRAPrioritizedList to true, feature is PreAlpha at emulated version 1.32" in error
    assert texts(at.info)[0].startswith("DRAPrioritizedList appears in 1.33 (Alpha): emulate 1.33 or later")
    assert selection_bar(at) == {"Binary release": "1.34", "Emulated version": "1.32"}
    assert "feature_gates" not in at.query_params  # the bar does not repeat the refused value
    at = check(open_app("cluster", binary="1.36", emulated="1.35"), manifest(emulated="1.29", flags=()))
    [error] = texts(at.error)
    assert "emulation version 1.29 is not between [1.31, 1.33.0]" in error
    assert texts(at.info)[0].startswith("a 1.33 binary emulates 1.31 to 1.33: set --emulated-version=1.31")
    assert selection_bar(at) == {"Binary release": "1.36", "Emulated version": "1.35"}  # unchanged


@pytest.mark.parametrize(
    "binary, emulated, runtime_config, refused",
    [
        ("1.34", "1.33", "networking.k8s.io/v1alpha1=true", True),  # removed after 1.33
        ("1.34", "1.33", "storagemigration.k8s.io/v1alpha1=true", False),  # alpha under emulation: a warning
        ("1.34", "1.34", "networkin.k8s.io/v1=true", True),  # unknown group
    ],
    ids=["removed-api", "alpha-under-emulation", "unknown-group"],
)
def test_apis_page_shows_every_runtime_config_remedy(capsys, binary, emulated, runtime_config, refused):
    doc = cli_json(capsys, "apis", "--binary", binary, "--emulated", emulated, "--runtime-config", runtime_config)
    at = open_app("apis", binary=binary, emulated=emulated, runtime_config=runtime_config)
    [hint] = doc["hints"]
    assert hint["text"] in texts(at.info)
    assert (hint["error"] in texts(at.error)) is refused
    assert (hint["error"] in texts(at.warning)) is not refused


def test_min_compatibility_out_of_range_on_the_page(capsys):
    doc = cli_json(capsys, "gates", "--binary", "1.36", "--emulated", "1.34", "--min-compat", "1.35")
    at = open_app(binary="1.36", emulated="1.34", min_compat="1.35")
    [hint] = doc["hints"]
    assert hint["text"] in texts(at.info)
    assert "set --min-compatibility-version=1.34 (the nearest valid value)" in hint["text"]


def test_forward_compatibility_remedy_gives_a_snippet_with_the_flag(capsys):
    flags = ("--runtime-config=resource.k8s.io/v1beta1=true", "--runtime-config-emulation-forward-compatible=true")
    at = check(open_app("cluster"), manifest(flags=flags))
    assert not at.error
    assert at.code[0].value.splitlines()[0].endswith("--runtime-config-emulation-forward-compatible=true")


def test_a_selection_that_never_gets_ready_gets_no_config_and_says_why():
    """v1.36.5 recorded: MutatingAdmissionPolicy on while emulating 1.34 exits after ~13 s. The
    page hands out no config for it (as kcompat config refuses it) and says why, with the remedy."""
    text = (SAMPLES / "kube-apiserver.yaml").read_text().replace("ImageVolume=true", "MutatingAdmissionPolicy=true")
    at = check(open_app("cluster"), text)
    assert not at.exception
    (warning,) = [w.value for w in at.warning if "No config is given" in w.value]
    assert "never become ready" in warning
    assert any("MutatingAdmissionPolicy" in t.value for t in at.text)
    assert any(plain(c.value).startswith("Remedy:") for c in at.caption)
