"""What the data says about its own sources, written from the recordings (``kcompat data refresh``):
``data/releases.yaml`` (per release: its files, the patch it was read from, how it was read) and
the per-release table of ``data/SOURCES.md`` (module versions, Go, recording date)."""

from __future__ import annotations

from pathlib import Path

import yaml

from .common import RefreshError, current_text, write_file_atomically
from .oracle import (
    FIRST_FULL_MINOR,
    PatchGates,
    component_recording,
    read_meta,
    recorded,
)
from .verify import ORACLE_DIR

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any

RELEASES_HEADER = """\
# The bundled Kubernetes releases: which files make up each release's data and where it was read.
# Written by `kcompat data refresh` from the recordings in oracle/ (data/oracle/<release>/); read by kcompat/data/catalog.py.
#
# features.status (the same for every release's gates, client-go gates, dependencies and APIs):
#   release      - read from the running code of the named patch release (oracle/record.py: the registered feature gate
#                  itself, the schemes and default resource configs, a running kube-apiserver's discovery); `patch` names it,
#                  `patches` lists how the other recorded patches differ, `components` how kube-controller-manager's and
#                  kube-scheduler's gate sets differ from kube-apiserver's
#                  (a pre-release's patch, 1.38.0-beta.0, says it is one: the newest the Go module proxy serves while
#                  no x.y.0 is out)
# clientGo: the k8s.io/client-go features every kube binary of the release adds to its own gate (pkg/features init():
#   clientAdapter), as that release registers them; loaded with origin "client-go" (a name in both lists is an error).
# dependencies (1.35+): Dependencies() of the registered gate; there are none before 1.35.
# The gate registration rules of each release (1.31/1.32 only sort each gate's specs; 1.33+ validate them) are the engine's
#   (kcompat/core/manifest.py registration_for, SPEC section 3.2).
"""

SOURCES_BEGIN = "<!-- recordings: written by `kcompat data refresh`, do not edit -->"
SOURCES_END = "<!-- end of recordings -->"


def _newest_full(patches: list[PatchGates]) -> PatchGates | None:
    full = [p for p in patches if (p.folder / "apis.json").is_file()]
    return full[-1] if full else None


def _module(meta: dict[str, Any], name: str) -> str:
    return str((meta.get("modules") or {}).get(name, "?"))


def release_entry(data_dir: Path, minor: int, patches: list[PatchGates], existing: dict[str, Any] | None) -> dict[str, Any]:
    """The ``releases.yaml`` entry of 1.``minor`` from its recordings (the API entry of ``existing``
    is kept while no full recording exists)."""
    release = f"1.{minor}"
    newest = patches[-1]
    # one status for every release: "release", its patch naming it (a pre-release's has a suffix)
    status = "release"
    what = f"k8s.io/kubernetes {newest.kubernetes}" + (", a pre-release," if "-" in newest.patch else "")
    client_go = _module(read_meta(newest.folder), "k8s.io/client-go")
    features: dict[str, Any] = {
        "files": [f"features/v{release}.yaml"],
        "status": status,
        "basis": f"{what} read from its running code (oracle/record.py; data/oracle/v{newest.patch}/gates.json)",
    }
    features["patch"] = newest.patch
    if len(patches) > 1:
        features["patches"] = f"features/patches-v{release}.yaml"
    components = component_recording(patches)
    if components is not None:
        features["components"] = f"features/components-v{release}.yaml"
    features["clientGo"] = {
        "files": [f"features/client-go-v{release}.yaml"],
        "status": status,
        "basis": f"k8s.io/client-go {client_go} as {what} registers it" + (" (unversioned, at 0.0)" if minor < FIRST_FULL_MINOR else ""),
    }
    if minor >= FIRST_FULL_MINOR:
        features["dependencies"] = {"status": status, "basis": f"Dependencies() of the gate {what} registers"}
    entry: dict[str, Any] = {"release": release, "features": features}
    full = _newest_full(patches)
    if full is not None:
        entry["apis"] = {
            "file": f"apis/v{release}.yaml",
            "status": "release",
            "basis": f"k8s.io/kubernetes {full.kubernetes} running code (schemes, default resource configs) and its kube-apiserver's discovery",
        }
    elif existing and existing.get("apis"):
        entry["apis"] = existing["apis"]
    return entry


def releases_text(data_dir: Path, minors: list[int]) -> str:
    """``releases.yaml`` with the entry of every minor in ``minors`` written from its recordings and
    the other entries kept."""
    text = current_text(data_dir / "releases.yaml")
    document = yaml.safe_load(text) if text is not None else None
    entries = {str(item["release"]): item for item in (document or {}).get("releases") or []}
    for minor in minors:
        patches = recorded(data_dir, minor)
        if not patches:
            raise RefreshError(f"no oracle recording for 1.{minor} under {data_dir / ORACLE_DIR}")
        entries[f"1.{minor}"] = release_entry(data_dir, minor, patches, entries.get(f"1.{minor}"))
    ordered = [entries[r] for r in sorted(entries, key=lambda r: int(r.split(".")[1]))]
    return RELEASES_HEADER + "\n" + str(yaml.safe_dump({"releases": ordered}, sort_keys=False, default_flow_style=None, width=1000))


def _patch_list(patches: list[PatchGates]) -> str:
    """``1.34.0-1.34.5, 1.34.7-1.34.12``: the recorded patches as runs of consecutive numbers."""
    numbers = [int(p.patch.split(".")[2]) for p in patches if "-" not in p.patch]
    if not numbers:
        return patches[-1].patch
    prefix = patches[0].patch.rsplit(".", 1)[0]
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{prefix}.{r[0]}" + (f"-{prefix}.{r[-1]}" if len(r) > 1 else "") for r in runs)


def _readiness(meta: dict[str, Any]) -> str:
    """What the readiness recording of the release's patch holds (oracle/readiness.py), or that
    there is none."""
    found = meta.get("readiness")
    if not isinstance(found, dict):
        return "not recorded"
    return f"{found.get('runs', '?')} starts, {found.get('cases', '?')} option cases"


def sources_rows(data_dir: Path, minors: list[int]) -> list[str]:
    """The per-release table of SOURCES.md: one row per release, from its recordings' meta.json."""
    rows = [
        "| release | read from | staging modules | etcd | Go | recorded | patches (gates) | kube-controller-manager, kube-scheduler | readiness (starts) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for minor in minors:
        patches = recorded(data_dir, minor)
        if not patches:
            continue
        full = _newest_full(patches) or patches[-1]
        meta = read_meta(full.folder)
        staging = sorted({v for k, v in (meta.get("modules") or {}).items() if k.startswith("k8s.io/") and k != "k8s.io/kubernetes"})
        not_served = meta.get("modulesNotServed")
        staging_text = ", ".join(staging) + (f" ({len(not_served)} not served at the patch: meta.json)" if not_served else "")
        components = component_recording(patches)
        rows.append(
            f"| 1.{minor} | {full.kubernetes} | {staging_text or '?'} | {_module(meta, 'go.etcd.io/etcd/server/v3')} | "
            f"{meta.get('go', '?')} | {meta.get('recorded', 'not dated')} | {_patch_list(patches)} | "
            f"{'v' + components.patch if components is not None else 'not recorded'} | {_readiness(meta)} |"
        )
    return rows


def sources_text(data_dir: Path, minors: list[int]) -> str:
    """SOURCES.md with its recordings table rewritten (the text around it is kept)."""
    path = data_dir / "SOURCES.md"
    text = current_text(path) or ""
    start, end = text.find(SOURCES_BEGIN), text.find(SOURCES_END)
    if start < 0 or end < start:
        raise RefreshError(f"{path}: no recordings table (the lines {SOURCES_BEGIN} and {SOURCES_END})")
    table = "\n".join(sources_rows(data_dir, minors))
    return text[: start + len(SOURCES_BEGIN)] + "\n" + table + "\n" + text[end:]


def refresh_provenance(data_dir: Path, minors: list[int], every_minor: list[int]) -> list[str]:
    """Write releases.yaml (the entries of ``minors``) and SOURCES.md's table (every recorded minor)."""
    write_file_atomically(data_dir / "releases.yaml", releases_text(data_dir, minors))
    written = ["releases.yaml"]
    if current_text(data_dir / "SOURCES.md") is not None:
        write_file_atomically(data_dir / "SOURCES.md", sources_text(data_dir, every_minor))
        written.append("SOURCES.md")
    return written

