"""`kcompat data refresh` (kcompat/refresh/) against small real git repositories."""

from __future__ import annotations

import argparse
import csv
import subprocess
from pathlib import Path

import pytest
import yaml

from kcompat.data.files import load_manifest_files
from kcompat.refresh import (
    add_refresh_arguments,
    refresh_apis,
    refresh_features,
    run_refresh,
)
from kcompat.refresh import apis as refresh_apis_module
from kcompat.refresh import features as refresh_features_module
from kcompat.refresh.features import NEW_VERSIONED, OLD_UNVERSIONED, OLD_VERSIONED

BUNDLED = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture(autouse=True)
def git_identity(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """git works on a clean machine and ignores the user's configuration."""
    empty = tmp_path / "empty-gitconfig"
    empty.write_text("")
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{who}_NAME", "Refresh Test")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "refresh@example.invalid")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(empty))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def new_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q")
    return path


def commit_tree(repo: Path, files: dict[str, str | None], message: str, tag: str | None = None, annotated: bool = False) -> str:
    """Write (or delete, for None) the files, commit, optionally tag; returns the commit sha."""
    for name, text in files.items():
        target = repo / name
        if text is None:
            git(repo, "rm", "-q", "-r", name)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        git(repo, "add", name)
    git(repo, "commit", "-q", "--allow-empty", "-m", message)
    if tag:
        git(repo, "tag", *(["-a", "-m", tag] if annotated else []), tag)
    return git(repo, "rev-parse", "HEAD")


# ---------------------------------------------------------------------------------------------
# kubernetes/kubernetes


def gate(name: str, *specs: tuple[str, str, bool, bool]) -> str:
    lines = [f"- name: {name}", "  versionedSpecs:"]
    for version, stage, default, locked in specs:
        lines += [
            f"  - default: {str(default).lower()}",
            f"    lockToDefault: {str(locked).lower()}",
            f"    preRelease: {stage}",
            f'    version: "{version}"',
        ]
    return "\n".join(lines) + "\n"


V131 = gate("AlphaGate", ("1.31", "Alpha", False, False)) + gate("CPUCFSQuotaPeriod", ("1.12", "Alpha", False, False))
V131_UNVERSIONED = gate("LegacyGate", ("", "GA", True, True))
V133 = (
    gate("AlphaGate", ("1.31", "Alpha", False, False), ("1.33", "Beta", True, False))
    + gate("CPUCFSQuotaPeriod", ("1.12", "Alpha", False, False))
    + gate("RuntimeClassInImageCriAPI", ("1.29", "Alpha", False, False))
)
V135_NEW = gate("NewLocationGate", ("1.35", "Alpha", False, False))
V135_OLD = gate("OldLocationGate", ("1.35", "Alpha", False, False))
V136_INVALID = gate("BackwardsGate", ("1.30", "GA", True, False), ("1.36", "Beta", True, False))


@pytest.fixture
def kubernetes_repo(tmp_path: Path) -> dict:
    repo = new_repo(tmp_path / "kubernetes")
    commits = {}
    commits["1.30"] = commit_tree(repo, {"README.md": "k8s\n"}, "before any manifest", tag="v1.30.0")
    commits["1.31"] = commit_tree(repo, {OLD_VERSIONED: V131, OLD_UNVERSIONED: V131_UNVERSIONED}, "old location", tag="v1.31.0")
    commits["1.33"] = commit_tree(
        repo, {"test/featuregates_linter": None, NEW_VERSIONED: V133}, "move to the new location", tag="v1.33.0", annotated=True
    )
    commits["1.34"] = commit_tree(repo, {"test/compatibility_lifecycle": None}, "no manifest", tag="v1.34.0")
    commits["1.35"] = commit_tree(repo, {NEW_VERSIONED: V135_NEW, OLD_VERSIONED: V135_OLD}, "both locations", tag="v1.35.0")
    commits["1.36"] = commit_tree(repo, {NEW_VERSIONED: V136_INVALID, OLD_VERSIONED: None}, "invalid", tag="v1.36.0")
    commit_tree(repo, {"README.md": "later\n"}, "after the tags")
    git(repo, "tag", "v1.37.0-beta.0")
    return {"path": repo, "commits": commits}


def split_header(text: str) -> tuple[list[str], str]:
    lines = text.splitlines(keepends=True)
    header = [line for line in lines if line.startswith("#")]
    body_start = len(header) + 1  # the blank line after the header
    assert lines[len(header)] == "\n"
    return [line.rstrip("\n") for line in header], "".join(lines[body_start:])


def test_features_written_per_tag_with_provenance_header(kubernetes_repo: dict, tmp_path: Path) -> None:
    repo, commits, out = kubernetes_repo["path"], kubernetes_repo["commits"], tmp_path / "out"

    report = refresh_features(repo, out, None)

    assert report.releases_written == ("1.31", "1.33", "1.35")
    assert {p.relative_to(out).as_posix() for p in report.written} == {
        "features/v1.31.yaml",
        "features/v1.31-unversioned.yaml",
        "features/v1.33.yaml",
        "features/v1.35.yaml",
    }
    header, body = split_header((out / "features/v1.31.yaml").read_text())
    assert f"#   repository: {repo.resolve()}" in header
    assert "#   tag:        v1.31.0" in header
    assert f"#   commit:     {commits['1.31']}" in header
    assert f"#   path:       {OLD_VERSIONED}" in header
    assert body == V131.replace("- name: CPUCFSQuotaPeriod", "- name: CustomCPUCFSQuotaPeriod")

    header, body = split_header((out / "features/v1.31-unversioned.yaml").read_text())
    assert f"#   path:       {OLD_UNVERSIONED}" in header
    assert header[-1] == "# Below: the upstream file, unchanged."
    assert body == V131_UNVERSIONED


def test_old_location_for_old_tag_new_location_for_newer_tag(kubernetes_repo: dict, tmp_path: Path) -> None:
    repo, commits, out = kubernetes_repo["path"], kubernetes_repo["commits"], tmp_path / "out"
    refresh_features(repo, out, None)

    header_131, _ = split_header((out / "features/v1.31.yaml").read_text())
    header_133, _ = split_header((out / "features/v1.33.yaml").read_text())
    assert f"#   path:       {OLD_VERSIONED}" in header_131
    assert f"#   path:       {NEW_VERSIONED}" in header_133
    # an annotated tag is resolved to its commit
    assert f"#   commit:     {commits['1.33']}" in header_133
    assert not (out / "features/v1.33-unversioned.yaml").exists()
    # with both locations at one tag, the newer one wins
    header_135, body_135 = split_header((out / "features/v1.35.yaml").read_text())
    assert f"#   path:       {NEW_VERSIONED}" in header_135
    assert body_135 == V135_NEW


def test_go_identifiers_become_flag_names_and_are_reported(kubernetes_repo: dict, tmp_path: Path) -> None:
    out = tmp_path / "out"
    report = refresh_features(kubernetes_repo["path"], out, ["1.33"])

    assert {(r.release, r.file, r.go_identifier, r.flag_name) for r in report.renames} == {
        ("1.33", "features/v1.33.yaml", "CPUCFSQuotaPeriod", "CustomCPUCFSQuotaPeriod"),
        ("1.33", "features/v1.33.yaml", "RuntimeClassInImageCriAPI", "RuntimeClassInImageCriApi"),
    }
    text = (out / "features/v1.33.yaml").read_text()
    header, body = split_header(text)
    assert any("CPUCFSQuotaPeriod -> CustomCPUCFSQuotaPeriod" in line for line in header)
    assert body == V133.replace("name: CPUCFSQuotaPeriod", "name: CustomCPUCFSQuotaPeriod").replace(
        "name: RuntimeClassInImageCriAPI", "name: RuntimeClassInImageCriApi"
    )
    manifest = load_manifest_files([out / "features/v1.33.yaml"])
    assert set(manifest.by_name) == {"AlphaGate", "CustomCPUCFSQuotaPeriod", "RuntimeClassInImageCriApi"}
    assert any("renamed CPUCFSQuotaPeriod -> CustomCPUCFSQuotaPeriod" in line for line in report.summary_lines())


def test_rename_keeps_quotes_and_dependency_items() -> None:
    text = "- name: 'RuntimeClassInImageCriAPI'\n  dependencies:\n  - CPUCFSQuotaPeriod\n- name: CPUCFSQuotaPeriodX\n"
    renamed, done = refresh_features_module.rename_go_identifiers(text)
    assert renamed == "- name: 'RuntimeClassInImageCriApi'\n  dependencies:\n  - CustomCPUCFSQuotaPeriod\n- name: CPUCFSQuotaPeriodX\n"
    assert dict(done) == refresh_features_module.GO_IDENTIFIER_TO_FLAG_NAME


def test_invalid_manifest_and_missing_manifest_are_reported_not_written(kubernetes_repo: dict, tmp_path: Path) -> None:
    out = tmp_path / "out"
    report = refresh_features(kubernetes_repo["path"], out, None)

    reasons = {s.release: s.reason for s in report.skipped}
    assert set(reasons) == {"1.34", "1.36"}
    assert "no feature manifest at v1.34.0" in reasons["1.34"]
    assert "invalid manifest at v1.36.0" in reasons["1.36"]
    assert "BackwardsGate" in reasons["1.36"] and "Beta after GA" in reasons["1.36"]
    assert not (out / "features/v1.34.yaml").exists()
    assert not (out / "features/v1.36.yaml").exists()
    # the release before 1.31 and the pre-release tag are not part of the default set
    assert not (out / "features/v1.30.yaml").exists()
    assert not list(out.glob("features/v1.37*"))
    assert any(line.startswith("  skipped 1.36: invalid manifest at v1.36.0") for line in report.summary_lines())


def test_invalid_manifest_leaves_the_existing_file_alone(kubernetes_repo: dict, tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "features").mkdir(parents=True)
    (out / "features/v1.36.yaml").write_text("# bundled\n[]\n")
    refresh_features(kubernetes_repo["path"], out, ["1.36"])
    assert (out / "features/v1.36.yaml").read_text() == "# bundled\n[]\n"


def test_stale_unversioned_file_is_removed_when_the_tag_has_none(kubernetes_repo: dict, tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "features").mkdir(parents=True)
    stale = out / "features/v1.33-unversioned.yaml"
    stale.write_text(V131_UNVERSIONED)
    report = refresh_features(kubernetes_repo["path"], out, ["1.33"])
    assert not stale.exists()
    assert report.removed == (stale.resolve(),)


def test_requested_release_without_tag_is_skipped(kubernetes_repo: dict, tmp_path: Path) -> None:
    report = refresh_features(kubernetes_repo["path"], tmp_path / "out", ["1.32", "1.31"])
    assert report.releases_written == ("1.31",)
    assert [(s.release, s.reason) for s in report.skipped] == [("1.32", "no tag v1.32.0 in the repository")]


# ---------------------------------------------------------------------------------------------
# k8s.io/api

LICENSE = '/*\nCopyright The Kubernetes Authors.\nLicensed under the Apache License, Version 2.0 (the "License");\n*/\n\n'

CORE_REGISTER = LICENSE + """package v1

// GroupName is the group name use in this package
const GroupName = ""

var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1"}

func addKnownTypes(scheme *runtime.Scheme) error {
\tscheme.AddKnownTypes(SchemeGroupVersion,
\t\t&Pod{},
\t\t&PodList{}, // a comment with &Fake{} in it
\t\t&List{},
\t)

\t// Add common types
\tscheme.AddKnownTypes(SchemeGroupVersion, &metav1.Status{})
\tmetav1.AddToGroupVersion(scheme, SchemeGroupVersion)
\treturn nil
}
"""

BATCH_REGISTER = LICENSE + """package v1beta1

const (
\t// GroupName is the group name use in this package
\tGroupName = "batch"
)

func addKnownTypes(scheme *runtime.Scheme) error {
\tscheme.AddKnownTypes(SchemeGroupVersion, &CronJob{}, &CronJobList{})
\tmetav1.AddToGroupVersion(scheme, SchemeGroupVersion)
\treturn nil
}
"""

NODE_REGISTER = LICENSE + """package v1alpha1

const GroupName = "node.k8s.io"

func addKnownTypes(scheme *runtime.Scheme) error {
\tscheme.AddKnownTypes(SchemeGroupVersion,
\t\t&RuntimeClass{},
\t\t&RuntimeClassList{},
\t)
\treturn nil
}
"""


def lifecycle_func(kind: str, which: str, minor: int | str) -> str:
    return (
        f"// APILifecycle{which} is an autogenerated function, returning the release ...\n"
        f'// It is controlled by "k8s:prerelease-lifecycle-gen:{which.lower()}" tags in types.go.\n'
        f"func (in *{kind}) APILifecycle{which}() (major, minor int) {{\n\treturn 1, {minor}\n}}\n\n"
    )


def replacement_func(kind: str, group: str, version: str, new_kind: str) -> str:
    return (
        f"func (in *{kind}) APILifecycleReplacement() schema.GroupVersionKind {{\n"
        f'\treturn schema.GroupVersionKind{{Group: "{group}", Version: "{version}", Kind: "{new_kind}"}}\n}}\n\n'
    )


LIFECYCLE_HEAD = "//go:build !ignore_autogenerated\n\n" + LICENSE + "// Code generated by prerelease-lifecycle-gen. DO NOT EDIT.\n\npackage v1\n\n"
CORE_LIFECYCLE = LIFECYCLE_HEAD + "".join(lifecycle_func(k, "Introduced", 0) for k in ("Pod", "PodList", "List"))
BATCH_LIFECYCLE = LIFECYCLE_HEAD + "".join(
    lifecycle_func(kind, "Introduced", 8)
    + lifecycle_func(kind, "Deprecated", 21)
    + replacement_func(kind, "batch", "v1", kind)
    + lifecycle_func(kind, "Removed", 25)
    for kind in ("CronJob", "CronJobList")
)


@pytest.fixture
def api_repo(tmp_path: Path) -> dict:
    repo = new_repo(tmp_path / "api")
    commits = {}
    commits["1.33"] = commit_tree(
        repo,
        {
            "core/v1/register.go": CORE_REGISTER,
            "core/v1/zz_generated.prerelease-lifecycle.go": CORE_LIFECYCLE,
            "batch/v1beta1/register.go": BATCH_REGISTER,
            "batch/v1beta1/zz_generated.prerelease-lifecycle.go": BATCH_LIFECYCLE,
            "node/v1alpha1/register.go": NODE_REGISTER,
            "node/v1alpha1/types.go": "package v1alpha1\n",
            "testing/fixture/register.go": "package fixture\n",  # not a group/version directory
            "go.mod": "module k8s.io/api\n",
        },
        "k8s.io/api 1.33",
        tag="v0.33.0",
        annotated=True,
    )
    commits["1.34"] = commit_tree(
        repo,
        {"core/v1/zz_generated.prerelease-lifecycle.go": CORE_LIFECYCLE + lifecycle_func("Pod", "Removed", "minorOf()")},
        "unreadable lifecycle function",
        tag="v0.34.0",
    )
    return {"path": repo, "commits": commits}


def key_paths(document: dict) -> tuple[list, list, list]:
    gv = document["groupVersions"][0]
    return list(document), list(gv), list(gv["kinds"][0])


def test_apis_written_in_the_bundled_schema(api_repo: dict, tmp_path: Path) -> None:
    repo, commit, out = api_repo["path"], api_repo["commits"]["1.33"], tmp_path / "out"

    report = refresh_apis(repo, out, ["1.33"])

    assert report.releases_written == ("1.33",)
    text = (out / "apis/v1.33.yaml").read_text()
    assert text.startswith("# Built-in API group/versions in k8s.io/api at tag v0.33.0 (Kubernetes 1.33).\n")
    document = yaml.safe_load(text)
    bundled = yaml.safe_load((BUNDLED / "apis/v1.33.yaml").read_text())
    assert key_paths(document) == key_paths(bundled)
    assert document["release"] == "1.33" and document["status"] == "release"
    assert document["source"]["tag"] == "v0.33.0"
    assert document["source"]["commit"] == commit
    assert document["source"]["commitDate"] == git(repo, "log", "-1", "--format=%ci", commit)
    assert document["groupVersionCount"] == 3
    by_dir = {gv["directory"]: gv for gv in document["groupVersions"]}
    assert list(by_dir) == ["batch/v1beta1", "core/v1", "node/v1alpha1"]

    core = by_dir["core/v1"]
    assert (core["group"], core["version"], core["groupVersion"], core["stage"]) == ("", "v1", "v1", "GA")
    assert core["lifecycleFile"] is True and core["kindCount"] == 2
    assert [(k["kind"], k["isList"], k["introduced"]) for k in core["kinds"]] == [
        ("Pod", False, "1.0"),
        ("PodList", True, "1.0"),
        ("List", False, "1.0"),
    ]

    batch = by_dir["batch/v1beta1"]
    assert (batch["groupVersion"], batch["stage"], batch["kindCount"]) == ("batch/v1beta1", "beta", 1)
    assert batch["kinds"][0] == {
        "kind": "CronJob",
        "isList": False,
        "introduced": "1.8",
        "deprecated": "1.21",
        "removed": "1.25",
        "replacement": "batch/v1/CronJob",
        "removedAsOfRelease": True,
    }

    node = by_dir["node/v1alpha1"]
    assert (node["groupVersion"], node["stage"], node["lifecycleFile"]) == ("node.k8s.io/v1alpha1", "alpha", False)
    assert node["kinds"][1] == {
        "kind": "RuntimeClassList",
        "isList": True,
        "introduced": None,
        "deprecated": None,
        "removed": None,
        "replacement": None,
        "removedAsOfRelease": False,
    }


def test_removed_as_of_release_compares_with_the_release() -> None:
    assert refresh_apis_module.removed_as_of(25, "1.25") is True
    assert refresh_apis_module.removed_as_of(24, "1.25") is False
    assert refresh_apis_module.removed_as_of(33, None) is False


def test_lifecycle_csv_regenerated_with_the_bundled_columns(api_repo: dict, tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "apis").mkdir(parents=True)
    bundled_csv = (BUNDLED / "apis/lifecycle.csv").read_bytes()
    (out / "apis/lifecycle.csv").write_bytes(bundled_csv)

    report = refresh_apis(api_repo["path"], out, ["1.33"])

    with (out / "apis/lifecycle.csv").open(newline="") as handle:
        rows = list(csv.reader(handle))
    with (BUNDLED / "apis/lifecycle.csv").open(newline="") as handle:
        bundled_rows = list(csv.reader(handle))
    assert rows[0] == bundled_rows[0]
    refreshed = [row for row in rows if row[0] == "1.33"]
    assert refreshed == [
        ["1.33", "batch", "v1beta1", "CronJob", "beta", "1.8", "1.21", "1.25", "batch/v1/CronJob", "false", "true", "zz_generated.prerelease-lifecycle.go"],
        ["1.33", "batch", "v1beta1", "CronJobList", "beta", "1.8", "1.21", "1.25", "batch/v1/CronJobList", "true", "true", "zz_generated.prerelease-lifecycle.go"],
        ["1.33", "", "v1", "Pod", "GA", "1.0", "", "", "", "false", "false", "zz_generated.prerelease-lifecycle.go"],
        ["1.33", "", "v1", "PodList", "GA", "1.0", "", "", "", "true", "false", "zz_generated.prerelease-lifecycle.go"],
        ["1.33", "", "v1", "List", "GA", "1.0", "", "", "", "false", "false", "zz_generated.prerelease-lifecycle.go"],
        ["1.33", "node.k8s.io", "v1alpha1", "RuntimeClass", "alpha", "", "", "", "", "false", "false", "none"],
        ["1.33", "node.k8s.io", "v1alpha1", "RuntimeClassList", "alpha", "", "", "", "", "true", "false", "none"],
    ]
    # the other releases' rows are kept verbatim and in release order
    assert [row for row in rows if row[0] != "1.33"] == [row for row in bundled_rows if row[0] != "1.33"]
    assert [row[0] for row in rows[1:]] == sorted((row[0] for row in rows[1:]), key=lambda r: int(r.split(".")[1]))
    assert (out / "apis/lifecycle.csv").read_bytes().count(b"\r\n") == len(rows)  # the bundled line ends
    assert any("kept the existing rows of 1.31, 1.32, 1.34" in note for note in report.notes)


def test_regenerating_the_bundled_csv_from_the_bundled_yaml_is_exact() -> None:
    """The CSV writer reproduces data/apis/lifecycle.csv from data/apis/v1.*.yaml byte for byte."""
    documents = [yaml.safe_load(p.read_text()) for p in sorted(BUNDLED.glob("apis/v1.*.yaml"))]
    text = refresh_apis_module.lifecycle_csv_text({d["release"]: refresh_apis_module.lifecycle_rows(d) for d in documents})
    assert text.encode() == (BUNDLED / "apis/lifecycle.csv").read_bytes()


def test_bundled_api_yaml_round_trips_through_the_writer() -> None:
    """The YAML writer lays a document out exactly like the bundled files."""
    raw = (BUNDLED / "apis/v1.33.yaml").read_text()
    body = raw[raw.index("release:") :]
    assert refresh_apis_module.api_file_text(yaml.safe_load(raw), "") == body


def test_unreadable_lifecycle_function_skips_the_release(api_repo: dict, tmp_path: Path) -> None:
    out = tmp_path / "out"
    report = refresh_apis(api_repo["path"], out, None)
    assert report.releases_written == ("1.33",)
    (skip,) = report.skipped
    assert skip.release == "1.34"
    assert "core/v1/zz_generated.prerelease-lifecycle.go" in skip.reason and "4 APILifecycle functions" in skip.reason
    assert not (out / "apis/v1.34.yaml").exists()


# ---------------------------------------------------------------------------------------------
# CLI wiring


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="kcompat data refresh")
    add_refresh_arguments(parser)
    return parser.parse_args(list(argv))


def test_arguments_and_defaults() -> None:
    args = parse("--release", "1.33", "--release", "1.34")
    assert args.release == ["1.33", "1.34"]
    assert args.out == BUNDLED
    assert args.kubernetes_repo is None and args.api_repo is None


def test_bad_release_is_an_argument_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        parse("--release", "v1.33")
    assert exc.value.code == 2
    assert 'release "v1.33": expected 1.N' in capsys.readouterr().err


def test_run_refresh_writes_and_prints_a_report(kubernetes_repo: dict, api_repo: dict, tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    code = run_refresh(parse("--kubernetes-repo", str(kubernetes_repo["path"]), "--api-repo", str(api_repo["path"]), "--out", str(out)))
    printed = capsys.readouterr()
    assert code == 0, printed.err
    assert (out / "features/v1.33.yaml").exists() and (out / "apis/v1.33.yaml").exists()
    assert "releases written: 1.31, 1.33, 1.35" in printed.out
    assert "wrote   apis/lifecycle.csv" in printed.out
    assert "skipped 1.36: invalid manifest at v1.36.0" in printed.out
    assert "Traceback" not in printed.out + printed.err


@pytest.mark.parametrize("option", ["--kubernetes-repo", "--api-repo"])
def test_not_a_git_repository_exits_2_with_a_message(option: str, tmp_path: Path, capsys) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    out = tmp_path / "out"
    assert run_refresh(parse(option, str(plain), "--out", str(out))) == 2
    err = capsys.readouterr().err
    assert f"{option} {plain}: not a git repository" in err
    assert "Traceback" not in err
    assert not out.exists()


def test_missing_path_and_subdirectory_exit_2(kubernetes_repo: dict, tmp_path: Path, capsys) -> None:
    assert run_refresh(parse("--kubernetes-repo", str(tmp_path / "nope"), "--out", str(tmp_path / "o"))) == 2
    assert "no such directory" in capsys.readouterr().err
    sub = kubernetes_repo["path"] / "test"
    sub.mkdir(exist_ok=True)
    assert run_refresh(parse("--kubernetes-repo", str(sub), "--out", str(tmp_path / "o"))) == 2
    assert "not the top of a git repository" in capsys.readouterr().err


def test_a_bad_second_repository_stops_before_anything_is_written(kubernetes_repo: dict, tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    args = parse("--kubernetes-repo", str(kubernetes_repo["path"]), "--api-repo", str(tmp_path), "--out", str(out))
    assert run_refresh(args) == 2
    assert "--api-repo" in capsys.readouterr().err
    assert not out.exists()


def test_nothing_to_do_and_repository_without_release_tags_exit_2(tmp_path: Path, capsys) -> None:
    assert run_refresh(parse("--out", str(tmp_path / "o"))) == 2
    assert "nothing to refresh" in capsys.readouterr().err
    empty = new_repo(tmp_path / "empty")
    commit_tree(empty, {"a": "b\n"}, "one", tag="v2.0.0")
    assert run_refresh(parse("--kubernetes-repo", str(empty), "--out", str(tmp_path / "o"))) == 2
    assert "no release tags v1.N.0" in capsys.readouterr().err


def test_out_that_is_a_file_exits_2(kubernetes_repo: dict, tmp_path: Path, capsys) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    assert run_refresh(parse("--kubernetes-repo", str(kubernetes_repo["path"]), "--out", str(target))) == 2
    assert "not a directory" in capsys.readouterr().err
