"""Readiness rules from the recorded starts of the real kube-apiserver (part of ``kcompat data
refresh --oracle``).

``oracle/record.py`` (oracle/readiness.py) starts each release's kube-apiserver with option cases,
with the gates ``AllAlpha``/``AllBeta`` turn on at every emulated version (narrowed down to the
smallest sets that keep it from getting ready, then the group/versions that fix each set), and
with each API a default start serves turned off; it keeps every start in
``data/oracle/<vX.Y.Z>/startup.json``. This module writes what those starts found, per release,
as ``data/startup/v1.N.json`` (read by :func:`kcompat.core.readiness.rules_from_document`):

``gates``
    one rule per finding of kind "gates": the smallest failing gate set, the emulated version it
    was recorded at, the group/versions whose ``--runtime-config`` makes it ready (``needs``, null
    when none does; ``fixedByAllApis`` when ``api/all=true`` does but no smaller set was
    confirmed) and how the confirming start ended (``outcome``: exited after N s with its fatal
    line, or never ready with the failing ``/readyz`` checks);
``apis``
    one rule per finding of kind "api-off": the group/version, or one resource of it, a default
    start needs;
``probed``
    the emulated versions ``AllAlpha``/``AllBeta`` were started at.

Every rule names its evidence (the run ids of startup.json). Nothing is written by hand: a
release without startup.json has no file, and the answers say its readiness is not recorded.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from .common import RefreshError

STARTUP_DIR = "startup"
RECORDING = "startup.json"
#: ``F hooks.go:204] `` / ``E run.go:72] ``: the klog header left by oracle/servers.py log_line
_KLOG_PREFIX = re.compile(r"^[EWIF] [\w.-]+:\d+\] ")
_PROBE = re.compile(r"^All(?:Alpha|Beta) at (\d+\.\d+)$")
_CORE_VERSION = re.compile(r"^v\d+")


def _version_key(name: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", name))


def recorded_startups(data_dir: Path) -> dict[int, Path]:
    """Minor -> the newest patch folder of it with a startup.json (pre-releases after patches)."""
    found: dict[int, Path] = {}
    for path in sorted((data_dir / "oracle").glob(f"v1.*/{RECORDING}"), key=lambda p: _version_key(p.parent.name)):
        minor = int(path.parent.name.split(".")[1])
        found[minor] = path.parent
    return found


def _line(run: dict) -> str:
    lines = run.get("errorLines") or []
    return _KLOG_PREFIX.sub("", lines[0]) if lines else ""


def outcome(run: dict) -> dict:
    """How a start ended, as the rules keep it."""
    out: dict = {"verdict": run["verdict"], "seconds": int(run["seconds"])}
    if run["verdict"] == "exited" and _line(run):
        out["line"] = _line(run)
    if run.get("failingChecks"):
        out["failing"] = list(run["failingChecks"])
    return out


def split_api(api: str) -> tuple[str, str | None]:
    """An api-off finding's API as (group/version, resource or None): ``v1``, ``v1/pods``,
    ``apps/v1``, ``flowcontrol.apiserver.k8s.io/v1/flowschemas``."""
    parts = api.split("/")
    if _CORE_VERSION.match(parts[0]):
        return parts[0], "/".join(parts[1:]) or None
    return "/".join(parts[:2]), "/".join(parts[2:]) or None


def readiness_document(folder: Path) -> dict:
    """The rules of one release's recorded starts (the module docstring)."""
    path = folder / RECORDING
    try:
        doc = json.loads(path.read_text())
        runs = {r["id"]: r for r in doc["runs"]}
        findings = doc["findings"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise RefreshError(f"{path}: not a readiness recording ({exc})") from None
    release = ".".join(folder.name[1:].split(".")[:2])
    gates, apis = [], []
    for finding in findings:
        evidence = list(finding.get("evidence") or [])
        confirm = next((runs[e] for e in evidence if e in runs and runs[e]["flags"] == finding["flags"]
                        and runs[e]["verdict"] == finding["verdict"]), None)
        if confirm is None:
            raise RefreshError(f"{path}: finding {finding} names no run that confirms it")
        if finding["kind"] == "gates":
            with_all = next((runs[e] for e in evidence if e in runs and runs[e]["flags"] == [*finding["flags"], "--runtime-config=api/all=true"]), None)
            rule = {"gates": list(finding["gates"]), "emulated": finding["emulated"], "needs": finding.get("needs"),
                    "outcome": outcome(confirm), "evidence": evidence}
            if finding.get("needs") is None and with_all is not None and with_all["verdict"] == "ready":
                rule["fixedByAllApis"] = True
            gates.append(rule)
        elif finding["kind"] == "api-off":
            group_version, resource = split_api(finding["api"])
            apis.append({"groupVersion": group_version, "resource": resource, "emulated": finding["emulated"],
                         "outcome": outcome(confirm), "evidence": evidence})
        else:
            raise RefreshError(f"{path}: a finding of unknown kind {finding.get('kind')!r}")
    probed = sorted({m.group(1) for r in doc["runs"] for m in [_PROBE.match(r.get("purpose", ""))] if m}, key=_version_key)
    return {
        "release": release,
        "recorded": folder.name,
        "source": f"data/oracle/{folder.name}/{RECORDING} (oracle/readiness.py); regenerate: kcompat data refresh --oracle",
        "probed": probed,
        "gates": sorted(gates, key=lambda g: (g["gates"], _version_key(g["emulated"]))),
        "apis": sorted(apis, key=lambda a: (a["groupVersion"], a["resource"] or "")),
    }


def refresh_startup(data_dir: Path, minors: list[int] | None = None) -> list[str]:
    """Write ``data/startup/v1.N.json`` for every recorded release (or ``minors``); returns the
    files written."""
    recorded = recorded_startups(data_dir)
    written = []
    for minor, folder in sorted(recorded.items()):
        if minors is not None and minor not in minors:
            continue
        document = readiness_document(folder)
        out = data_dir / STARTUP_DIR / f"v1.{minor}.json"
        out.parent.mkdir(exist_ok=True)
        out.write_text(json.dumps(document, indent=1, sort_keys=False) + "\n")
        written.append(str(out.relative_to(data_dir)))
    return written
