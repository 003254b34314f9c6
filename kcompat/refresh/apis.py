"""Built-in API lifecycle from a k8s.io/api checkout at ``v0.N.0`` (= Kubernetes 1.N): group/versions,
kinds and prerelease-lifecycle data, written as ``apis/v1.N.yaml`` and ``apis/lifecycle.csv``."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..core.apis_data import ApiKind, GroupVersion
from ..core.errors import KcompatError
from ..core.versions import Version, parse_version
from .common import (
    GitRepository,
    RefreshError,
    RefreshReport,
    SkippedRelease,
    checked_out_dir,
    open_git_repository,
    release_of_minor,
    release_tags,
    write_file_atomically,
)
from .features import MAX_GO_BLOB_BYTES
from .gosource import (
    const_string,
    go_tokens,
    known_types,
    lifecycle_functions,
    returned_fields,
    returned_version,
)

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any


REGISTER_FILE = "register.go"
LIFECYCLE_FILE = "zz_generated.prerelease-lifecycle.go"
LIFECYCLE_CSV = "lifecycle.csv"
LIFECYCLE_CSV_COLUMNS = (
    "release", "group", "version", "kind", "stage", "introduced", "deprecated", "removed",
    "replacement", "is_list", "removed_as_of_release", "lifecycle_source",
)  # fmt: skip

_API_VERSION = re.compile(r"v\d{1,4}(?:(alpha|beta)\d{1,4})?")

# ---------------------------------------------------------------------------------------------
# k8s.io/api: group/versions, kinds, prerelease lifecycle.


@dataclass(frozen=True)
class KindLifecycle:
    introduced: str | None = None
    deprecated: str | None = None
    removed: str | None = None
    replacement: str | None = None


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
        version = directory.split("/")[1]
        stage = stage_of_api_version(version)
        api_kinds = tuple(_api_kind(group, version, stage, kind, lifecycles.get(kind, KindLifecycle())) for kind in kinds)
        result.append(GroupVersion(group, version, stage, api_kinds, has_lifecycle, directory))
    return result, notes


def _api_kind(group: str, version: str, stage: str, kind: str, lifecycle: KindLifecycle) -> ApiKind:
    def release(text: str | None) -> Version | None:
        return parse_version(text) if text is not None else None

    return ApiKind(
        group, version, kind, stage, release(lifecycle.introduced), release(lifecycle.deprecated), release(lifecycle.removed),
        lifecycle.replacement, is_list=kind.endswith("List") and kind != "List",
    )


def _text(release: Version | None) -> str | None:
    return str(release) if release is not None else None


def removed_as_of(release_minor: int, removed: str | None) -> bool:
    if removed is None:
        return False
    major, minor = (int(part) for part in removed.split("."))
    return (major, minor) <= (1, release_minor)


def api_release_document(minor: int, tag: str, repo: GitRepository, group_versions: list[GroupVersion]) -> dict[str, Any]:
    """The data of ``apis/v1.N.yaml``, keys in the order of the bundled files."""
    return {
        "release": release_of_minor(minor),
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
                "groupVersion": gv.name,
                "directory": gv.directory,
                "stage": gv.stage,
                "lifecycleFile": gv.has_lifecycle_file,
                "kindCount": sum(not kind.is_list for kind in gv.kinds),
                "kinds": [
                    {
                        "kind": kind.kind,
                        "isList": kind.is_list,
                        "introduced": _text(kind.introduced),
                        "deprecated": _text(kind.deprecated),
                        "removed": _text(kind.removed),
                        "replacement": kind.replacement,
                        "removedAsOfRelease": removed_as_of(minor, _text(kind.removed)),
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
        "Written by `kcompat data refresh` (kcompat/refresh/) from a k8s.io/api git checkout (see source:).",
        "EXACT extraction from the tagged source: group = GroupName const in <dir>/register.go, kinds = types passed to",
        "scheme.AddKnownTypes(SchemeGroupVersion, ...), introduced/deprecated/removed/replacement = APILifecycle* funcs in",
        "<dir>/zz_generated.prerelease-lifecycle.go (null where absent). stage is derived from the version name.",
        "removedAsOfRelease is DERIVED: removed <= this release (kube-apiserver stops serving such kinds).",
        "Presence in k8s.io/api does not mean kube-apiserver serves the group/version (e.g. imagepolicy, admission,",
        "apidiscovery are not REST resources; see default-enablement.yaml). Resource (plural) names are not in k8s.io/api.",
    ]
    return "".join(f"# {line}\n" for line in lines)


def api_file_text(document: dict[str, Any], header: str) -> str:
    body: str = yaml.safe_dump(document, sort_keys=False, allow_unicode=True)
    return header + body


def lifecycle_rows(document: dict[str, Any]) -> list[list[str]]:
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
    found, skipped = release_tags(repo, releases, "v0.", "--api-repo", " (k8s.io/api tags)")
    written: list[Path] = []
    notes: list[str] = []
    documents: dict[str, dict[str, Any]] = {}
    for minor, release, tag in found:
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


