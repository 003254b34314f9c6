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
    start needs; ``unless`` the option flags with which a recorded start got ready with that API
    off all the same (kcompat's own API evaluation of its --runtime-config says it was off);
``probed``
    the emulated versions ``AllAlpha``/``AllBeta`` were started at;
``unsearched``
    the emulated versions and stages whose gates could not be narrowed down: the meta-gate was
    refused there (AllAlpha turns on gates whose dependencies it leaves off) and no start of its
    gates together, with what they depend on, got past the checks (recordings before that start
    was made have none). The answers say that readiness is not known for those gates.

Every rule names its evidence (the run ids of startup.json). Nothing is written by hand: a
release without startup.json has no file, and the answers say its readiness is not recorded.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

from .common import RefreshError
from .staging import write_file_atomically
from .verify import read_recording

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any

    from kcompat.core.readiness import ServedApis

STARTUP_DIR = "startup"
RECORDING = "startup.json"
#: ``F hooks.go:204] `` / ``E run.go:72] ``: the klog header left by oracle/servers.py log_line
_KLOG_PREFIX = re.compile(r"^[EWIF] [\w.-]+:\d+\] ")
_META = re.compile(r"^(All(?:Alpha|Beta)) at (\d+\.\d+)$")
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


def _line(run: dict[str, Any]) -> str:
    lines = run.get("errorLines") or []
    return _KLOG_PREFIX.sub("", lines[0]) if lines else ""


#: an informer's ``failed to list *v1beta1.LeaseCandidate``: the API the binary waits for
_WAITS_FOR = re.compile(r"failed to list \*([A-Za-z0-9]+\.[A-Za-z0-9]+)")


def outcome(run: dict[str, Any]) -> dict[str, Any]:
    """How a start ended, as the rules keep it: exited with its fatal line, or the failing
    /readyz checks, and the kinds its informers kept failing to list (``waitsFor``)."""
    out: dict[str, Any] = {"verdict": run["verdict"], "seconds": int(run["seconds"])}
    if run["verdict"] == "exited" and _line(run):
        out["line"] = _line(run)
    if run.get("failingChecks"):
        out["failing"] = list(run["failingChecks"])
    waits = list(dict.fromkeys(m.group(1) for line in run.get("errorLines") or [] for m in _WAITS_FOR.finditer(line)))
    if waits:
        out["waitsFor"] = waits
    return out


def split_api(api: str) -> tuple[str, str | None]:
    """An api-off finding's API as (group/version, resource or None): ``v1``, ``v1/pods``,
    ``apps/v1``, ``flowcontrol.apiserver.k8s.io/v1/flowschemas``."""
    parts = api.split("/")
    if _CORE_VERSION.match(parts[0]):
        return parts[0], "/".join(parts[1:]) or None
    return "/".join(parts[:2]), "/".join(parts[2:]) or None


_GATES_ON = re.compile(r"^--feature-gates=(.+)$")


def _case_rules(cases: dict[str, Any], release: str, rules: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rules from the option cases that turn gates on and nothing else (``--feature-gates`` and
    at most ``--emulated-version``) and did not get ready, where no narrowing found a rule for
    those gates at that emulated version (the narrowing could not run: AllAlpha refused, say):
    the gates of the case, no fix searched for (``unsearched``)."""
    out: list[dict[str, Any]] = []
    for case in cases.values():
        if case.get("verdict") not in ("exited", "not-ready"):
            continue
        given = dict(flag[2:].partition("=")[::2] for flag in case["flags"])
        if set(given) - {"feature-gates", "emulated-version"} or "feature-gates" not in given:
            continue
        values = dict(item.partition("=")[::2] for item in given["feature-gates"].split(","))
        if any(v != "true" for v in values.values()) or any(g.startswith("All") for g in values):
            continue
        emulated = given.get("emulated-version", release)
        named = set(values)
        if any(r["emulated"] == emulated and set(r["gates"]) <= named for r in [*rules, *out]):
            continue
        rule: dict[str, Any] = {"gates": sorted(named), "emulated": emulated, "needs": None, "outcome": outcome(case),
                                "evidence": [case["id"]], "unsearched": True}
        fixed = _fixed_by(case, cases.values())
        if fixed is not None:  # a case of the same flags and group/versions turned on got ready
            rule.update(needs=fixed[0], evidence=[case["id"], fixed[1]], unsearched=False)
        out.append(rule)
    return out


def _fixed_by(case: dict[str, Any], cases: Iterable[dict[str, Any]]) -> tuple[list[str], str] | None:
    """The group/versions a ready case turns on with exactly ``case``'s flags besides, and its id."""
    for other in cases:
        extra = [f for f in other["flags"] if f not in case["flags"]]
        if other.get("verdict") != "ready" or len(extra) != 1 or len(other["flags"]) != len(case["flags"]) + 1:
            continue
        name, _, value = extra[0][2:].partition("=")
        items = [item.partition("=") for item in value.split(",")]
        if name == "runtime-config" and all(v == "true" and "/" in gv for gv, _, v in items):
            return [gv for gv, _, _ in items], other["id"]
    return None


def readiness_document(folder: Path) -> dict[str, Any]:
    """The rules of one release's recorded starts (the module docstring)."""
    path = folder / RECORDING
    try:
        doc = read_recording(path)
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
    gates += _case_rules(doc.get("cases") or {}, release, gates)
    for rule in apis:
        unless = _ready_without(folder, rule, doc["runs"])
        if unless:
            rule["unless"] = unless
    probed = sorted({m.group(2) for r in doc["runs"] for m in [_META.match(r.get("purpose", ""))] if m}, key=_version_key)
    return {
        "release": release,
        "recorded": folder.name,
        "source": f"data/oracle/{folder.name}/{RECORDING} (oracle/readiness.py); regenerate: kcompat data refresh --oracle",
        "probed": probed,
        "gates": sorted(gates, key=lambda g: (g["gates"], _version_key(g["emulated"]))),
        "apis": sorted(apis, key=lambda a: (a["groupVersion"], a["resource"] or "")),
        "unsearched": _unsearched(doc["runs"]),
    }


def _unsearched(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The (emulated version, stage) pairs whose meta-gate start was refused and whose gates were
    not started together past the checks instead (oracle/readiness.py), with the refused run."""
    out = []
    for run in runs:
        m = _META.match(run.get("purpose", ""))
        if m is None or run["verdict"] != "refused":
            continue
        meta, emulated = m.groups()
        direct = f"{meta} gates at {emulated}"
        if not any(r.get("purpose") == direct and r["verdict"] != "refused" for r in runs):
            out.append({"emulated": emulated, "stage": meta[3:], "evidence": [run["id"]]})
    return sorted(out, key=lambda u: (_version_key(u["emulated"]), u["stage"]))


def _ready_without(folder: Path, rule: dict[str, Any], runs: list[dict[str, Any]]) -> list[list[list[str]]]:
    """The option flags with which a recorded start got ready although its --runtime-config turns
    the rule's API off (with --enable-priority-and-fairness=false, flowcontrol's APIs are not
    needed): the rule does not hold with them. A ready start that turns the API off with the
    default options would contradict the finding: refused."""
    from kcompat.core.startup import OPTION_FLAG_NAMES, read_options

    out: list[list[list[str]]] = []
    for run in runs:
        if run["verdict"] != "ready" or not any(f.startswith("--runtime-config=") for f in run["flags"]):
            continue
        served = _served(folder, run["flags"])
        if served is None or served.serves(rule["groupVersion"], rule["resource"]):
            continue
        pairs = [(name, value) for name, _, value in (f[2:].partition("=") for f in run["flags"]) if name in OPTION_FLAG_NAMES]
        options = [list(p) for p in read_options(pairs).flags]
        if not options:
            raise RefreshError(f"{folder.name}: run {run['id']} got ready with {rule['groupVersion']} {rule['resource'] or ''} off, "
                               "which a finding says it needs: the recordings contradict each other")
        if options not in out:
            out.append(options)
    return out


def _served(folder: Path, flags: list[str]) -> ServedApis | None:
    """What kcompat serves with a recorded start's flags (the data being refreshed)."""
    from kcompat.core.apis import evaluate_api_availability, gate_resolver
    from kcompat.core.errors import KcompatError
    from kcompat.core.readiness import served_apis
    from kcompat.core.runtime_config import parse_runtime_config
    from kcompat.core.startup import delegated_served
    from kcompat.data.catalog import Catalog

    given: dict[str, list[str]] = {}
    for flag in flags:
        name, _, value = flag[2:].partition("=")
        given.setdefault(name, []).append(value)
    catalog = Catalog(folder.parent.parent)
    try:
        availability = evaluate_api_availability(
            folder.name[1:], given.get("emulated-version"), given.get("runtime-config"), min_compat=given.get("min-compatibility-version"),
            api_data=catalog.api_data, compare_with_release=False,
            gate_states=gate_resolver(lambda b: catalog.manifest_for(b)[0], given.get("feature-gates")),
        )
    except KcompatError:
        return None
    pairs = [(e.group_version, e.resource) for e in availability.served()]
    return served_apis([*pairs, *delegated_served(parse_runtime_config(given.get("runtime-config")))])


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
        write_file_atomically(out, json.dumps(document, indent=1, sort_keys=False) + "\n")
        written.append(str(out.relative_to(data_dir)))
    return written
