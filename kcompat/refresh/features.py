"""Feature-gate manifests from a kubernetes/kubernetes checkout: the generated lists at ``v1.N.0``,
the dependency map of ``pkg/features/kube_features.go`` and client-go's known features."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from ..core.errors import KcompatError
from ..core.manifest import Feature
from ..core.registration import (
    check_manifest_dependencies,
    load_manifest_bytes,
    merge_features,
)
from .common import (
    GateRename,
    GitRepository,
    RefreshError,
    RefreshReport,
    SkippedRelease,
    checked_out_dir,
    open_git_repository,
    release_tags,
    write_file_atomically,
)
from .gosource import (
    MAX_GO_SOURCE_CHARS,
    client_go_features,
    dependency_map,
    registers_client_features_versioned,
)

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any


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
#: No Go source blob is read past this size (checked with ``git cat-file -s`` before reading).
MAX_GO_BLOB_BYTES = MAX_GO_SOURCE_CHARS
#: At most this many files of one imported Go package are read to resolve feature names.
MAX_PACKAGE_FILES = 64

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
    release: str, repo: GitRepository, tag: str, commit: str, manifest: UpstreamManifest, dependencies: dict[str, Any] | None = None
) -> str:
    kind = "UNVERSIONED feature gates" if "unversioned" in Path(manifest.path).name else "feature-gate manifest"
    lines = [
        f"Kubernetes {release} {kind}: the upstream generated list at the release tag.",
        "Written by `kcompat data refresh` (kcompat/refresh/) from a kubernetes/kubernetes git checkout:",
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
    found, skipped = release_tags(repo, releases, "v1.", "--kubernetes-repo")
    written: list[Path] = []
    removed: list[Path] = []
    renames: list[GateRename] = []
    done: list[str] = []
    notes: list[str] = []
    for minor, release, tag in found:
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
    features: list[Feature] = []
    sources: list[str] = []
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


def client_go_manifest_text(header_lines: list[str], items: list[dict[str, Any]]) -> str:
    """A client-go features file in the bundled manifest layout."""
    body: str = yaml.safe_dump(items, sort_keys=False, default_flow_style=False)
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
    client_go: tuple[dict[str, Any], ...] | None
    client_go_versioned: bool | None
    notes: tuple[str, ...]


def go_source_at(repo: GitRepository, tag: str, path: str) -> str:
    return repo.read(tag, path, MAX_GO_BLOB_BYTES).decode("utf-8", "replace")


def package_reader(repo: GitRepository, tag: str) -> Callable[[str], list[tuple[str, str]]]:
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
        "Written by `kcompat data refresh` (kcompat/refresh/) from a kubernetes/kubernetes git checkout:",
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


