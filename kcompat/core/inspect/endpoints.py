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
from collections.abc import Callable

from ..compat import parse_binary_version
from ..errors import KcompatError, cut, echo, quote_cut, repr_cut
from . import messages
from .model import (
    MAX_DOCUMENT_BYTES,
    MAX_OBSERVED_GATES,
    Fact,
    InspectError,
    Lines,
    ObservedGate,
    Reading,
    Where,
)

FEATURE_METRIC = "kubernetes_feature_enabled"
BUILD_METRIC = "kubernetes_build_info"
#: The ``stage`` label values component-base writes (featuregate ``prerelease`` constants).
STAGE_LABELS = ("ALPHA", "BETA", "", "DEPRECATED", "PRE-ALPHA")
_SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\S+)?\s*$")
_LABEL = re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(,|$)')
_ESCAPES = {"\\\\": "\\", '\\"': '"', "\\n": "\n"}


#: A JSON string, or a bracket: enough to find each key's depth and place in one pass.
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]]')
_JSON_COLON = re.compile(r"\s*:")


def json_top_keys(text: str) -> list[tuple[str, int]]:
    """Every key of the top-level JSON object, in order, with the offset where it is written
    (keys of nested objects and strings that only look like keys are not counted)."""
    keys: list[tuple[str, int]] = []
    depth = 0
    for token in _JSON_TOKEN.finditer(text):
        first = token.group()[0]
        if first in "{[":
            depth += 1
        elif first in "}]":
            depth -= 1
        elif depth == 1 and _JSON_COLON.match(text, token.end()):
            try:
                keys.append((json.loads(token.group()), token.start()))
            except ValueError:
                continue
    return keys


def read_version_json(text: str, source: str) -> Reading:
    """``kubectl get --raw /version``: the binary from ``gitVersion`` and, from 1.33, the
    emulation and min compatibility versions. A key given twice is refused (Go's decoder would
    keep the last one silently; which one the server meant is unknowable)."""
    if len(text.encode()) > MAX_DOCUMENT_BYTES:
        raise InspectError(f"{source}: /version JSON larger than the limit of {MAX_DOCUMENT_BYTES:,} bytes")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InspectError(f"{source} line {exc.lineno}: not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise InspectError(f"{source}: JSON nested too deeply") from None
    if not isinstance(doc, dict) or "gitVersion" not in doc:
        raise InspectError(f"{source}: {messages.json_not_version(doc)}")
    lines = Lines(text)
    placed: dict[str, int] = {}
    for key, offset in json_top_keys(text):
        if key in placed:
            raise InspectError(
                f"{source} line {lines.line(offset)}: key {quote_cut(key)} given twice (first on line {lines.line(placed[key])})"
            )
        placed[key] = offset
    fields = {k: v for k, v in doc.items() if k in _VERSION_FIELDS}

    def where(key: str) -> Where:
        return Where(source, lines.line(placed[key]) if key in placed else None)

    bad = [k for k, v in fields.items() if not isinstance(v, str)]
    if bad:
        raise InspectError(f"{where(bad[0])}: /version field {bad[0]} must be a string")
    git = fields["gitVersion"]
    _check_major_minor(fields, where)
    binary = (Fact(git, where("gitVersion"), f"gitVersion {git}"),)
    emulated = _pair(fields, "emulationMajor", "emulationMinor", where)
    min_compat = _pair(fields, "minCompatibilityMajor", "minCompatibilityMinor", where)
    notes = () if emulated else (f"{source}: no emulationMajor/emulationMinor (a server before 1.33 does not report them)",)
    return Reading(source, "/version", binary=binary, emulated=emulated, min_compat=min_compat, notes=notes)


def _check_major_minor(fields: dict[str, str], where: Callable[[str], Where]) -> None:
    """``major``/``minor`` come from the same build as ``gitVersion`` (``pkg/version/base.go``'s
    gitMajor, gitMinor, gitVersion): one that contradicts it is an edited or mixed answer. A
    provider's ``"33+"`` is the same minor; a build without them leaves them empty."""
    try:
        version = parse_binary_version(fields["gitVersion"])
    except KcompatError:
        return  # named later, where the binary version is chosen
    for key, expected in (("major", version.major), ("minor", version.minor)):
        value = fields.get(key, "").rstrip("+")
        if value.isdigit() and int(value) != expected:
            raise InspectError(messages.version_field_contradicts(where(key), key, fields[key], fields["gitVersion"], where("gitVersion")))


_VERSION_FIELDS = (
    "major", "minor", "gitVersion", "gitCommit", "gitTreeState", "buildDate", "goVersion", "compiler", "platform",
    "emulationMajor", "emulationMinor", "minCompatibilityMajor", "minCompatibilityMinor",
)


def _pair(fields: dict[str, str], major_key: str, minor_key: str, where: Callable[[str], Where]) -> tuple[Fact, ...]:
    major, minor = fields.get(major_key), fields.get(minor_key)
    if not major and not minor:
        return ()
    if not (major and minor and major.isdigit() and minor.isdigit()):
        raise InspectError(
            f"{where(major_key if not major else minor_key)}: {major_key}/{minor_key} must both be numbers, "
            f"found {quote_cut(major or '')}/{quote_cut(minor or '')}"
        )
    return (Fact(f"{major}.{minor}", where(minor_key), f"{major_key} {major}, {minor_key} {minor}"),)


def _labels(text: str, where: Where) -> dict[str, str]:
    labels: dict[str, str] = {}
    pos = 0
    while pos < len(text):
        match = _LABEL.match(text, pos)
        if not match:
            raise InspectError(f"{where}: malformed labels {{{echo(text)}}}")
        name, raw = match.group(1), match.group(2)
        if name in labels:
            raise InspectError(f"{where}: label {echo(name)} given twice")
        labels[name] = re.sub(r"\\.", lambda m: _ESCAPES.get(m.group(0), m.group(0)), raw)
        pos = match.end()
    return labels


#: The lines read on /metrics (every other metric is skipped without being split or parsed).
_WANTED_LINE = re.compile(r"^kubernetes_(?:feature_enabled|build_info).*$", re.M)


def read_metrics(text: str, source: str) -> Reading:  # noqa: C901 - one pass over the /metrics lines, each kind of line read where it stands
    """``kubectl get --raw /metrics``: every ``kubernetes_feature_enabled`` sample and the
    ``kubernetes_build_info`` git version. Other metrics are skipped; a gate named twice with
    different values is a contradiction. More than :data:`MAX_OBSERVED_GATES` samples are refused."""
    gates: dict[str, ObservedGate] = {}
    binary: list[Fact] = []
    number, last, samples = 1, 0, 0
    for found in _WANTED_LINE.finditer(text):
        number += text.count("\n", last, found.start())
        last = found.start()
        line = found.group()
        where = Where(source, number)
        match = _SAMPLE.match(line)
        if not match:
            raise InspectError(f"{where}: not a Prometheus sample line: {echo(line)}")
        metric, labels_text, value_text = match.groups()
        if metric not in (FEATURE_METRIC, BUILD_METRIC):
            continue
        labels = _labels(labels_text or "", where)
        if metric == BUILD_METRIC:
            git_version = labels.get("git_version")
            if git_version:
                other = next((f for f in binary if f.value != git_version), None)
                if other is not None:
                    raise InspectError(messages.build_info_contradicts(where, git_version, other))
                binary.append(Fact(git_version, where, f"kubernetes_build_info git_version {git_version}"))
            continue
        samples += 1
        if samples > MAX_OBSERVED_GATES:
            raise InspectError(
                f"{where}: more than {MAX_OBSERVED_GATES:,} {FEATURE_METRIC} samples, the limit "
                "(a kube-apiserver lists about 700 gates)"
            )
        try:
            value = float(value_text)
        except ValueError:
            raise InspectError(f"{where}: sample value {quote_cut(value_text)} is not a number") from None
        if value not in (0.0, 1.0):
            raise InspectError(f"{where}: {FEATURE_METRIC} is 1 or 0, found {cut(value_text)}")
        name, stage = labels.get("name"), labels.get("stage")
        if not name or stage is None:
            raise InspectError(f"{where}: {FEATURE_METRIC} without the name and stage labels")
        if stage not in STAGE_LABELS:
            raise InspectError(f"{where}: unknown stage {repr_cut(stage)} (component-base writes ALPHA, BETA, \"\" for GA, DEPRECATED)")
        gate = ObservedGate(name, stage, value == 1.0, where)
        earlier = gates.get(name)
        if earlier is not None and (earlier.enabled, earlier.stage) != (gate.enabled, gate.stage):
            raise InspectError(f"{where}: {echo(name)} contradicts {earlier.where} (a /metrics of two different servers?)")
        gates[name] = gate
    if not gates and not binary:
        raise InspectError(f"{source}: no {FEATURE_METRIC} or {BUILD_METRIC} samples: not the /metrics of a control-plane component")
    notes = () if gates else (f"{source}: no {FEATURE_METRIC} samples",)
    return Reading(source, "/metrics", binary=tuple(binary[:1]), observed=tuple(gates.values()) if gates else None, notes=notes)
