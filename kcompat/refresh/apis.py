"""Built-in API data from the oracle's ``apis.json`` and the live discovery of the real
kube-apiserver (``kcompat data refresh``): ``apis/v1.N.yaml`` and ``apis/lifecycle.csv`` (the
kinds of the three chained apiservers' schemes with their ``APILifecycle*`` values),
``apis/resources/v1.N.yaml`` (what discovery served, with the REST storage installed only while a
gate is on), and the release's entries of ``default-enablement.yaml``, ``scheme-priority.yaml``
and ``storage-overrides.yaml``. The same way for every release."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import re
from pathlib import Path

import yaml

from .common import current_text, write_file_atomically
from .oracle import header_text, recorded
from .verify import ORACLE_DIR, read_recording

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any

LIFECYCLE_CSV_COLUMNS = (
    "release", "group", "version", "kind", "stage", "introduced", "deprecated", "removed",
    "replacement", "is_list", "removed_as_of_release", "lifecycle_source",
)  # fmt: skip
LIFECYCLE_FILE = "zz_generated.prerelease-lifecycle.go"

#: kinds ``metav1.AddToGroupVersion`` registers in every group/version: not types of the group
META_KINDS = frozenset({"WatchEvent", "ListOptions", "GetOptions", "DeleteOptions", "CreateOptions", "UpdateOptions", "PatchOptions"})


def _stage_of(version: str) -> str:
    return "alpha" if "alpha" in version else "beta" if "beta" in version else "GA"


def _gv(group: str, version: str) -> str:
    return f"{group}/{version}" if group else version


def _newest_full(data_dir: Path, minor: int) -> Path | None:
    """The newest recorded patch of 1.``minor`` with the full oracle's apis.json."""
    full = [p for p in recorded(data_dir, minor) if (data_dir / ORACLE_DIR / f"v{p.patch}" / "apis.json").is_file()]
    return data_dir / ORACLE_DIR / f"v{full[-1].patch}" if full else None


def api_release_document(folder: Path, minor: int) -> dict[str, Any]:
    """``apis/v1.N.yaml`` from the scheme kinds the release's three apiservers register."""
    apis = read_recording(folder / "apis.json")
    by_gv: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for k in apis["kinds"]:
        if k["kind"] in META_KINDS:
            continue
        by_gv.setdefault((k["group"], k["version"]), []).append(k)
    group_versions = []
    for (group, version), kinds in sorted(by_gv.items()):
        names = {k["kind"] for k in kinds}
        items = []
        for k in sorted(kinds, key=lambda k: k["kind"]):
            removed = k.get("removed") or None
            items.append({
                "kind": k["kind"],
                "isList": k["kind"].endswith("List") and k["kind"][: -len("List")] in names,
                "introduced": k.get("introduced") or None,
                "deprecated": k.get("deprecated") or None,
                "removed": removed,
                "replacement": k.get("replacement") or None,
                "removedAsOfRelease": bool(removed) and tuple(int(x) for x in str(removed).split(".")) <= (1, minor),
                "server": k["server"],
            })
        group_versions.append({
            "group": group, "version": version, "groupVersion": _gv(group, version), "stage": _stage_of(version),
            "lifecycleFile": any(k.get("introduced") for k in kinds), "kindCount": len(items), "kinds": items,
        })
    return {
        "release": f"1.{minor}",
        "status": f"pre-release ({folder.name})" if "-" in folder.name else "release",
        "source": {"repository": "k8s.io/kubernetes (running code: the schemes of kube-apiserver, apiextensions-apiserver, kube-aggregator)",
                   "tag": folder.name, "commit": ""},
        "groupVersionCount": len(group_versions),
        "groupVersions": group_versions,
    }


def resources_document(folder: Path, minor: int, previous: dict[str, Any] | None) -> dict[str, Any]:  # noqa: C901 - the checks in the order the real code runs them, kept in one place
    """``apis/resources/v1.N.yaml`` from discovery of the real kube-apiserver: every resource any
    recorded run served (with every API and every gate on, and at every emulated version), its kind
    and subresources. Kinds no run served keep the previous file's entry (a resource that is never
    served by this binary, e.g. removed before every emulated version it allows)."""
    seen: dict[tuple[str, str, str], tuple[str, set[str]]] = {}
    for run in sorted((folder / "live").glob("*.json")):
        record = read_recording(run)
        for gv, resources in (record.get("discovery") or {}).items():
            group, _, version = gv.rpartition("/")
            top = {r["name"]: r["kind"] for r in resources if "/" not in r["name"]}
            for r in resources:
                if "/" in r["name"]:
                    parent, sub = r["name"].split("/", 1)
                    if parent in top:
                        seen.setdefault((group, version, top[parent]), (parent, set()))[1].add(sub)
            for name, kind in top.items():
                seen.setdefault((group, version, kind), (name, set()))
    observed = set(seen)
    gated_file = folder / "gated-resources.json"
    gated_items = read_recording(gated_file) if gated_file.is_file() else []
    gated = {(g["group"], g["version"], g["resource"]): g["gate"] for g in gated_items if "subresource" not in g}
    gated_subs: dict[tuple[str, str, str], dict[str, str]] = {}
    for g in gated_items:
        if "subresource" in g:
            gated_subs.setdefault((g["group"], g["version"], g["resource"]), {})[g["subresource"]] = g["gate"]
    kept = 0
    for item in (previous or {}).get("groupVersions", []):
        for r in item.get("resources", []):
            key = (item["group"], item["version"], r["kind"])
            if key not in seen:
                seen[key] = (r["resource"], set(r.get("subresources") or ()))
                kept += 1
    by_gv: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for (group, version, kind), (name, subs) in seen.items():
        entry: dict[str, Any] = {"kind": kind, "resource": name, "subresources": sorted(subs)}
        if (group, version, name) in gated:
            entry["gate"] = gated[(group, version, name)]
        gated_here = {sub: gate for sub, gate in gated_subs.get((group, version, name), {}).items() if sub in subs}
        if gated_here:
            entry["subresourceGates"] = dict(sorted(gated_here.items()))
        if (group, version, kind) not in observed:
            entry["storage"] = False
        by_gv.setdefault((group, version), []).append(entry)
    return {
        "release": f"1.{minor}",
        "source": {"repository": "discovery of the real kube-apiserver (oracle/record.py live runs)", "tag": folder.name, "commit": ""},
        "observed": len(observed),
        "keptFromPrevious": kept,
        "groupVersions": [
            {"group": g, "version": v, "resources": sorted(rs, key=lambda r: r["kind"])} for (g, v), rs in sorted(by_gv.items())
        ],
    }


def enablement_snapshot(folder: Path, minor: int) -> dict[str, Any]:
    """The ``default-enablement.yaml`` entry: the resource configs of the three apiservers."""
    apis = read_recording(folder / "apis.json")
    stable, beta, alpha, legacy = set(), set(), set(), set()
    for server in apis["groupVersionEnabled"].values():
        for gv, on in server.items():
            version = gv.rpartition("/")[2]
            if on:
                stable.add(gv)
            elif "alpha" in version:
                alpha.add(gv)
            elif "beta" in version:
                beta.add(gv)
    for server in apis["resourceEnabled"].values():
        for key, on in server.items():
            if on:
                gv, resource = key.split(" ")
                legacy.add((gv, resource))
    return {
        "id": f"oracle-{folder.name}",
        "repository": f"k8s.io/kubernetes {folder.name} (running code)",
        "path": "pkg/controlplane DefaultAPIResourceConfigSource + apiextensions-apiserver and kube-aggregator DefaultAPIResourceConfigSource",
        "commit": "",
        "release": f"1.{minor}",
        "note": f"Printed by the release's own code (oracle/record.py, data/oracle/{folder.name}/apis.json): GroupVersionConfigs and "
                "ResourceConfigs of the three apiservers kube-apiserver chains; enabled group/versions are listed as stable, disabled ones "
                "by the stage of their version.",
        "stableEnabledByDefault": sorted(stable),
        "legacyBetaResourcesEnabledByDefault": [{"groupVersion": gv, "resource": r} for gv, r in sorted(legacy)],
        "betaDisabledByDefault": sorted(beta),
        "alphaDisabledByDefault": sorted(alpha),
    }


#: the header of each file that holds one entry per release, and the key of its list
RELEASE_LISTS = {
    "default-enablement.yaml": ("snapshots", [
        "Default enablement of built-in API group/versions in kube-apiserver, one entry per release: what the release's own",
        "DefaultAPIResourceConfigSource() of pkg/controlplane, apiextensions-apiserver and kube-aggregator hold",
        "(GroupVersionConfigs, ResourceConfigs), printed by its running code (oracle/record.py, data/oracle/<release>/apis.json).",
        "Enabled group/versions are listed as stable, disabled ones by the stage of their version. Group/versions in none of",
        "the lists are not served by kube-apiserver at all. Regenerate: kcompat data refresh.",
    ]),
    "scheme-priority.yaml": ("releases", [
        "Version priority of each API group in the schemes kube-apiserver chains (PrioritizedVersionsForGroup), highest",
        "first, one entry per release, printed by its running code (oracle/record.py, data/oracle/<release>/apis.json).",
        "Regenerate: kcompat data refresh.",
    ]),
    "storage-overrides.yaml": ("releases", [
        "Per-resource storage-version overrides of kube-apiserver, one entry per release: its storage factory's",
        "ResourceEncodingOverrides (kubeapiserver.NewStorageFactoryConfig), printed by its running code (oracle/record.py,",
        "data/oracle/<release>/apis.json), then the storage versions of the resources of apiextensions-apiserver and",
        "kube-aggregator as their discovery's storageVersionHash names them. Entries: group/version resource (core: v1).",
        "Regenerate: kcompat data refresh.",
    ]),
}


def release_list_text(path: Path, entries: dict[str, dict[str, Any]]) -> str:
    """The file ``path`` (one of :data:`RELEASE_LISTS`) with one entry per release: ``entries``
    for the releases refreshed, the file's own entry for the others, sorted by release. Entries
    that belong to no release (free-text provenance of an earlier method) are not kept."""
    key, header = RELEASE_LISTS[path.name]
    text = current_text(path)  # as this refresh has left it so far
    document = yaml.safe_load(text) if text is not None else None
    kept = {}
    for item in (document or {}).get(key) or []:
        release = str(item.get("release", ""))
        if re.fullmatch(r"1\.[0-9]+", release) and release not in entries:
            kept[release] = item
    items = [{**kept, **entries}[r] for r in sorted({**kept, **entries}, key=lambda r: int(r.split(".")[1]))]
    return header_text(header) + str(yaml.safe_dump({key: items}, sort_keys=False, default_flow_style=False, width=1000))


def storage_version_hash(group: str, version: str, kind: str) -> str:
    """apiserver ``discovery.StorageVersionHash``: base64 of the first 8 bytes of sha256("group/version/kind")."""
    return base64.b64encode(hashlib.sha256(f"{group}/{version}/{kind}".encode()).digest()[:8]).decode()


def chained_storage_versions(folder: Path, apis: dict[str, Any]) -> list[str]:
    """``group/version resource`` of every resource of apiextensions-apiserver and kube-aggregator,
    the version being the one whose storage version hash the real apiserver's discovery reports."""
    versions: dict[tuple[str, str], set[str]] = {}
    for k in apis["kinds"]:
        if k["server"] != "kube-apiserver":
            versions.setdefault((k["group"], k["kind"]), set()).add(k["version"])
    groups = {g for g, _ in versions}
    found: dict[tuple[str, str], str] = {}
    for run in sorted((folder / "live").glob("*.json")):
        for gv, resources in (read_recording(run).get("discovery") or {}).items():
            group = gv.rpartition("/")[0]
            if group not in groups:
                continue
            for r in resources:
                if "/" in r["name"] or not r.get("storageVersionHash"):
                    continue
                for version in sorted(versions.get((group, r["kind"]), ())):
                    if storage_version_hash(group, version, r["kind"]) == r["storageVersionHash"]:
                        found[(group, r["name"])] = f"{group}/{version} {r['name']}"
    return [found[k] for k in sorted(found)]


def refresh_apis_from_oracle(data_dir: Path, minors: list[int]) -> list[str]:
    """Rewrite the API data of each minor whose newest full recording exists; returns the files written."""
    written: list[str] = []
    csv_path = data_dir / "apis" / "lifecycle.csv"
    rows_by_release = existing_lifecycle_rows(csv_path)
    lists: dict[str, dict[str, dict[str, Any]]] = {name: {} for name in RELEASE_LISTS}
    for minor in minors:
        folder = _newest_full(data_dir, minor)
        if folder is None:
            continue
        release = f"1.{minor}"
        api_doc = api_release_document(folder, minor)
        api_text = header_text([
            f"Built-in API group/versions of Kubernetes {release} as {folder.name} registers them: the kinds of the schemes of",
            "kube-apiserver (legacyscheme), apiextensions-apiserver and kube-aggregator, each with the APILifecycle* values its",
            "type returns (null where it has none); printed by the release's running code (oracle/record.py, apis.json).",
            "stage is derived from the version name; removedAsOfRelease = removed <= this release; server = which apiserver serves it.",
            "Regenerate: kcompat data refresh.",
        ]) + yaml.safe_dump(api_doc, sort_keys=False, default_flow_style=False, width=1000)
        write_file_atomically(data_dir / "apis" / f"v{release}.yaml", api_text)
        written.append(f"apis/v{release}.yaml")
        rows_by_release[release] = lifecycle_rows(api_doc)

        res_path = data_dir / "apis" / "resources" / f"v{release}.yaml"
        previous_text = current_text(res_path)
        previous = yaml.safe_load(previous_text) if previous_text is not None else None
        res_doc = resources_document(folder, minor, previous)
        res_text = header_text([
            f"REST resources of Kubernetes {release}: the discovery documents of the real {folder.name} kube-apiserver",
            "(oracle/record.py live runs: at every emulated version with every API on, and with every alpha and beta gate on).",
            "resource = the plural discovery lists, subresources = the names after it (pods/exec -> exec).",
            f"{res_doc['observed']} kinds observed; {res_doc['keptFromPrevious']} kinds of the release's API types that no run served keep",
            "the plural name the file gave them before, with storage: false (the binary has no REST storage for them).",
            "gate: the feature gate without which kube-apiserver installs no storage for the resource (pkg/registry/<group>/rest,",
            "read from the module's source by oracle/record.py: data/oracle/<release>/gated-resources.json); subresourceGates:",
            "the same for subresources (pods/resize only while InPlacePodVerticalScaling is on).",
        ]) + yaml.safe_dump(res_doc, sort_keys=False, default_flow_style=False, width=1000)
        write_file_atomically(res_path, res_text)
        written.append(f"apis/resources/v{release}.yaml")

        snapshot = enablement_snapshot(folder, minor)
        snapshot["legacyBetaResourcesEnabledByDefault"] = [
            f"{r['groupVersion']} {r['resource']}" for r in snapshot["legacyBetaResourcesEnabledByDefault"]
        ]
        lists["default-enablement.yaml"][release] = snapshot
        apis = read_recording(folder / "apis.json")
        provenance = {"repository": f"k8s.io/kubernetes {folder.name} (running code)", "commit": "", "path": f"data/oracle/{folder.name}/apis.json"}
        lists["scheme-priority.yaml"][release] = {
            "release": release, **provenance, "groups": {g: v for g, v in sorted(apis["versionPriority"].items()) if v},
        }
        lists["storage-overrides.yaml"][release] = {
            "release": release, **provenance, "kubernetes": folder.name,
            "overrides": list(apis.get("storageEncodingOverrides") or []) + chained_storage_versions(folder, apis),
        }
    for name, entries in lists.items():
        if entries:
            path = data_dir / "apis" / name
            write_file_atomically(path, release_list_text(path, entries))
            written.append(f"apis/{name}")
    write_file_atomically(csv_path, lifecycle_csv_text(rows_by_release))
    written.append("apis/lifecycle.csv")
    return sorted(set(written))


# ---------------------------------------------------------------------------------------------
# apis/lifecycle.csv: every release's kinds in one table.


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


def existing_lifecycle_rows(path: Path) -> dict[str, list[list[str]]]:
    """Rows per release of an existing lifecycle.csv (kept for releases not refreshed)."""
    text = current_text(path)  # as this refresh has left it so far
    if text is None:
        return {}
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows or tuple(rows[0]) != LIFECYCLE_CSV_COLUMNS:
        return {}
    by_release: dict[str, list[list[str]]] = {}
    for row in rows[1:]:
        by_release.setdefault(row[0], []).append(row)
    return by_release


def _release_sort_key(release: str) -> tuple[int, ...]:
    return tuple(int(part) if part.isdigit() else 0 for part in release.split("."))


def lifecycle_csv_text(rows_by_release: dict[str, list[list[str]]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)  # \r\n line ends, like the bundled file
    writer.writerow(LIFECYCLE_CSV_COLUMNS)
    for release in sorted(rows_by_release, key=_release_sort_key):
        writer.writerows(rows_by_release[release])
    return buffer.getvalue()
