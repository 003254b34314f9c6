"""Feature files from the answers of the real Kubernetes code (``kcompat data refresh --oracle``).

``oracle/record.py`` runs each pinned release's own code (its registered feature gate, read with
``GetAllVersioned`` and ``Dependencies``) and keeps the answers in ``data/oracle/<vX.Y.Z>/``. This
module turns them into the bundled layout:

* ``features/v1.N.yaml``: the kube gates of the newest recorded patch of 1.N, with dependencies;
* ``features/client-go-v1.N.yaml``: the gates client-go registers into the same gate;
* ``features/patches-v1.N.yaml``: for every older recorded patch, the gates whose specs or
  dependencies differ from the newest patch (whole entries), and those it does not register.

Nothing is parsed from Go source here: the recordings are JSON that the Go code printed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from .common import RefreshError, write_file_atomically

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any


ORACLE_DIR = "oracle"
ORIGIN_CLIENT_GO = "client-go"
PATCH_FOLDER = re.compile(r"^v1\.[0-9]+\.[0-9]+$")
#: a pre-release of a minor no patch of which is out yet (v1.38.0-beta.0): a development release
PRE_RELEASE_FOLDER = re.compile(r"^v1\.[0-9]+\.0-(alpha|beta|rc)\.[0-9]+$")
SPEC_KEYS = ("default", "lockToDefault", "preRelease", "version")


@dataclass(frozen=True)
class PatchGates:
    """One patch release's registered gates, as the oracle printed them."""

    patch: str  # "1.35.2"
    kubernetes: str  # module version, "v1.35.2"
    go: str
    gates: tuple[dict[str, Any], ...]


def _patch_key(patch: str) -> tuple[int, ...]:
    return tuple(int(p) for p in patch.split("."))


def _pre_release_key(name: str) -> tuple[int, int]:
    kind, number = name.rsplit("-", 1)[1].split(".")
    return ({"alpha": 0, "beta": 1, "rc": 2}[kind], int(number))


def _read_recording(folder: Path) -> PatchGates:
    """The gates one recorded folder holds (``gates.json``), with the module and Go it came from."""
    gates_file = folder / "gates.json"
    meta_file = folder / "meta.json"
    meta = json.loads(meta_file.read_text()) if meta_file.is_file() else {}
    gates = json.loads(gates_file.read_text())
    if not isinstance(gates, list) or not gates:
        raise RefreshError(f"{gates_file}: no gates recorded")
    return PatchGates(folder.name[1:], meta.get("modules", {}).get("k8s.io/kubernetes", folder.name), meta.get("go", "?"), tuple(gates))


def _recorded_folders(data_dir: Path, minor: int, pattern: re.Pattern[str]) -> list[Path]:
    return [f for f in (data_dir / ORACLE_DIR).glob(f"v1.{minor}.*") if pattern.match(f.name) and (f / "gates.json").is_file()]


def recorded_pre_release(data_dir: Path, minor: int) -> PatchGates | None:
    """The newest recorded pre-release of 1.``minor`` (v1.38.0-beta.0), or None."""
    folders = _recorded_folders(data_dir, minor, PRE_RELEASE_FOLDER)
    return _read_recording(max(folders, key=lambda f: _pre_release_key(f.name))) if folders else None


def recorded_patches(data_dir: Path, minor: int) -> list[PatchGates]:
    """Every patch of 1.``minor`` with a recorded ``gates.json`` (gates-only or full oracle), oldest first."""
    found = [_read_recording(f) for f in _recorded_folders(data_dir, minor, PATCH_FOLDER)]
    return sorted(found, key=lambda p: _patch_key(p.patch))


def recorded(data_dir: Path, minor: int) -> list[PatchGates]:
    """The recorded patches of 1.``minor``, else its newest pre-release alone (a development release)."""
    pre = recorded_pre_release(data_dir, minor)
    return recorded_patches(data_dir, minor) or ([pre] if pre is not None else [])


def manifest_item(gate: dict[str, Any]) -> dict[str, Any]:
    """One gate in the bundled manifest layout (name, dependencies, versionedSpecs)."""
    item: dict[str, Any] = {"name": gate["name"]}
    if gate.get("dependencies"):
        item["dependencies"] = sorted(gate["dependencies"])
    specs = []
    previous = None
    for spec in gate["versionedSpecs"]:
        out = {key: spec[key] for key in SPEC_KEYS}
        mc = spec.get("minCompatibilityVersion")
        # GetAllVersioned returns completed specs: a later version inherits the min compatibility of
        # the spec before it. Written as the source has it (unset), the engine inherits it the same way.
        inherited = previous is not None and previous["version"] != spec["version"] and previous.get("minCompatibilityVersion") == mc
        if mc and not inherited:
            out["minCompatibilityVersion"] = mc
        specs.append(out)
        previous = spec
    item["versionedSpecs"] = specs
    return item


def _dump_document(document: dict[str, Any]) -> str:
    text: str = yaml.safe_dump(document, sort_keys=False, default_flow_style=False, width=1000)
    return text


def _dump(items: list[dict[str, Any]]) -> str:
    text: str = yaml.safe_dump(items, sort_keys=False, default_flow_style=False, width=1000)
    return text


def _header(lines: list[str]) -> str:
    return "".join(f"# {line}\n" if line else "#\n" for line in lines) + "\n"


def feature_texts(newest: PatchGates, minor: int) -> dict[str, str]:
    """``features/v1.N.yaml`` and ``features/client-go-v1.N.yaml`` from the newest patch."""
    kube = [manifest_item(g) for g in newest.gates if g["origin"] != ORIGIN_CLIENT_GO]
    client = [manifest_item(g) for g in newest.gates if g["origin"] == ORIGIN_CLIENT_GO]
    edges = sum(len(g.get("dependencies") or ()) for g in newest.gates)
    source = [
        f"Read from the running code of k8s.io/kubernetes {newest.kubernetes} (built with {newest.go}) by oracle/record.py:",
        "  the feature gate kube-apiserver registers (its ComponentGlobalsRegistry's kube gate; older patches: oracle/gates,",
        "  checked equal where both are built), GetAllVersioned() for the specs and Dependencies() for the edges.",
        f"  The raw answer: data/oracle/v{newest.patch}/gates.json. Regenerate: kcompat data refresh --oracle.",
    ]
    kube_text = _header([
        f"Kubernetes 1.{minor} feature gates as v{newest.patch} registers them ({len(kube)} kube gates, {edges} dependency edges).",
        *source,
        "client-go's gates (registered into the same gate) are in the client-go file of this release.",
    ]) + _dump(kube)
    client_text = _header([
        f"Kubernetes 1.{minor}: the k8s.io/client-go feature gates v{newest.patch} registers into its own --feature-gates",
        "(pkg/features init(): clientAdapter). origin: client-go. Names are the ones client-go's",
        "AddVersionedFeaturesToExistingFeatureGates hands to that gate.",
        *source,
    ]) + _dump(client)
    return {f"features/v1.{minor}.yaml": kube_text, f"features/client-go-v1.{minor}.yaml": client_text}


def patches_document(patches: list[PatchGates]) -> dict[str, Any]:
    """For every patch older than the newest: the gates that differ from it (whole entries, origin
    kept) and the names the newest registers but that patch does not."""
    newest = patches[-1]
    base = {g["name"]: g for g in newest.gates}
    out = []
    for patch in patches[:-1]:
        here = {g["name"]: g for g in patch.gates}
        changed = []
        for name in sorted(here):
            gate = here[name]
            if name not in base or manifest_item(base[name]) != manifest_item(gate) or base[name]["origin"] != gate["origin"]:
                item = manifest_item(gate)
                item["origin"] = gate["origin"]
                changed.append(item)
        absent = sorted(set(base) - set(here))
        out.append({"patch": patch.patch, "kubernetes": patch.kubernetes, "gates": changed, "absent": absent})
    return {"base": newest.patch, "patches": out}


def patches_text(patches: list[PatchGates], minor: int) -> str:
    document = patches_document(patches)
    differing = [p["patch"] for p in document["patches"] if p["gates"] or p["absent"]]
    return _header([
        f"Kubernetes 1.{minor}: how each recorded patch release's feature gates differ from v{patches[-1].patch}",
        f"(features/v1.{minor}.yaml and client-go-v1.{minor}.yaml). Each entry lists the gates whose specs or dependencies",
        "differ there (the whole entry as that patch registers it) and the gates it does not register.",
        f"Patches recorded: {', '.join(p.patch for p in patches)}; with a difference: {', '.join(differing) or 'none'}.",
        "Read from the running code of each k8s.io/kubernetes patch by oracle/record.py (data/oracle/v1.N.P/gates.json).",
    ]) + _dump_document(document)


def recorded_minors(data_dir: Path) -> list[int]:
    """The minors with at least one recorded patch under data/oracle/."""
    root = data_dir / ORACLE_DIR
    minors = {int(f.name.split(".")[1]) for f in root.glob("v1.*")
              if (PATCH_FOLDER.match(f.name) or PRE_RELEASE_FOLDER.match(f.name)) and (f / "gates.json").is_file()}
    return sorted(minors)


def refresh_from_oracle(data_dir: Path, minors: list[int]) -> list[str]:
    """Write the feature files of each minor from its recordings; returns the files written."""
    written = []
    for minor in minors:
        patches = recorded(data_dir, minor)
        if not patches:
            raise RefreshError(f"no oracle recording for 1.{minor} under {data_dir / ORACLE_DIR}")
        texts = feature_texts(patches[-1], minor)
        if len(patches) > 1:
            texts[f"features/patches-v1.{minor}.yaml"] = patches_text(patches, minor)
        for name, text in texts.items():
            write_file_atomically(data_dir / name, text)
            written.append(name)
    return written


# ---------------------------------------------------------------------------------------------
# Built-in APIs from the oracle's ``apis.json`` and the live discovery of the real kube-apiserver.

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
    apis = json.loads((folder / "apis.json").read_text())
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
            removed: str | None = k.get("removed") or None
            items.append({
                "kind": k["kind"],
                "isList": k["kind"].endswith("List") and k["kind"][: -len("List")] in names,
                "introduced": k.get("introduced") or None,
                "deprecated": k.get("deprecated") or None,
                "removed": removed,
                "replacement": k.get("replacement") or None,
                "removedAsOfRelease": removed is not None and tuple(int(x) for x in removed.split(".")) <= (1, minor),
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


def resources_document(folder: Path, minor: int, previous: dict[str, Any] | None) -> dict[str, Any]:  # noqa: C901 - one pass over the recorded discovery documents, field by field
    """``apis/resources/v1.N.yaml`` from discovery of the real kube-apiserver: every resource any
    recorded run served (with every API and every gate on, and at every emulated version), its kind
    and subresources. Kinds no run served keep the previous file's entry (a resource that is never
    served by this binary, e.g. removed before every emulated version it allows)."""
    seen: dict[tuple[str, str, str], tuple[str, set[str]]] = {}
    for run in sorted((folder / "live").glob("*.json")):
        record = json.loads(run.read_text())
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
    gated_items = json.loads(gated_file.read_text()) if gated_file.is_file() else []
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
    apis = json.loads((folder / "apis.json").read_text())
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


def _leading_comments(text: str) -> str:
    lines = []
    for line in text.splitlines(keepends=True):
        if not line.startswith("#"):
            break
        lines.append(line)
    return "".join(lines)


def _rewrite_release_list(path: Path, key: str, release: str, entry: dict[str, Any], superseded_id: str | None = None) -> str:
    """``path`` (a YAML mapping with a list under ``key``) with the entry of ``release`` replaced by
    ``entry`` (added when there is none). With ``superseded_id`` an entry of the same release is
    kept for provenance with its release renamed, so no loader takes it for the release's list."""
    text = path.read_text()
    document = yaml.safe_load(text)
    items = []
    for item in document[key]:
        if superseded_id is not None and item.get("id") == entry.get("id"):
            continue  # this refresh's own earlier entry: replaced, not kept twice
        if str(item.get("release")) == release:
            if superseded_id is None:
                continue
            item = dict(item, release=f"{release} (superseded by {superseded_id}: the release's running code)")
        items.append(item)
    items.append(entry)
    document[key] = items
    dumped: str = yaml.safe_dump(document, sort_keys=False, default_flow_style=False, width=1000)
    return _leading_comments(text) + "\n" + dumped


def storage_version_hash(group: str, version: str, kind: str) -> str:
    """apiserver ``discovery.StorageVersionHash``: base64 of the first 8 bytes of sha256("group/version/kind")."""
    import base64
    import hashlib

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
        for gv, resources in (json.loads(run.read_text()).get("discovery") or {}).items():
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
    from .apis import existing_lifecycle_rows, lifecycle_csv_text, lifecycle_rows

    written: list[str] = []
    csv_path = data_dir / "apis" / "lifecycle.csv"
    rows_by_release, _ = existing_lifecycle_rows(csv_path)
    for minor in minors:
        folder = _newest_full(data_dir, minor)
        if folder is None:
            continue
        release = f"1.{minor}"
        api_doc = api_release_document(folder, minor)
        api_text = _header([
            f"Built-in API group/versions of Kubernetes {release} as {folder.name} registers them: the kinds of the schemes of",
            "kube-apiserver (legacyscheme), apiextensions-apiserver and kube-aggregator, each with the APILifecycle* values its",
            "type returns (null where it has none); printed by the release's running code (oracle/record.py, apis.json).",
            "stage is derived from the version name; removedAsOfRelease = removed <= this release; server = which apiserver serves it.",
            "Regenerate: kcompat data refresh --oracle.",
        ]) + yaml.safe_dump(api_doc, sort_keys=False, default_flow_style=False, width=1000)
        write_file_atomically(data_dir / "apis" / f"v{release}.yaml", api_text)
        written.append(f"apis/v{release}.yaml")
        rows_by_release[release] = lifecycle_rows(api_doc)

        res_path = data_dir / "apis" / "resources" / f"v{release}.yaml"
        previous = yaml.safe_load(res_path.read_text()) if res_path.is_file() else None
        res_doc = resources_document(folder, minor, previous)
        res_text = _header([
            f"REST resources of Kubernetes {release}: the discovery documents of the real {folder.name} kube-apiserver",
            "(oracle/record.py live runs: at every emulated version with every API on, and with every alpha and beta gate on).",
            "resource = the plural discovery lists, subresources = the names after it (pods/exec -> exec).",
            f"{res_doc['observed']} kinds observed; {res_doc['keptFromPrevious']} kinds no run served keep the previous file's entry",
            "(k8s.io/client-go typed clients) with storage: false (the binary has no REST storage for them).",
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
        path = data_dir / "apis" / "default-enablement.yaml"
        write_file_atomically(path, _rewrite_release_list(path, "snapshots", release, snapshot, snapshot["id"]))
        written.append("apis/default-enablement.yaml")

        apis = json.loads((folder / "apis.json").read_text())
        provenance = {"repository": f"k8s.io/kubernetes {folder.name} (running code)", "commit": "", "path": f"data/oracle/{folder.name}/apis.json"}
        priority = {"release": release, **provenance, "groups": {g: v for g, v in sorted(apis["versionPriority"].items()) if v}}
        path = data_dir / "apis" / "scheme-priority.yaml"
        write_file_atomically(path, _rewrite_release_list(path, "releases", release, priority))
        chained = chained_storage_versions(folder, apis)
        overrides = {"release": release, **provenance, "kubernetes": folder.name,
                     "note": "kube-apiserver's ResourceEncodingOverrides, then the storage versions of the resources of apiextensions-apiserver "
                             "and kube-aggregator, read from the storageVersionHash their discovery reports (their storage encoding is set "
                             "apart from the kube storage factory).",
                     "overrides": list(apis.get("storageEncodingOverrides") or []) + chained}
        path = data_dir / "apis" / "storage-overrides.yaml"
        write_file_atomically(path, _rewrite_release_list(path, "releases", release, overrides))
        written += ["apis/scheme-priority.yaml", "apis/storage-overrides.yaml"]
    write_file_atomically(csv_path, lifecycle_csv_text(rows_by_release))
    written.append("apis/lifecycle.csv")
    return sorted(set(written))
