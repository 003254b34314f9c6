"""Feature files from the answers of the real Kubernetes code (``kcompat data refresh``).

``oracle/record.py`` runs each pinned release's own code (its registered feature gate, read with
``GetAllVersioned`` and, from 1.35, ``Dependencies``) and keeps the answers in
``data/oracle/<vX.Y.Z>/``. This module turns them into the bundled layout, the same way for
every release:

* ``features/v1.N.yaml``: the kube gates of the newest recorded patch of 1.N (with dependencies
  from 1.35; 1.31-1.34 register no dependencies, and a gate registered without a version is at
  0.0, as ``GetAllVersioned`` returns it);
* ``features/client-go-v1.N.yaml``: the gates client-go registers into the same gate;
* ``features/patches-v1.N.yaml``: for every older recorded patch, the gates whose specs or
  dependencies differ from the newest patch (whole entries), and those it does not register;
* ``features/components-v1.N.yaml``: the gate set kube-controller-manager and kube-scheduler
  register, as their difference from kube-apiserver's at the same patch.

Nothing is parsed from Go source here: the recordings are JSON that the Go code printed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..core.components import KUBE_APISERVER, OTHER_COMPONENTS
from .common import RefreshError, current_text, remove_file, write_file_atomically
from .verify import ORACLE_DIR, PATCH_FOLDER, PRE_RELEASE_FOLDER, read_recording

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any


ORIGIN_CLIENT_GO = "client-go"
SPEC_KEYS = ("default", "lockToDefault", "preRelease", "version")
#: the first release whose gates have dependencies and per-spec min compatibility versions
FIRST_FULL_MINOR = 35


@dataclass(frozen=True)
class PatchGates:
    """One patch release's registered gates, as the oracle printed them."""

    patch: str  # "1.35.2"
    kubernetes: str  # module version, "v1.35.2"
    go: str
    gates: tuple[dict[str, Any], ...]
    folder: Path

    def component_gates(self, component: str) -> tuple[dict[str, Any], ...] | None:
        """The gates ``component`` registers at this patch (its own recording), or None."""
        if component == KUBE_APISERVER:
            return self.gates
        path = self.folder / component / "gates.json"
        return tuple(_gate_list(path)) if path.is_file() else None


def _patch_key(patch: str) -> tuple[int, ...]:
    return tuple(int(p) for p in patch.split("."))


def _pre_release_key(name: str) -> tuple[int, int]:
    kind, number = name.rsplit("-", 1)[1].split(".")
    return ({"alpha": 0, "beta": 1, "rc": 2}[kind], int(number))


def _gate_list(path: Path) -> list[dict[str, Any]]:
    gates = read_recording(path)
    if not isinstance(gates, list) or not gates:
        raise RefreshError(f"{path}: no gates recorded")
    return gates


def read_meta(folder: Path) -> dict[str, Any]:
    """A recording's ``meta.json`` (module versions, Go, dates), empty when there is none."""
    meta_file = folder / "meta.json"
    meta: dict[str, Any] = read_recording(meta_file) if meta_file.is_file() else {}
    return meta


def _read_recording(folder: Path) -> PatchGates:
    """The gates one recorded folder holds (``gates.json``), with the module and Go it came from."""
    meta = read_meta(folder)
    gates = _gate_list(folder / "gates.json")
    return PatchGates(folder.name[1:], meta.get("modules", {}).get("k8s.io/kubernetes", folder.name), meta.get("go", "?"), tuple(gates), folder)


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


def recorded_minors(data_dir: Path) -> list[int]:
    """The minors with at least one recorded patch under data/oracle/."""
    root = data_dir / ORACLE_DIR
    minors = {int(f.name.split(".")[1]) for f in root.glob("v1.*")
              if (PATCH_FOLDER.match(f.name) or PRE_RELEASE_FOLDER.match(f.name)) and (f / "gates.json").is_file()}
    return sorted(minors)


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


def _dump(items: object) -> str:
    return str(yaml.safe_dump(items, sort_keys=False, default_flow_style=False, width=1000))


def header_text(lines: list[str]) -> str:
    return "".join(f"# {line}\n" if line else "#\n" for line in lines) + "\n"


def _source_lines(newest: PatchGates, minor: int) -> list[str]:
    if minor >= FIRST_FULL_MINOR:
        read = "GetAllVersioned() for the specs and Dependencies() for the edges."
    else:
        read = "GetAllVersioned() for the specs (a gate registered without a version is at 0.0, as the gate holds it;"
    lines = [
        f"Read from the running code of k8s.io/kubernetes {newest.kubernetes} (built with {newest.go}) by oracle/record.py:",
        "  the feature gate kube-apiserver registers (its ComponentGlobalsRegistry's kube gate; older patches: oracle/gates,",
        f"  checked equal where both are built), {read}",
    ]
    if minor < FIRST_FULL_MINOR:
        lines.append("  no dependencies and no per-spec min compatibility version exist before 1.35).")
    lines.append(f"  The raw answer: data/oracle/v{newest.patch}/gates.json. Regenerate: kcompat data refresh.")
    return lines


def feature_texts(newest: PatchGates, minor: int) -> dict[str, str]:
    """``features/v1.N.yaml`` and ``features/client-go-v1.N.yaml`` from the newest patch."""
    kube = [manifest_item(g) for g in newest.gates if g["origin"] != ORIGIN_CLIENT_GO]
    client = [manifest_item(g) for g in newest.gates if g["origin"] == ORIGIN_CLIENT_GO]
    edges = sum(len(g.get("dependencies") or ()) for g in newest.gates)
    source = _source_lines(newest, minor)
    kube_text = header_text([
        f"Kubernetes 1.{minor} feature gates as v{newest.patch} registers them ({len(kube)} kube gates, {edges} dependency edges).",
        *source,
        "client-go's gates (registered into the same gate) are in the client-go file of this release.",
    ]) + _dump(kube)
    client_text = header_text([
        f"Kubernetes 1.{minor}: the k8s.io/client-go feature gates v{newest.patch} registers into its own --feature-gates",
        "(pkg/features init(): clientAdapter). origin: client-go. Names are the ones client-go's",
        f"{'AddVersionedFeaturesToExistingFeatureGates' if minor >= FIRST_FULL_MINOR else 'AddFeaturesToExistingFeatureGates'} hands to that gate.",
        *source,
    ]) + _dump(client)
    return {f"features/v1.{minor}.yaml": kube_text, f"features/client-go-v1.{minor}.yaml": client_text}


def gate_difference(base: Mapping[str, dict[str, Any]], here: Mapping[str, dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """The gates of ``here`` whose entry (specs, dependencies, origin) differs from ``base`` or
    that ``base`` lacks, as whole manifest items with their origin; and the names of ``base``
    that ``here`` does not register."""
    changed = []
    for name in sorted(here):
        gate = here[name]
        if name not in base or manifest_item(base[name]) != manifest_item(gate) or base[name]["origin"] != gate["origin"]:
            item = manifest_item(gate)
            item["origin"] = gate["origin"]
            changed.append(item)
    return changed, sorted(set(base) - set(here))


def patches_document(patches: list[PatchGates]) -> dict[str, Any]:
    """For every patch older than the newest: the gates that differ from it (whole entries, origin
    kept) and the names the newest registers but that patch does not."""
    newest = patches[-1]
    base = {g["name"]: g for g in newest.gates}
    out = []
    for patch in patches[:-1]:
        changed, absent = gate_difference(base, {g["name"]: g for g in patch.gates})
        out.append({"patch": patch.patch, "kubernetes": patch.kubernetes, "gates": changed, "absent": absent})
    return {"base": newest.patch, "patches": out}


def patches_text(patches: list[PatchGates], minor: int) -> str:
    document = patches_document(patches)
    differing = [p["patch"] for p in document["patches"] if p["gates"] or p["absent"]]
    return header_text([
        f"Kubernetes 1.{minor}: how each recorded patch release's feature gates differ from v{patches[-1].patch}",
        f"(features/v1.{minor}.yaml and client-go-v1.{minor}.yaml). Each entry lists the gates whose specs or dependencies",
        "differ there (the whole entry as that patch registers it) and the gates it does not register.",
        f"Patches recorded: {', '.join(p.patch for p in patches)}; with a difference: {', '.join(differing) or 'none'}.",
        "Read from the running code of each k8s.io/kubernetes patch by oracle/record.py (data/oracle/v1.N.P/gates.json).",
    ]) + _dump(document)


def component_recording(patches: list[PatchGates]) -> PatchGates | None:
    """The newest recorded patch with the gates of every other component, or None."""
    full = [p for p in patches if all(p.component_gates(c) is not None for c in OTHER_COMPONENTS)]
    return full[-1] if full else None


def components_document(recording: PatchGates) -> dict[str, Any]:
    """Each other component's gate set at ``recording``'s patch, as its difference from
    kube-apiserver's gate there."""
    base = {g["name"]: g for g in recording.gates}
    components = []
    for component in OTHER_COMPONENTS:
        own = recording.component_gates(component) or ()
        changed, absent = gate_difference(base, {g["name"]: g for g in own})
        components.append({"component": component, "gates": changed, "absent": absent})
    return {"base": recording.patch, "kubernetes": recording.kubernetes, "components": components}


def components_text(recording: PatchGates, minor: int) -> str:
    document = components_document(recording)
    differing = [c["component"] for c in document["components"] if c["gates"] or c["absent"]]
    return header_text([
        f"Kubernetes 1.{minor}: the feature gates kube-controller-manager and kube-scheduler v{recording.patch} register, as each",
        f"differs from kube-apiserver's (features/v1.{minor}.yaml and client-go-v1.{minor}.yaml): the gates whose entry differs or that",
        "only the component registers (whole entries, origin kept), and kube-apiserver's gates it does not register.",
        f"Components that differ: {', '.join(differing) or 'none'}.",
        f"Read from the running code of k8s.io/kubernetes {recording.kubernetes}: oracle/kube-controller-manager and oracle/kube-scheduler",
        "build each command as its own main package does and print its registered gate",
        f"(data/oracle/v{recording.patch}/<component>/gates.json).",
        "A patch release is answered for a component as that patch's gates (oracle/gates, kube-apiserver's) with the",
        f"component's difference recorded here at v{recording.patch}: only the gates program is recorded at the other patches.",
    ]) + _dump(document)


def refresh_features_from_oracle(data_dir: Path, minors: list[int]) -> list[str]:
    """Write the feature files of each minor from its recordings; returns the files written."""
    written = []
    for minor in minors:
        patches = recorded(data_dir, minor)
        if not patches:
            raise RefreshError(f"no oracle recording for 1.{minor} under {data_dir / ORACLE_DIR}")
        texts = feature_texts(patches[-1], minor)
        if len(patches) > 1:
            texts[f"features/patches-v1.{minor}.yaml"] = patches_text(patches, minor)
        components = component_recording(patches)
        if components is not None:
            texts[f"features/components-v1.{minor}.yaml"] = components_text(components, minor)
        for name, text in texts.items():
            write_file_atomically(data_dir / name, text)
            written.append(name)
        for stale in (f"features/v1.{minor}-unversioned.yaml",):  # the copies' second file: one file per release now
            if current_text(data_dir / stale) is not None:
                remove_file(data_dir / stale)
    return written
