"""Rebuild the bundled data files from real git checkouts (``kcompat data refresh``).

Two sources, both read at release tags with ``git show <tag>:<path>`` and
``git ls-tree -r --name-only <tag>`` (nothing is ever checked out):

* a kubernetes/kubernetes checkout: the generated feature-gate manifests at ``v1.N.0``
  (``test/compatibility_lifecycle/reference/`` from 1.33 on, ``test/featuregates_linter/test_data/``
  before), copied unchanged below a provenance header into ``features/v1.N[-unversioned].yaml``,
  except that the two gates older lists name by their Go identifier get their flag name
  (data/SOURCES.md section 9);
* a k8s.io/api checkout: group/versions, kinds and prerelease-lifecycle data at ``v0.N.0``
  (= Kubernetes 1.N), written as ``apis/v1.N.yaml`` plus ``apis/lifecycle.csv``.

Every manifest is validated with :func:`load_manifest_bytes` before anything of its release is
written; a release without data at its tag is reported, never invented. ``SOURCES.md`` and
``releases.yaml`` are not touched. No Streamlit here: the CLI calls :func:`add_refresh_arguments`
and :func:`run_refresh`.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from .bundle import rebuild_after_refresh
from .core.errors import KcompatError
from .core.manifest import DEFAULT_MAX_BYTES, Feature, check_manifest_dependencies, load_manifest_bytes, merge_features
from .gosource import (
    MAX_GO_SOURCE_CHARS,
    client_go_features,
    const_string,
    dependency_map,
    go_tokens,
    known_types,
    lifecycle_functions,
    registers_client_features_versioned,
    returned_fields,
    returned_version,
)

from . import DATA_DIR  # noqa: E402 - data/ of the checkout, or of the installed package
FIRST_MINOR = 31  # the oldest release the dashboard covers (first with compatibility versions)

NEW_VERSIONED = "test/compatibility_lifecycle/reference/versioned_feature_list.yaml"
NEW_UNVERSIONED = "test/compatibility_lifecycle/reference/unversioned_feature_list.yaml"
OLD_VERSIONED = "test/featuregates_linter/test_data/versioned_feature_list.yaml"
OLD_UNVERSIONED = "test/featuregates_linter/test_data/unversioned_feature_list.yaml"
#: Newer location first: at a tag that has both, the newer one is the maintained list.
VERSIONED_PATHS = (NEW_VERSIONED, OLD_VERSIONED)
UNVERSIONED_PATHS = (NEW_UNVERSIONED, OLD_UNVERSIONED)

#: Upstream lists before 1.37 wrote these gates under their Go identifier (SOURCES.md section 9).
GO_IDENTIFIER_TO_FLAG_NAME = {
    "CPUCFSQuotaPeriod": "CustomCPUCFSQuotaPeriod",
    "RuntimeClassInImageCriAPI": "RuntimeClassInImageCriApi",
}

REGISTER_FILE = "register.go"
LIFECYCLE_FILE = "zz_generated.prerelease-lifecycle.go"
LIFECYCLE_CSV = "lifecycle.csv"
LIFECYCLE_CSV_COLUMNS = (
    "release", "group", "version", "kind", "stage", "introduced", "deprecated", "removed",
    "replacement", "is_list", "removed_as_of_release", "lifecycle_source",
)  # fmt: skip

_RELEASE = re.compile(r"1\.(\d{1,4})")
_API_VERSION = re.compile(r"v\d{1,4}(?:(alpha|beta)\d{1,4})?")
#: No blob is read past these sizes (checked with ``git cat-file -s`` before reading).
MAX_MANIFEST_BLOB_BYTES = DEFAULT_MAX_BYTES
MAX_GO_BLOB_BYTES = MAX_GO_SOURCE_CHARS
#: Any git command's output is bounded (a tree listing of kubernetes is ~2 MB) and so is its time.
MAX_GIT_OUTPUT_BYTES = 64 * 1024 * 1024
GIT_TIMEOUT_SECONDS = 120
#: At most this many files of one imported Go package are read to resolve feature names.
MAX_PACKAGE_FILES = 64


class RefreshError(KcompatError):
    """Bad input to a refresh: a path that is not a git repository, a malformed release, ..."""


# ---------------------------------------------------------------------------------------------
# The report.


@dataclass(frozen=True)
class SkippedRelease:
    release: str
    reason: str


@dataclass(frozen=True)
class GateRename:
    release: str
    file: str
    go_identifier: str
    flag_name: str


@dataclass(frozen=True)
class RefreshReport:
    """What one refresh wrote, removed and skipped. Paths are absolute."""

    what: str  # "features" | "apis"
    repository: Path
    out_dir: Path
    written: tuple[Path, ...] = ()
    removed: tuple[Path, ...] = ()
    skipped: tuple[SkippedRelease, ...] = ()
    renames: tuple[GateRename, ...] = ()
    notes: tuple[str, ...] = ()
    releases_written: tuple[str, ...] = ()

    def summary_lines(self) -> list[str]:
        def shown(path: Path) -> str:
            try:
                return str(path.relative_to(self.out_dir))
            except ValueError:
                return str(path)

        lines = [f"{self.what} from {self.repository} -> {self.out_dir}"]
        lines.append(f"  releases written: {', '.join(self.releases_written) or 'none'}")
        lines += [f"  wrote   {shown(p)}" for p in self.written]
        lines += [f"  removed {shown(p)}" for p in self.removed]
        lines += [
            f"  renamed {r.go_identifier} -> {r.flag_name} (Go identifier -> flag name) in {r.file}" for r in self.renames
        ]
        for skip in self.skipped:
            first, *rest = skip.reason.splitlines() or [""]
            lines.append(f"  skipped {skip.release}: {first}")
            lines += [f"    {line}" for line in rest]
        lines += [f"  note: {note}" for note in self.notes]
        return lines


# ---------------------------------------------------------------------------------------------
# Git access (read-only: show, ls-tree, tag, rev-parse, log).


@dataclass(frozen=True)
class GitRepository:
    path: Path

    def run(self, *args: str, max_output: int = MAX_GIT_OUTPUT_BYTES) -> bytes:
        """``git <args>``'s output; refused (process stopped) past ``max_output`` bytes or
        ``GIT_TIMEOUT_SECONDS``, so no repository can make a refresh hold unbounded memory or time."""
        command = ["git", "-C", str(self.path), *args]
        try:
            with tempfile.TemporaryFile() as errors:
                process = subprocess.Popen(
                    command,
                    stdout=subprocess.PIPE,
                    stderr=errors,
                    env={**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"},
                )
                try:
                    data = _read_bounded(process, max_output)
                    returncode = process.wait(timeout=GIT_TIMEOUT_SECONDS)
                except (subprocess.TimeoutExpired, _OutputTooLarge) as exc:
                    process.kill()
                    process.wait()
                    what = "took too long" if isinstance(exc, subprocess.TimeoutExpired) else f"wrote more than {max_output:,} bytes"
                    raise RefreshError(f"git {' '.join(args)[:200]} in {self.path} {what}; stopped") from None
                errors.seek(0)
                stderr = errors.read(4096)
        except FileNotFoundError:
            raise RefreshError("git is not installed (no 'git' on PATH)") from None
        if returncode != 0:
            message = stderr.decode("utf-8", "replace").strip() or f"exit status {returncode}"
            raise RefreshError(f"git {' '.join(args)[:200]} in {self.path} failed: {message}")
        return data

    def text(self, *args: str) -> str:
        return self.run(*args).decode("utf-8", "replace")

    def tags(self) -> frozenset[str]:
        return frozenset(self.text("tag", "--list").split())

    def commit_of(self, tag: str) -> str:
        return self.text("rev-parse", "--verify", "--quiet", f"{tag}^{{commit}}").strip()

    def commit_date_of(self, tag: str) -> str:
        return self.text("log", "-1", "--format=%ci", f"{tag}^{{commit}}").strip()

    def files_at(self, tag: str, *paths: str) -> frozenset[str]:
        """All file paths at ``tag`` (restricted to ``paths`` when given)."""
        return frozenset(self.text("ls-tree", "-r", "--name-only", tag, "--", *paths).splitlines())

    def size_of(self, tag: str, path: str) -> int:
        """The size of the blob ``tag:path`` in bytes (``git cat-file -s``), without reading it."""
        text = self.text("cat-file", "-s", f"{tag}:{path}").strip()
        if not text.isdigit() or len(text) > 15:
            raise RefreshError(f"git cat-file -s {tag}:{path} in {self.path}: unexpected answer {text[:40]!r}")
        return int(text)

    def read(self, tag: str, path: str, max_bytes: int = MAX_MANIFEST_BLOB_BYTES) -> bytes:
        """The blob ``tag:path``; its size is checked first, so an oversized blob is never read."""
        size = self.size_of(tag, path)
        if size > max_bytes:
            raise RefreshError(f"{tag}:{path} is {size:,} bytes, larger than the limit of {max_bytes:,} bytes; not read")
        data = self.run("cat-file", "blob", f"{tag}:{path}", max_output=max_bytes)
        if len(data) > max_bytes:  # the object changed under us
            raise RefreshError(f"{tag}:{path} is larger than the limit of {max_bytes:,} bytes; not read")
        return data


class _OutputTooLarge(Exception):
    pass


def _read_bounded(process: subprocess.Popen, limit: int) -> bytes:
    chunks, total = [], 0
    deadline = time.monotonic() + GIT_TIMEOUT_SECONDS
    while True:
        chunk = process.stdout.read(1 << 16)
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if total > limit:
            raise _OutputTooLarge
        if time.monotonic() > deadline:
            raise subprocess.TimeoutExpired(process.args, GIT_TIMEOUT_SECONDS)
        chunks.append(chunk)


def open_git_repository(path: Path | str, option: str) -> GitRepository:
    """The repository at ``path`` (its top level, or a bare repository); RefreshError otherwise."""
    where = Path(path).expanduser()
    if not where.exists():
        raise RefreshError(f"{option} {where}: no such directory")
    if not where.is_dir():
        raise RefreshError(f"{option} {where}: not a directory")
    repo = GitRepository(where.resolve())
    try:
        bare = repo.text("rev-parse", "--is-bare-repository").strip() == "true"
        top = None if bare else repo.text("rev-parse", "--show-toplevel").strip()
    except RefreshError:
        raise RefreshError(f"{option} {where}: not a git repository") from None
    if top is not None and Path(top).resolve() != repo.path:
        raise RefreshError(f"{option} {where}: not the top of a git repository (that is {top}); pass {top}")
    return repo


# ---------------------------------------------------------------------------------------------
# Releases and tags.


def minor_of_release(release: str) -> int:
    """``"1.33"`` -> 33; RefreshError for anything that is not ``1.N``."""
    match = _RELEASE.fullmatch(release.strip())
    if match is None:
        raise RefreshError(f'release "{release}": expected 1.N (for example 1.33)')
    return int(match.group(1))


def requested_minors(releases: Sequence[str] | None, tags: Iterable[str], tag_prefix: str) -> list[int]:
    """The minors to refresh: those asked for, else every ``<prefix>N.0`` tag with N >= 31."""
    if releases:
        return sorted({minor_of_release(r) for r in releases})
    pattern = re.compile(re.escape(tag_prefix) + r"(\d{1,4})\.0")
    found = {int(m.group(1)) for m in map(pattern.fullmatch, tags) if m}
    return sorted(n for n in found if n >= FIRST_MINOR)


def _release(minor: int) -> str:
    return f"1.{minor}"


# ---------------------------------------------------------------------------------------------
# Writing.


def write_file_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def checked_out_dir(out_dir: Path | str) -> Path:
    out = Path(out_dir).expanduser()
    if out.exists() and not out.is_dir():
        raise RefreshError(f"--out {out}: not a directory")
    return out.resolve()


# ---------------------------------------------------------------------------------------------
# Feature manifests.


@dataclass(frozen=True)
class UpstreamManifest:
    """One manifest file read at a tag, ready to write (renames applied, validated)."""

    path: str
    text: str
    renames: tuple[tuple[str, str], ...]


def first_present(candidates: Sequence[str], files: frozenset[str]) -> str | None:
    return next((path for path in candidates if path in files), None)


def rename_go_identifiers(text: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """Give the gates upstream lists name by Go identifier their flag name, in place.

    Rewrites ``- name: <ident>`` items and ``- <ident>`` dependency items (optionally quoted);
    everything else, including the position of the gate in the list, stays as upstream wrote it.
    Line by line with plain string operations (linear in the text)."""
    done: dict[str, str] = {}
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        renamed = _renamed_item(line)
        if renamed is not None:
            lines[i], identifier = renamed
            done[identifier] = GO_IDENTIFIER_TO_FLAG_NAME[identifier]
    ordered = tuple((k, v) for k, v in GO_IDENTIFIER_TO_FLAG_NAME.items() if k in done)
    return "".join(lines), ordered


def _renamed_item(line: str) -> tuple[str, str] | None:
    """``line`` with a Go identifier of a list item replaced by its flag name, and the identifier."""
    body = line.rstrip("\r\n")
    ending = line[len(body) :]
    indent = body[: len(body) - len(body.lstrip(" \t"))]
    rest = body[len(indent) :]
    if not rest.startswith("-") or rest[1:2] not in (" ", "\t"):
        return None
    after_dash = rest[1:]
    lead = after_dash[: len(after_dash) - len(after_dash.lstrip(" \t"))]
    item = after_dash[len(lead) :]
    prefix = ""
    if item.startswith("name:"):
        value = item[len("name:") :]
        prefix = "name:" + value[: len(value) - len(value.lstrip(" \t"))]
        item = value.lstrip(" \t")
    value, hash_, comment = item.partition("#")
    trailing = value[len(value.rstrip(" \t")) :]
    value = value.rstrip(" \t")
    quote = value[0] if value[:1] in ("'", '"') and len(value) >= 2 and value[-1] == value[0] else ""
    identifier = value[1:-1] if quote else value
    if identifier not in GO_IDENTIFIER_TO_FLAG_NAME:
        return None
    flag_name = GO_IDENTIFIER_TO_FLAG_NAME[identifier]
    return f"{indent}-{lead}{prefix}{quote}{flag_name}{quote}{trailing}{hash_}{comment}{ending}", identifier


def prepared_manifest(repo: GitRepository, tag: str, path: str) -> UpstreamManifest:
    """Read ``tag:path``, rename Go identifiers and validate; KcompatError when invalid."""
    source = f"{tag}:{path}"
    data = repo.read(tag, path)
    load_manifest_bytes(data, source)  # the upstream text itself (also rejects non-UTF-8)
    text, renames = rename_go_identifiers(data.decode("utf-8"))
    if renames:
        load_manifest_bytes(text, f"{source} (after renaming Go identifiers)")
    return UpstreamManifest(path, text, renames)


def feature_file_header(
    release: str, repo: GitRepository, tag: str, commit: str, manifest: UpstreamManifest, dependencies: dict | None = None
) -> str:
    kind = "UNVERSIONED feature gates" if "unversioned" in Path(manifest.path).name else "feature-gate manifest"
    lines = [
        f"Kubernetes {release} {kind}: the upstream generated list at the release tag.",
        "Written by `kcompat data refresh` (dashboard/refresh.py) from a kubernetes/kubernetes git checkout:",
        f"  repository: {repo.path}",
        f"  tag:        {tag}",
        f"  commit:     {commit}",
        f"  path:       {manifest.path}",
    ]
    if manifest.renames:
        pairs = ", ".join(f"{old} -> {new}" for old, new in manifest.renames)
        lines += [
            f"Gate names changed from the upstream Go identifier to the flag name --feature-gates accepts: {pairs}",
            "  (data/SOURCES.md section 9); the gates keep their upstream position in the list.",
            "Below: the upstream file, otherwise unchanged.",
        ]
    elif dependencies is None:
        lines.append("Below: the upstream file, unchanged.")
    if dependencies is not None:
        edges = sum(len(d) for d in dependencies.values())
        lines += [
            f"dependencies: the {edges} edges of defaultKubernetesFeatureGateDependencies in {KUBE_FEATURES_GO} at {tag}",
            "  (registered with AddDependencies), as sorted lists between name: and versionedSpecs:; otherwise the upstream file.",
        ]
    return "".join(f"# {line}\n" for line in lines) + "\n"


def feature_file_name(minor: int, unversioned: bool) -> str:
    return f"v1.{minor}{'-unversioned' if unversioned else ''}.yaml"


def refresh_features(kubernetes_repo: Path, out_dir: Path, releases: list[str] | None = None) -> RefreshReport:
    """Copy the feature-gate manifests at each ``v1.N.0`` tag into ``out_dir/features``."""
    repo = open_git_repository(kubernetes_repo, "--kubernetes-repo")
    out = checked_out_dir(out_dir)
    tags = repo.tags()
    minors = requested_minors(releases, tags, "v1.")
    if not minors:
        raise RefreshError(f"--kubernetes-repo {repo.path}: no release tags v1.N.0 with N >= {FIRST_MINOR}")
    written: list[Path] = []
    removed: list[Path] = []
    skipped: list[SkippedRelease] = []
    renames: list[GateRename] = []
    done: list[str] = []
    notes: list[str] = []
    for minor in minors:
        release, tag = _release(minor), f"v1.{minor}.0"
        if tag not in tags:
            skipped.append(SkippedRelease(release, f"no tag {tag} in the repository"))
            continue
        files = repo.files_at(tag, *VERSIONED_PATHS, *UNVERSIONED_PATHS)
        versioned_path = first_present(VERSIONED_PATHS, files)
        unversioned_path = first_present(UNVERSIONED_PATHS, files)
        if versioned_path is None:
            where = " or ".join(VERSIONED_PATHS)
            skipped.append(SkippedRelease(release, f"no feature manifest at {tag} (looked for {where})"))
            continue
        try:
            manifests = {False: prepared_manifest(repo, tag, versioned_path)}
            if unversioned_path is not None:
                manifests[True] = prepared_manifest(repo, tag, unversioned_path)
                _check_no_gate_in_both(manifests, tag)
        except KcompatError as exc:
            skipped.append(SkippedRelease(release, f"invalid manifest at {tag}, nothing written for {release}:\n{exc}"))
            continue
        try:
            go = release_go_data(repo, tag, release)
            if go.dependencies is not None:
                manifests[False] = replace(manifests[False], text=with_dependencies(manifests[False].text, go.dependencies))
            commit = repo.commit_of(tag)
            client_go_text = client_go_file_text(release, repo, tag, commit, go) if go.client_go is not None else None
            _check_release_gate_set(manifests, client_go_text, tag, minor)
        except KcompatError as exc:
            skipped.append(SkippedRelease(release, f"cannot use the Go source at {tag}, nothing written for {release}:\n{exc}"))
            continue
        for unversioned, manifest in manifests.items():
            target = out / "features" / feature_file_name(minor, unversioned)
            dependencies = go.dependencies if not unversioned else None
            write_file_atomically(target, feature_file_header(release, repo, tag, commit, manifest, dependencies) + manifest.text)
            written.append(target)
            renames += [GateRename(release, str(target.relative_to(out)), old, new) for old, new in manifest.renames]
        if client_go_text is not None:
            target = out / "features" / client_go_file_name(minor)
            write_file_atomically(target, client_go_text)
            written.append(target)
        notes += go.notes
        stale = out / "features" / feature_file_name(minor, unversioned=True)
        if True not in manifests and stale.exists():
            stale.unlink()  # a release's gates come from one tag: an older unversioned file would be mixed in
            removed.append(stale)
        done.append(release)
    if done:
        notes.append("data/SOURCES.md and data/releases.yaml are not updated by a refresh; record the new provenance there")
    return RefreshReport("features", repo.path, out, tuple(written), tuple(removed), tuple(skipped), tuple(renames), tuple(notes), tuple(done))


def _check_no_gate_in_both(manifests: dict[bool, UpstreamManifest], tag: str) -> None:
    """The dashboard loads the two lists of a release together; a gate may be in only one."""
    features, sources = [], []
    for manifest in manifests.values():
        source = f"{tag}:{manifest.path}"
        features.extend(load_manifest_bytes(manifest.text, source))
        sources.append(source)
    merge_features(features, sources)


# ---------------------------------------------------------------------------------------------
# Dependencies (kube_features.go) and client-go's features (client-go/features/known_features.go).


def with_dependencies(text: str, dependencies: dict[str, tuple[str, ...]]) -> str:
    """``text`` (a manifest in the bundled layout) with each gate's ``dependencies:`` list
    replaced by ``dependencies[gate]``: a sorted list between ``- name:`` and ``versionedSpecs:``,
    no key for a gate without dependencies; every other line unchanged. Line by line (linear)."""
    out: list[str] = []
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.rstrip("\r\n")
        if stripped.rstrip() == "  dependencies:":
            i += 1
            while i < len(lines) and lines[i].startswith("  - "):
                i += 1
            continue
        out.append(line)
        i += 1
        if stripped.startswith("- name:"):
            name = stripped[len("- name:") :].split("#", 1)[0].strip().strip("\"'")
            deps = dependencies.get(name, ())
            if deps:
                end = "\r\n" if line.endswith("\r\n") else "\n"
                out.append(f"  dependencies:{end}")
                out += [f"  - {dep}{end}" for dep in sorted(deps)]
    return "".join(out)


def client_go_manifest_text(header_lines: list[str], items: list[dict]) -> str:
    """A client-go features file in the bundled manifest layout."""
    body = yaml.safe_dump(items, sort_keys=False, default_flow_style=False)
    return "".join(f"# {line}\n" if line else "#\n" for line in header_lines) + "\n" + body


def client_go_file_name(minor: int) -> str:
    return f"client-go-v1.{minor}.yaml"


KUBE_FEATURES_GO = "pkg/features/kube_features.go"
CLIENT_GO_FEATURES_GO = "staging/src/k8s.io/client-go/features/known_features.go"
STAGING_PREFIX = "staging/src/"
KUBERNETES_MODULE = "k8s.io/kubernetes/"


@dataclass(frozen=True)
class ReleaseGoData:
    """What a release's Go source adds to its upstream list: the dependency map (None before
    1.35) and client-go's features as the kube binary registers them (None when not found)."""

    dependencies: dict[str, tuple[str, ...]] | None
    client_go: tuple[dict, ...] | None
    client_go_versioned: bool | None
    notes: tuple[str, ...]


def go_source_at(repo: GitRepository, tag: str, path: str) -> str:
    return repo.read(tag, path, MAX_GO_BLOB_BYTES).decode("utf-8", "replace")


def package_reader(repo: GitRepository, tag: str):
    """Reads the Go files of an imported package from the checkout (staging packages under
    ``staging/src/``), for resolving ``genericfeatures.X``-style names."""

    def read(import_path: str) -> list[tuple[str, str]]:
        if import_path.startswith(KUBERNETES_MODULE):
            directory = import_path[len(KUBERNETES_MODULE) :]
        elif import_path.startswith("k8s.io/"):
            directory = STAGING_PREFIX + import_path
        else:
            raise RefreshError(f"{tag}: cannot read package {import_path[:200]} from a kubernetes checkout")
        depth = directory.count("/") + 1
        names = sorted(
            p for p in repo.files_at(tag, directory + "/")
            if p.count("/") == depth and p.endswith(".go") and not p.endswith("_test.go")
        )
        if len(names) > MAX_PACKAGE_FILES:
            raise RefreshError(f"{tag}:{directory}: {len(names)} Go files, more than the limit of {MAX_PACKAGE_FILES}")
        return [(f"{tag}:{name}", go_source_at(repo, tag, name)) for name in names]

    return read


def release_go_data(repo: GitRepository, tag: str, release: str) -> ReleaseGoData:
    """The dependency map and the client-go features of a release, from its Go source."""
    files = repo.files_at(tag, KUBE_FEATURES_GO, CLIENT_GO_FEATURES_GO)
    if KUBE_FEATURES_GO not in files:
        return ReleaseGoData(None, None, None, (f"{release}: no {KUBE_FEATURES_GO} at {tag}: no dependencies or client-go gates read",))
    where = f"{tag}:{KUBE_FEATURES_GO}"
    kube_go = go_source_at(repo, tag, KUBE_FEATURES_GO)
    dependencies = dependency_map(kube_go, where, package_reader(repo, tag))
    notes = []
    if dependencies is not None:
        edges = sum(len(d) for d in dependencies.values())
        notes.append(f"{release}: {edges} dependency edges ({len(dependencies)} gates) from {KUBE_FEATURES_GO}")
    versioned = registers_client_features_versioned(kube_go, where)
    client_go = None
    if versioned is None:
        notes.append(f"{release}: {KUBE_FEATURES_GO} at {tag} does not register client-go's features")
    elif CLIENT_GO_FEATURES_GO not in files:
        notes.append(f"{release}: no {CLIENT_GO_FEATURES_GO} at {tag}: no client-go gates written")
    else:
        items = client_go_features(go_source_at(repo, tag, CLIENT_GO_FEATURES_GO), f"{tag}:{CLIENT_GO_FEATURES_GO}", versioned)
        client_go = tuple(items)
        how = "versioned" if versioned else "unversioned (at 0.0)"
        notes.append(f"{release}: {len(items)} client-go gates, registered {how}, from {CLIENT_GO_FEATURES_GO}")
    return ReleaseGoData(dependencies, client_go, versioned, tuple(notes))


def client_go_file_text(release: str, repo: GitRepository, tag: str, commit: str, go: ReleaseGoData) -> str:
    how = (
        "versioned (clientfeatures.AddVersionedFeaturesToExistingFeatureGates: each spec at its version)"
        if go.client_go_versioned
        else "unversioned (clientfeatures.AddFeaturesToExistingFeatureGates: one spec, registered at 0.0)"
    )
    header = [
        f"Kubernetes {release}: the k8s.io/client-go feature gates the release's kube binaries register into their own",
        "--feature-gates (pkg/features/kube_features.go init(): clientAdapter). origin: client-go.",
        f"Registration in {release}: {how}.",
        "Written by `kcompat data refresh` (dashboard/refresh.py) from a kubernetes/kubernetes git checkout:",
        f"  repository: {repo.path}",
        f"  tag:        {tag}",
        f"  commit:     {commit}",
        f"  path:       {CLIENT_GO_FEATURES_GO}",
    ]
    return client_go_manifest_text(header, list(go.client_go or ()))


def _check_release_gate_set(manifests: dict[bool, UpstreamManifest], client_go_text: str | None, tag: str, minor: int) -> None:
    """The files of one release load together as the dashboard loads them: no gate twice, every
    dependency names a registered gate and passes the AddDependencies checks."""
    features: list[Feature] = []
    sources: list[str] = []
    for manifest in manifests.values():
        source = f"{tag}:{manifest.path}"
        features.extend(load_manifest_bytes(manifest.text, source, check_dependencies=False))
        sources.append(source)
    if client_go_text is not None:
        source = f"{tag}:{CLIENT_GO_FEATURES_GO} ({client_go_file_name(minor)})"
        features.extend(replace(f, origin="client-go") for f in load_manifest_bytes(client_go_text, source, check_dependencies=False))
        sources.append(source)
    merged = merge_features(features, sources)
    check_manifest_dependencies(merged.features, " + ".join(sources))


# ---------------------------------------------------------------------------------------------
# k8s.io/api: group/versions, kinds, prerelease lifecycle.


@dataclass(frozen=True)
class KindLifecycle:
    introduced: str | None = None
    deprecated: str | None = None
    removed: str | None = None
    replacement: str | None = None


@dataclass(frozen=True)
class ApiKind:
    kind: str
    lifecycle: KindLifecycle

    @property
    def is_list(self) -> bool:
        return self.kind.endswith("List") and self.kind != "List"


@dataclass(frozen=True)
class GroupVersion:
    group: str
    version: str
    directory: str
    has_lifecycle_file: bool
    kinds: tuple[ApiKind, ...]

    @property
    def group_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    @property
    def stage(self) -> str:
        return stage_of_api_version(self.version)


def stage_of_api_version(version: str) -> str:
    """``v1`` -> GA, ``v1beta2`` -> beta, ``v1alpha3`` -> alpha."""
    match = _API_VERSION.fullmatch(version)
    if match is None:
        raise RefreshError(f"{version!r} is not a Kubernetes API version name")
    return match.group(1) or "GA"


def group_name_in(register_go: str, where: str = "register.go") -> str | None:
    return const_string(go_tokens(register_go, where), "GroupName")


def registered_kinds_in(register_go: str, where: str = "register.go") -> tuple[str, ...]:
    """Types passed to ``AddKnownTypes(SchemeGroupVersion, &A{}, ...)``, in order; types of
    other packages (``&metav1.Status{}``) are not kinds of this group/version."""
    return known_types(go_tokens(register_go, where), where)


_LIFECYCLE_VERSIONS = {"Introduced": "introduced", "Deprecated": "deprecated", "Removed": "removed"}


def lifecycles_in(lifecycle_go: str, where: str) -> dict[str, KindLifecycle]:
    """Per kind, the ``APILifecycle*`` answers; RefreshError if a function cannot be read."""
    fields: dict[str, dict[str, str]] = {}
    functions = lifecycle_functions(go_tokens(lifecycle_go, where), where)
    parsed = 0
    for fn in functions:
        if fn.which in _LIFECYCLE_VERSIONS:
            value = returned_version(fn.body)
            if value is None:
                continue
            fields.setdefault(fn.kind, {})[_LIFECYCLE_VERSIONS[fn.which]] = value
            parsed += 1
        elif fn.which == "Replacement":
            parts = returned_fields(fn.body)
            group_version = f"{parts['Group']}/{parts.get('Version', '')}" if parts.get("Group") else parts.get("Version", "")
            fields.setdefault(fn.kind, {})["replacement"] = f"{group_version}/{parts.get('Kind', '')}"
            parsed += 1
    if parsed != len(functions):
        raise RefreshError(f"{where}: read {parsed} of {len(functions)} APILifecycle functions (unexpected form)")
    return {kind: KindLifecycle(**values) for kind, values in fields.items()}


def group_version_directories(files: frozenset[str]) -> list[str]:
    """``<group>/<version>`` directories with a register.go, sorted like the bundled files."""
    found = []
    for path in files:
        parts = path.split("/")
        if len(parts) == 3 and parts[2] == REGISTER_FILE and _API_VERSION.fullmatch(parts[1]):
            found.append(f"{parts[0]}/{parts[1]}")
    return sorted(found)


def group_versions_at(repo: GitRepository, tag: str) -> tuple[list[GroupVersion], list[str]]:
    """All group/versions of k8s.io/api at ``tag`` and notes on directories left out."""
    files = repo.files_at(tag)
    result: list[GroupVersion] = []
    notes: list[str] = []
    for directory in group_version_directories(files):
        where = f"{tag}:{directory}/{REGISTER_FILE}"
        register_go = repo.read(tag, f"{directory}/{REGISTER_FILE}", MAX_GO_BLOB_BYTES).decode("utf-8", "replace")
        group = group_name_in(register_go, where)
        kinds = registered_kinds_in(register_go, where)
        if group is None or not kinds:
            missing = "no GroupName constant" if group is None else "no AddKnownTypes(SchemeGroupVersion, ...) types"
            notes.append(f"{tag}: left out {directory}: {missing} in {REGISTER_FILE}")
            continue
        lifecycle_path = f"{directory}/{LIFECYCLE_FILE}"
        has_lifecycle = lifecycle_path in files
        lifecycles = (
            lifecycles_in(repo.read(tag, lifecycle_path, MAX_GO_BLOB_BYTES).decode("utf-8", "replace"), f"{tag}:{lifecycle_path}")
            if has_lifecycle
            else {}
        )
        api_kinds = tuple(ApiKind(kind, lifecycles.get(kind, KindLifecycle())) for kind in kinds)
        result.append(GroupVersion(group, directory.split("/")[1], directory, has_lifecycle, api_kinds))
    return result, notes


def removed_as_of(release_minor: int, removed: str | None) -> bool:
    if removed is None:
        return False
    major, minor = (int(part) for part in removed.split("."))
    return (major, minor) <= (1, release_minor)


def api_release_document(minor: int, tag: str, repo: GitRepository, group_versions: list[GroupVersion]) -> dict:
    """The data of ``apis/v1.N.yaml``, keys in the order of the bundled files."""
    return {
        "release": _release(minor),
        "status": "release",
        "source": {
            "repository": f"k8s.io/api (git checkout {repo.path})",
            "tag": tag,
            "commit": repo.commit_of(tag),
            "commitDate": repo.commit_date_of(tag),
        },
        "groupVersionCount": len(group_versions),
        "groupVersions": [
            {
                "group": gv.group,
                "version": gv.version,
                "groupVersion": gv.group_version,
                "directory": gv.directory,
                "stage": gv.stage,
                "lifecycleFile": gv.has_lifecycle_file,
                "kindCount": sum(not kind.is_list for kind in gv.kinds),
                "kinds": [
                    {
                        "kind": kind.kind,
                        "isList": kind.is_list,
                        "introduced": kind.lifecycle.introduced,
                        "deprecated": kind.lifecycle.deprecated,
                        "removed": kind.lifecycle.removed,
                        "replacement": kind.lifecycle.replacement,
                        "removedAsOfRelease": removed_as_of(minor, kind.lifecycle.removed),
                    }
                    for kind in gv.kinds
                ],
            }
            for gv in group_versions
        ],
    }


def api_file_header(minor: int, tag: str) -> str:
    lines = [
        f"Built-in API group/versions in k8s.io/api at tag {tag} (Kubernetes 1.{minor}).",
        "Written by `kcompat data refresh` (dashboard/refresh.py) from a k8s.io/api git checkout (see source:).",
        "EXACT extraction from the tagged source: group = GroupName const in <dir>/register.go, kinds = types passed to",
        "scheme.AddKnownTypes(SchemeGroupVersion, ...), introduced/deprecated/removed/replacement = APILifecycle* funcs in",
        "<dir>/zz_generated.prerelease-lifecycle.go (null where absent). stage is derived from the version name.",
        "removedAsOfRelease is DERIVED: removed <= this release (kube-apiserver stops serving such kinds).",
        "Presence in k8s.io/api does not mean kube-apiserver serves the group/version (e.g. imagepolicy, admission,",
        "apidiscovery are not REST resources; see default-enablement.yaml). Resource (plural) names are not in k8s.io/api.",
    ]
    return "".join(f"# {line}\n" for line in lines)


def api_file_text(document: dict, header: str) -> str:
    return header + yaml.safe_dump(document, sort_keys=False, allow_unicode=True)


def lifecycle_rows(document: dict) -> list[list[str]]:
    """The ``lifecycle.csv`` rows of one ``apis/v1.N.yaml`` document."""

    def cell(value: object) -> str:
        return "" if value is None else str(value).lower() if isinstance(value, bool) else str(value)

    rows = []
    for gv in document["groupVersions"]:
        source = LIFECYCLE_FILE if gv["lifecycleFile"] else "none"
        for kind in gv["kinds"]:
            values = (
                document["release"], gv["group"], gv["version"], kind["kind"], gv["stage"], kind["introduced"],
                kind["deprecated"], kind["removed"], kind["replacement"], kind["isList"], kind["removedAsOfRelease"], source,
            )  # fmt: skip
            rows.append([cell(v) for v in values])
    return rows


def existing_lifecycle_rows(path: Path) -> tuple[dict[str, list[list[str]]], list[str]]:
    """Rows per release of an existing lifecycle.csv (kept for releases not refreshed)."""
    if not path.exists():
        return {}, []
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    if not rows or tuple(rows[0]) != LIFECYCLE_CSV_COLUMNS:
        return {}, [f"{path}: unexpected header, its rows were not kept"]
    by_release: dict[str, list[list[str]]] = {}
    for row in rows[1:]:
        by_release.setdefault(row[0], []).append(row)
    return by_release, []


def _release_sort_key(release: str) -> tuple[int, ...]:
    return tuple(int(part) if part.isdigit() else 0 for part in release.split("."))


def lifecycle_csv_text(rows_by_release: dict[str, list[list[str]]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)  # \r\n line ends, like the bundled file
    writer.writerow(LIFECYCLE_CSV_COLUMNS)
    for release in sorted(rows_by_release, key=_release_sort_key):
        writer.writerows(rows_by_release[release])
    return buffer.getvalue()


def refresh_apis(api_repo: Path, out_dir: Path, releases: list[str] | None = None) -> RefreshReport:
    """Extract ``apis/v1.N.yaml`` from each ``v0.N.0`` tag of k8s.io/api and regenerate lifecycle.csv."""
    repo = open_git_repository(api_repo, "--api-repo")
    out = checked_out_dir(out_dir)
    tags = repo.tags()
    minors = requested_minors(releases, tags, "v0.")
    if not minors:
        raise RefreshError(f"--api-repo {repo.path}: no release tags v0.N.0 with N >= {FIRST_MINOR} (k8s.io/api tags)")
    written: list[Path] = []
    skipped: list[SkippedRelease] = []
    notes: list[str] = []
    documents: dict[str, dict] = {}
    for minor in minors:
        release, tag = _release(minor), f"v0.{minor}.0"
        if tag not in tags:
            skipped.append(SkippedRelease(release, f"no tag {tag} in the repository"))
            continue
        try:
            group_versions, left_out = group_versions_at(repo, tag)
        except KcompatError as exc:
            skipped.append(SkippedRelease(release, f"cannot read the API data at {tag}, nothing written for {release}: {exc}"))
            continue
        notes += left_out
        if not group_versions:
            skipped.append(SkippedRelease(release, f"no <group>/<version>/{REGISTER_FILE} at {tag}: not a k8s.io/api tree"))
            continue
        document = api_release_document(minor, tag, repo, group_versions)
        target = out / "apis" / f"v1.{minor}.yaml"
        write_file_atomically(target, api_file_text(document, api_file_header(minor, tag)))
        written.append(target)
        documents[release] = document
    if documents:
        csv_path = out / "apis" / LIFECYCLE_CSV
        rows, csv_notes = existing_lifecycle_rows(csv_path)
        kept = sorted(set(rows) - set(documents), key=_release_sort_key)
        rows.update({release: lifecycle_rows(document) for release, document in documents.items()})
        write_file_atomically(csv_path, lifecycle_csv_text(rows))
        written.append(csv_path)
        notes += csv_notes
        if kept:
            notes.append(f"{LIFECYCLE_CSV}: kept the existing rows of {', '.join(kept)}")
        notes.append("data/SOURCES.md is not updated by a refresh; record the new provenance there")
    return RefreshReport("apis", repo.path, out, tuple(written), (), tuple(skipped), (), tuple(notes), tuple(documents))


# ---------------------------------------------------------------------------------------------
# CLI wiring (the lead's ``kcompat data refresh`` calls these).


def _release_argument(text: str) -> str:
    try:
        return _release(minor_of_release(text))
    except RefreshError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_refresh_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kubernetes-repo", metavar="PATH", type=Path, help="kubernetes/kubernetes git checkout (tags v1.N.0)")
    parser.add_argument("--api-repo", metavar="PATH", type=Path, help="k8s.io/api git checkout (tags v0.N.0 = Kubernetes 1.N)")
    parser.add_argument("--out", metavar="DIR", type=Path, default=DATA_DIR, help=f"data folder to write into (default: {DATA_DIR})")
    parser.add_argument(
        "--release",
        metavar="1.N",
        type=_release_argument,
        action="append",
        help=f"refresh only this release (repeatable; default: every tag from 1.{FIRST_MINOR} on)",
    )


def run_refresh(args: argparse.Namespace) -> int:
    """Run the refreshes asked for; 0 on success, 2 with a message on bad input."""
    kubernetes_repo = getattr(args, "kubernetes_repo", None)
    api_repo = getattr(args, "api_repo", None)
    releases = list(getattr(args, "release", None) or []) or None
    try:
        if kubernetes_repo is None and api_repo is None:
            raise RefreshError("nothing to refresh: give --kubernetes-repo PATH and/or --api-repo PATH")
        out = checked_out_dir(getattr(args, "out", None) or DATA_DIR)
        for release in releases or []:
            minor_of_release(release)
        # check every input before writing anything
        if kubernetes_repo is not None:
            open_git_repository(kubernetes_repo, "--kubernetes-repo")
        if api_repo is not None:
            open_git_repository(api_repo, "--api-repo")
        reports = []
        if kubernetes_repo is not None:
            reports.append(refresh_features(kubernetes_repo, out, releases))
        if api_repo is not None:
            reports.append(refresh_apis(api_repo, out, releases))
    except KcompatError as exc:
        print(f"kcompat data refresh: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"kcompat data refresh: cannot write: {exc}", file=sys.stderr)
        return 2
    for report in reports:
        print("\n".join(report.summary_lines()))
    print(rebuild_after_refresh(out))  # data/bundle.json, compiled from what was just written
    return 0
