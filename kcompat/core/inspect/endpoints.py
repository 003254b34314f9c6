"""What a running component says about itself: ``/version`` JSON and ``/metrics`` text.

``/version`` is apimachinery ``pkg/version`` ``Info``: ``major``, ``minor``, ``gitVersion``...
and, from 1.33, ``emulationMajor``/``emulationMinor``/``minCompatibilityMajor``/
``minCompatibilityMinor`` (``omitempty``: a 1.32 server has none; filled by component-base
``compatibility/version.go`` ``Info``).

``/metrics`` is the Prometheus text format. kcompat reads ``kubernetes_feature_enabled{name,
stage}`` (component-base ``metrics/prometheus/feature/metrics.go`` ``RecordFeatureInfo``: value
1 or 0, ``stage`` the spec's ``PreRelease``: ``ALPHA``, ``BETA``, ``""`` for GA, ``DEPRECATED``;
one sample per gate of ``GetAll``, which leaves out gates PreAlpha at the emulated version) and
``kubernetes_build_info{git_version,...}`` (component-base ``metrics/version.go``).
"""

from __future__ import annotations

import json
import re

from .model import MAX_DOCUMENT_BYTES, Fact, InspectError, ObservedGate, Reading, Where, line_of

FEATURE_METRIC = "kubernetes_feature_enabled"
BUILD_METRIC = "kubernetes_build_info"
#: The ``stage`` label values component-base writes (featuregate ``prerelease`` constants).
STAGE_LABELS = ("ALPHA", "BETA", "", "DEPRECATED", "PRE-ALPHA")
_SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\S+)?\s*$")
_LABEL = re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(,|$)')
_ESCAPES = {"\\\\": "\\", '\\"': '"', "\\n": "\n"}


def read_version_json(text: str, source: str) -> Reading:
    """``kubectl get --raw /version``: the binary from ``gitVersion`` and, from 1.33, the
    emulation and min compatibility versions."""
    if len(text.encode()) > MAX_DOCUMENT_BYTES:
        raise InspectError(f"{source}: /version JSON larger than {MAX_DOCUMENT_BYTES:,} bytes")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InspectError(f"{source} line {exc.lineno}: not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise InspectError(f"{source}: JSON nested too deeply") from None
    if not isinstance(doc, dict) or "gitVersion" not in doc:
        raise InspectError(f"{source}: JSON without gitVersion: not a /version response")
    fields = {k: v for k, v in doc.items() if k in _VERSION_FIELDS}
    bad = [k for k, v in fields.items() if not isinstance(v, str)]
    if bad:
        raise InspectError(f"{source} line {line_of(text, bad[0]) or 1}: /version field {bad[0]} must be a string")

    def where(key: str) -> Where:
        return Where(source, line_of(text, f'"{key}"'))

    git = fields["gitVersion"]
    binary = (Fact(git, where("gitVersion"), f"gitVersion {git}"),)
    emulated = _pair(fields, "emulationMajor", "emulationMinor", where, source)
    min_compat = _pair(fields, "minCompatibilityMajor", "minCompatibilityMinor", where, source)
    notes = () if emulated else (f"{source}: no emulationMajor/emulationMinor (a server before 1.33 does not report them)",)
    return Reading(source, "/version", binary=binary, emulated=emulated, min_compat=min_compat, notes=notes)


_VERSION_FIELDS = (
    "major", "minor", "gitVersion", "gitCommit", "gitTreeState", "buildDate", "goVersion", "compiler", "platform",
    "emulationMajor", "emulationMinor", "minCompatibilityMajor", "minCompatibilityMinor",
)


def _pair(fields: dict, major_key: str, minor_key: str, where, source: str) -> tuple[Fact, ...]:
    major, minor = fields.get(major_key), fields.get(minor_key)
    if not major and not minor:
        return ()
    if not (major and minor and major.isdigit() and minor.isdigit()):
        raise InspectError(f"{where(major_key if not major else minor_key)}: {major_key}/{minor_key} must both be numbers, found {major!r}/{minor!r}")
    return (Fact(f"{major}.{minor}", where(minor_key), f"{major_key} {major}, {minor_key} {minor}"),)


def _labels(text: str, where: Where) -> dict[str, str]:
    labels: dict[str, str] = {}
    pos = 0
    while pos < len(text):
        match = _LABEL.match(text, pos)
        if not match:
            raise InspectError(f"{where}: malformed labels {{{text[:200]}}}")
        name, raw = match.group(1), match.group(2)
        if name in labels:
            raise InspectError(f"{where}: label {name} given twice")
        labels[name] = re.sub(r"\\.", lambda m: _ESCAPES.get(m.group(0), m.group(0)), raw)
        pos = match.end()
    return labels


def read_metrics(text: str, source: str) -> Reading:
    """``kubectl get --raw /metrics``: every ``kubernetes_feature_enabled`` sample and the
    ``kubernetes_build_info`` git version. Other metrics are skipped; a gate named twice with
    different values is a contradiction."""
    gates: dict[str, ObservedGate] = {}
    binary: list[Fact] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.startswith(("kubernetes_feature_enabled", "kubernetes_build_info")):
            continue
        where = Where(source, number)
        match = _SAMPLE.match(line)
        if not match:
            raise InspectError(f"{where}: not a Prometheus sample line: {line[:200]}")
        metric, labels_text, value_text = match.groups()
        if metric not in (FEATURE_METRIC, BUILD_METRIC):
            continue
        labels = _labels(labels_text or "", where)
        if metric == BUILD_METRIC:
            if labels.get("git_version"):
                binary.append(Fact(labels["git_version"], where, f"kubernetes_build_info git_version {labels['git_version']}"))
            continue
        try:
            value = float(value_text)
        except ValueError:
            raise InspectError(f"{where}: sample value {value_text[:50]!r} is not a number") from None
        if value not in (0.0, 1.0):
            raise InspectError(f"{where}: {FEATURE_METRIC} is 1 or 0, found {value_text[:50]}")
        name, stage = labels.get("name"), labels.get("stage")
        if not name or stage is None:
            raise InspectError(f"{where}: {FEATURE_METRIC} without the name and stage labels")
        if stage not in STAGE_LABELS:
            raise InspectError(f"{where}: unknown stage {stage!r} (component-base writes ALPHA, BETA, \"\" for GA, DEPRECATED)")
        gate = ObservedGate(name, stage, value == 1.0, where)
        earlier = gates.get(name)
        if earlier is not None and (earlier.enabled, earlier.stage) != (gate.enabled, gate.stage):
            raise InspectError(f"{where}: {name} contradicts {earlier.where} (a /metrics of two different servers?)")
        gates[name] = gate
    if not gates and not binary:
        raise InspectError(f"{source}: no {FEATURE_METRIC} or {BUILD_METRIC} samples: not the /metrics of a control-plane component")
    notes = () if gates else (f"{source}: no {FEATURE_METRIC} samples",)
    return Reading(source, "/metrics", binary=tuple(binary[:1]), observed=tuple(gates.values()), notes=notes)
