"""`kcompat data refresh` reading the Go source: the dependency map of kube_features.go and
k8s.io/client-go's features, from small git repositories the tests build; and its bounds
(blob sizes checked before reading, linear-time scanning of hostile text)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from test_refresh import commit_tree, gate, git_identity, new_repo  # noqa: F401 (git_identity: autouse fixture)

from kcompat.answers.gates import gate_evaluation
from kcompat.data.catalog import Catalog
from kcompat.data.files import load_manifest_files
from kcompat.refresh import refresh_features, run_refresh
from kcompat.refresh.apis import lifecycles_in, registered_kinds_in
from kcompat.refresh.features import (
    CLIENT_GO_FEATURES_GO,
    KUBE_FEATURES_GO,
    NEW_VERSIONED,
    OLD_UNVERSIONED,
    OLD_VERSIONED,
    rename_go_identifiers,
)
from kcompat.refresh.gosource import GoSourceError, dependency_map, go_tokens

STAGING_APISERVER = "staging/src/k8s.io/apiserver/pkg/features/kube_features.go"

KUBE_GO_135 = """package features

import (
\tgenericfeatures "k8s.io/apiserver/pkg/features"
\tclientfeatures "k8s.io/client-go/features"
\t"k8s.io/component-base/featuregate"
)

const (
\t// owner: @someone
\tWidget featuregate.Feature = "Widget"

\t/* a block comment: Ignored: {NotAGate} */
\tGizmo = featuregate.Feature("Gizmo")

\tWatcher featuregate.Feature = "Watcher"

\tCPUCFSQuotaPeriod featuregate.Feature = "CustomCPUCFSQuotaPeriod"
)

var defaultKubernetesFeatureGateDependencies = map[featuregate.Feature][]featuregate.Feature{
\tWidget: {Gizmo, genericfeatures.ServerGate}, // "quoted } brace" in a comment
\tGizmo:  {},
\tWatcher: {featuregate.Feature(clientfeatures.AtomicFIFO)},
\tCPUCFSQuotaPeriod: {Gizmo},
}

func init() {
\tca := &clientAdapter{utilfeature.DefaultMutableFeatureGate}
\truntime.Must(clientfeatures.AddVersionedFeaturesToExistingFeatureGates(ca))
\truntime.Must(utilfeature.DefaultMutableFeatureGate.AddDependencies(defaultKubernetesFeatureGateDependencies))
}
"""

APISERVER_GO = """package features

import "k8s.io/component-base/featuregate"

const (
\tServerGate featuregate.Feature = "ServerGate"
)
"""

CLIENT_GO_135 = """package features

import "k8s.io/apimachinery/pkg/util/version"

const (
\tAtomicFIFO Feature = "AtomicFIFO"
\tWatchListClient Feature = "WatchListClient"
)

var defaultVersionedKubernetesFeatureGates = map[Feature]VersionedSpecs{
\tAtomicFIFO: {
\t\t{Version: version.MustParse("1.34"), Default: false, PreRelease: Alpha},
\t\t{Version: version.MustParse("1.35"), Default: true, PreRelease: Beta},
\t},
\tWatchListClient: {
\t\t{Version: version.MustParse("1.30"), Default: false, PreRelease: Beta},
\t},
}
"""

KUBE_GO_131 = """package features

import clientfeatures "k8s.io/client-go/features"

func init() {
\tca := &clientAdapter{utilfeature.DefaultMutableFeatureGate}
\truntime.Must(clientfeatures.AddFeaturesToExistingFeatureGates(ca))
}
"""

CLIENT_GO_131 = """package features

const (
\tWatchListClient Feature = "WatchListClient"
)

var defaultKubernetesFeatureGates = map[Feature]FeatureSpec{
\tWatchListClient: {Default: false, PreRelease: Beta},
}
"""

V131 = gate("Widget", ("1.31", "Alpha", False, False))
V135 = (
    gate("CPUCFSQuotaPeriod", ("1.12", "Alpha", False, False))
    + gate("Gizmo", ("1.33", "Alpha", False, False))
    + gate("ServerGate", ("1.30", "Alpha", False, False))
    + gate("Watcher", ("1.35", "Alpha", False, False))
    + gate("Widget", ("1.35", "Alpha", False, False))
)


@pytest.fixture
def go_repo(tmp_path: Path) -> Path:
    repo = new_repo(tmp_path / "kubernetes")
    commit_tree(
        repo, {OLD_VERSIONED: V131, OLD_UNVERSIONED: "[]\n", KUBE_FEATURES_GO: KUBE_GO_131, CLIENT_GO_FEATURES_GO: CLIENT_GO_131},
        "1.31", tag="v1.31.0",
    )
    commit_tree(
        repo,
        {"test/featuregates_linter": None, NEW_VERSIONED: V135, KUBE_FEATURES_GO: KUBE_GO_135, CLIENT_GO_FEATURES_GO: CLIENT_GO_135,
         STAGING_APISERVER: APISERVER_GO},
        "1.35", tag="v1.35.0",
    )
    return repo


def test_dependencies_and_client_go_gates_are_written(go_repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    report = refresh_features(go_repo, out, None)
    assert report.skipped == () and report.releases_written == ("1.31", "1.35")
    features = out / "features"
    assert (features / "client-go-v1.35.yaml").exists() and (features / "client-go-v1.31.yaml").exists()
    manifest = load_manifest_files([features / "v1.35.yaml"], client_go_paths=[features / "client-go-v1.35.yaml"])
    by_name = manifest.by_name
    # staging names resolved through the imported package; conversions of client-go names; the Go identifier's flag name
    assert by_name["Widget"].dependencies == ("Gizmo", "ServerGate")
    assert by_name["Watcher"].dependencies == ("AtomicFIFO",)
    assert by_name["CustomCPUCFSQuotaPeriod"].dependencies == ("Gizmo",)
    assert by_name["Gizmo"].dependencies == ()
    assert by_name["AtomicFIFO"].origin == "client-go" and by_name["Widget"].origin == "kube"
    assert [(str(s.version), s.stage.value, s.default) for s in by_name["AtomicFIFO"].specs] == [("1.34", "Alpha", False), ("1.35", "Beta", True)]
    text = (features / "v1.35.yaml").read_text()
    assert "the 4 edges of defaultKubernetesFeatureGateDependencies" in text
    assert any("4 dependency edges" in n for n in report.notes) and any("2 client-go gates, registered versioned" in n for n in report.notes)
    # 1.31: unversioned registration (one spec at 0.0), no dependency map
    old = load_manifest_files([features / "v1.31.yaml"], client_go_paths=[features / "client-go-v1.31.yaml"])
    wlc = old.by_name["WatchListClient"]
    assert wlc.origin == "client-go" and [(str(s.version), s.stage.value) for s in wlc.specs] == [("0.0", "Beta")]
    assert "dependencies" not in (features / "v1.31.yaml").read_text().split("\n\n", 1)[1]


def test_refreshed_edges_are_enforced(go_repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    refresh_features(go_repo, out, ["1.35"])
    features = out / "features"
    manifest = load_manifest_files([features / "v1.35.yaml"], client_go_paths=[features / "client-go-v1.35.yaml"])
    ev = gate_evaluation(Catalog(out), "1.35", "1.35", None, "Watcher=true,AtomicFIFO=false", manifest=manifest)
    assert ev.errors == ("Watcher is enabled, but depends on features that are disabled: [AtomicFIFO]",)
    assert gate_evaluation(Catalog(out), "1.35", "1.35", None, "Watcher=true", manifest=manifest).valid  # AtomicFIFO Beta on


def test_a_dependency_on_an_unknown_gate_is_refused(go_repo: Path, tmp_path: Path) -> None:
    commit_tree(go_repo, {KUBE_FEATURES_GO: KUBE_GO_135.replace("{Gizmo},", "{Nowhere},")}, "bad edge", tag="v1.36.0")
    report = refresh_features(go_repo, tmp_path / "out", ["1.36"])
    (skip,) = report.skipped
    assert "no feature constant Nowhere" in skip.reason and not (tmp_path / "out" / "features" / "v1.36.yaml").exists()


# ---------------------------------------------------------------------------------------------
# Bounds: blob sizes before reading, linear scanning.


def test_a_huge_blob_is_refused_before_it_is_read(go_repo: Path, tmp_path: Path, capsys) -> None:
    huge = "// " + "x" * (6 * 1024 * 1024) + "\n"
    commit_tree(go_repo, {KUBE_FEATURES_GO: huge}, "huge", tag="v1.36.0")
    started = time.process_time()
    code = run_refresh(_args(go_repo, tmp_path / "out", "1.36"))
    assert time.process_time() - started < 5
    out = capsys.readouterr().out
    assert code == 0 and "skipped 1.36" in out
    assert f"v1.36.0:{KUBE_FEATURES_GO} is 6,291,460 bytes, larger than the limit of 4,194,304 bytes; not read" in out


def test_a_huge_manifest_is_refused_before_it_is_read(go_repo: Path, tmp_path: Path) -> None:
    commit_tree(go_repo, {NEW_VERSIONED: "#" * (5 * 1024 * 1024)}, "huge manifest", tag="v1.36.0")
    report = refresh_features(go_repo, tmp_path / "out", ["1.36"])
    (skip,) = report.skipped
    assert "larger than the limit" in skip.reason and "not read" in skip.reason


@pytest.mark.parametrize(
    "text, message",
    [
        ("/*" + " /*x" * 200_000, "unterminated /\\* comment"),
        ('"' + "a" * 300_000, "unterminated string"),
        ("var defaultKubernetesFeatureGateDependencies = map[a]b{" + "A: {B, " * 50_000, "unbalanced braces"),
        ("var defaultKubernetesFeatureGateDependencies = map[a]b{" + " " * 1_000_000, "not closed"),
        ("{" * 3_000_000, "more than 500,000 tokens"),
    ],
)
def test_pathological_go_text_fails_fast_with_a_message(text: str, message: str) -> None:
    started = time.process_time()
    with pytest.raises(GoSourceError, match=message):
        dependency_map(text, "crafted.go")
    assert time.process_time() - started < 3


def test_pathological_text_in_a_repository_is_a_skipped_release(go_repo: Path, tmp_path: Path) -> None:
    commit_tree(go_repo, {KUBE_FEATURES_GO: "package features\n/*" + " /*x" * 300_000}, "hostile", tag="v1.36.0")
    started = time.process_time()
    report = refresh_features(go_repo, tmp_path / "out", ["1.36"])
    assert time.process_time() - started < 5
    (skip,) = report.skipped
    assert "unterminated /* comment" in skip.reason


def test_long_runs_that_made_the_old_patterns_backtrack_are_linear() -> None:
    started = time.process_time()
    # spaces and identifiers where the former regexes had adjacent \s* / \w* groups
    lifecycle = "func (" + " " * 200_000 + "in" + " " * 200_000 + "*" + "a" * 200_000
    with pytest.raises(GoSourceError, match="unbalanced"):
        lifecycles_in(lifecycle, "zz.go")
    closed = "func (in *X) APILifecycleIntroduced() (major, minor int) {" + " " * 10_000 + "return 1, 9 }\n"
    assert lifecycles_in(closed * 200, "zz.go")["X"].introduced == "1.9"
    with pytest.raises(GoSourceError, match="unbalanced"):
        registered_kinds_in("AddKnownTypes(SchemeGroupVersion," + "&" * 200_000, "register.go")
    nested = "AddKnownTypes(SchemeGroupVersion, &A{}, " * 20_000 + ")" * 20_000
    assert registered_kinds_in(nested, "register.go") == ("A",)
    _text, renames = rename_go_identifiers("- " + " " * 300_000 + "x\n" + "  -\t" * 100_000)
    assert renames == ()
    assert len(go_tokens("a" * 1_000_000 + " " + "1" * 1_000_000, "long.go")) == 2
    assert time.process_time() - started < 3


def test_rename_keeps_quotes_comments_and_position() -> None:
    text, renames = rename_go_identifiers("- name: 'CPUCFSQuotaPeriod' # note\n  dependencies:\n  - RuntimeClassInImageCriAPI\r\n")
    assert text == "- name: 'CustomCPUCFSQuotaPeriod' # note\n  dependencies:\n  - RuntimeClassInImageCriApi\r\n"
    assert renames == (("CPUCFSQuotaPeriod", "CustomCPUCFSQuotaPeriod"), ("RuntimeClassInImageCriAPI", "RuntimeClassInImageCriApi"))


def _args(repo: Path, out: Path, release: str):
    import argparse

    return argparse.Namespace(kubernetes_repo=repo, api_repo=None, out=out, release=[release])


def test_git_is_asked_for_the_size_first(go_repo: Path) -> None:
    size = subprocess.run(["git", "-C", str(go_repo), "cat-file", "-s", f"v1.35.0:{KUBE_FEATURES_GO}"], capture_output=True, text=True)
    from kcompat.refresh import GitRepository

    assert GitRepository(go_repo.resolve()).size_of("v1.35.0", KUBE_FEATURES_GO) == int(size.stdout) == len(KUBE_GO_135.encode())


def test_git_output_is_bounded(go_repo: Path) -> None:
    from kcompat.refresh import GitRepository, RefreshError

    repo = GitRepository(go_repo.resolve())
    with pytest.raises(RefreshError, match="wrote more than 100 bytes; stopped"):
        repo.run("cat-file", "blob", f"v1.35.0:{KUBE_FEATURES_GO}", max_output=100)
    assert repo.read("v1.35.0", KUBE_FEATURES_GO) == KUBE_GO_135.encode()
