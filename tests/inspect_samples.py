"""Sample inputs for kcompat inspect that no file can hold: ``/metrics`` text GENERATED from the
engine's own prediction, in the exact text format a kube-apiserver serves (Prometheus text
exposition: families sorted by name, samples sorted by label values, ``# HELP`` with the
component-base stability prefix, ``# TYPE``; labels in the order the metric declares them).

- ``kubernetes_feature_enabled{name,stage}``: component-base
  metrics/prometheus/feature/metrics.go (stability BETA since 1.28), one sample per gate of
  ``GetAll`` (gates not PreAlpha at the emulated version) plus AllAlpha and AllBeta, stage the
  spec's PreRelease (``""`` for GA).
- ``kubernetes_build_info``: component-base metrics/version.go (ALPHA before 1.36, BETA from 1.36).
- Client-go gates the bundled data does not know yet are added as a real server shows them,
  and only while the engine does not know them (so the sample follows the data).
"""

from __future__ import annotations

import json
from pathlib import Path

from kcompat.answers.gates import gate_evaluation
from kcompat.core.inspect import predicted_on_metrics
from kcompat.core.request import Request
from kcompat.data.catalog import DEFAULT_CATALOG

SAMPLES = Path(__file__).resolve().parent / "samples" / "inspect"
FEATURE_HELP = "# HELP kubernetes_feature_enabled [BETA] This metric records the data about the stage and enablement of a k8s feature."
BUILD_HELP = (
    "# HELP kubernetes_build_info [{level}] A metric with a constant '1' value labeled by major, minor, git version, "
    "git commit, git tree state, build date, Go version, and compiler from which Kubernetes was built, and platform "
    "on which it is running."
)
#: client-go gates a 1.32+ kube-apiserver registers (k8s.io/client-go/features), as /metrics shows them
CLIENT_GO_GATES = (("ClientsAllowCBOR", "ALPHA", 0), ("InformerResourceVersion", "ALPHA", 0), ("WatchListClient", "BETA", 0))


def version_info(path: str) -> dict:
    return json.loads((SAMPLES / path).read_text())


def metrics_text(binary: str, emulated: str | None, feature_gates: str | None = None, info: dict | None = None) -> str:
    """The /metrics a kube-apiserver of ``binary`` at ``emulated`` would serve, from the engine."""
    evaluation = gate_evaluation(DEFAULT_CATALOG, Request(binary, emulated, None, feature_gates))
    shown = predicted_on_metrics(evaluation)
    known = {g.name for g in evaluation.gates}
    samples = [(g.name, g.stage.label, int(g.enabled)) for g in shown.values()]
    samples += [s for s in CLIENT_GO_GATES if s[0] not in known]
    info = info or {}
    major, minor = binary.lstrip("v").split(".")[:2]
    level = "BETA" if int(minor) >= 36 else "ALPHA"
    build = {
        "build_date": info.get("buildDate", "2024-12-11T17:59:15Z"),
        "compiler": "gc",
        "git_commit": info.get("gitCommit", "70d3cc986aa8221cd1dfb1121852688902d3bf53"),
        "git_tree_state": "clean",
        "git_version": info.get("gitVersion", f"v{major}.{minor}.0"),
        "go_version": info.get("goVersion", "go1.23.3"),
        "major": major,
        "minor": minor,
        "platform": "linux/amd64",
    }
    lines = [
        "# HELP apiserver_storage_objects [STABLE] Number of stored objects at the time of last check split by kind. "
        "In case of a fetching error, the value will be -1.",
        "# TYPE apiserver_storage_objects gauge",
        'apiserver_storage_objects{resource="events"} 41',
        'apiserver_storage_objects{resource="pods"} 12',
        BUILD_HELP.format(level=level),
        "# TYPE kubernetes_build_info gauge",
        "kubernetes_build_info{" + ",".join(f'{k}="{v}"' for k, v in build.items()) + "} 1",
        FEATURE_HELP,
        "# TYPE kubernetes_feature_enabled gauge",
    ]
    lines += [f'kubernetes_feature_enabled{{name="{n}",stage="{s}"}} {v}' for n, s, v in sorted(samples)]
    lines += [
        "# HELP process_start_time_seconds [ALPHA] Start time of the process since unix epoch in seconds.",
        "# TYPE process_start_time_seconds gauge",
        "process_start_time_seconds 1.73390245981e+09",
    ]
    return "\n".join(lines) + "\n"


def flip(metrics: str, name: str) -> str:
    """The same text with one gate's value flipped."""
    out = []
    for line in metrics.splitlines():
        if line.startswith(f'kubernetes_feature_enabled{{name="{name}",'):
            value = line.rsplit(" ", 1)[1]
            line = line.rsplit(" ", 1)[0] + (" 0" if value == "1" else " 1")
        out.append(line)
    return "\n".join(out) + "\n"
