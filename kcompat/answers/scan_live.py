"""The question asked before setting, raising or rolling back ``--emulated-version`` on a real
cluster: "which of the objects in this cluster would my target control plane no longer serve,
and which of our releases would fail to apply?" (``kcompat scan --live``). The cluster is read by
:mod:`kcompat.data.live_objects`; the rules are :mod:`kcompat.core.cluster_scan`'s (with
:mod:`kcompat.core.scan`'s served/nearest rules); the served APIs are :func:`kcompat.answers.apis.apis`'
answer for the same flags.

Exit status (:attr:`kcompat.core.cluster_scan.ClusterScanAnswer.exit_status`): 0 all served, 1
something would not be, 2 the cluster could not be read or the binary would refuse the selection.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from kcompat.answers.apis import apis
from kcompat.answers.queries import newest_release
from kcompat.answers.scan import target_problems
from kcompat.core.apis import ApiAvailability
from kcompat.core.cluster_scan import ClusterReading, ClusterScanAnswer, check_reading
from kcompat.core.errors import KcompatError
from kcompat.core.request import Request, joined
from kcompat.data.catalog import Catalog
from kcompat.data.lifecycle import api_lifecycle

Progress = Callable[[str], None]


def scan_cluster(catalog: Catalog, request: Request, read: Callable[[], ClusterReading]) -> ClusterScanAnswer:
    """The cluster ``read()`` returns, checked for the selection. The selection is answered first:
    when the binary would refuse it the cluster is not read. ``read`` raising
    :class:`KcompatError` (the cluster cannot be reached) is the answer's ``unreadable``."""
    default_binary = not request.binary
    binary = request.binary or newest_release(catalog)
    request = request.with_(binary=binary)
    result = apis(catalog, request)
    errors, warnings, hints = target_problems(catalog, result, request)
    answer = ClusterScanAnswer(
        binary=binary, default_binary=default_binary, emulated=str(result.emulated),
        min_compat=str(result.selection.min_compat) if result.selection is not None else "",
        feature_gates=joined(request.feature_gates) or "", runtime_config=joined(request.runtime_config) or "",
        emulation_forward_compatible=request.emulation_forward_compatible,
        runtime_config_emulation_forward_compatible=request.runtime_config_emulation_forward_compatible,
        errors=errors, warnings=warnings, hints=hints,
    )
    if errors:  # the binary would refuse, or never become ready: the cluster is not read
        return answer
    try:
        reading = read()
    except KcompatError as exc:
        return replace(answer, unreadable=str(exc))
    return check_cluster(catalog, answer, reading, result)


def check_cluster(catalog: Catalog, answer: ClusterScanAnswer, reading: ClusterReading, result: ApiAvailability) -> ClusterScanAnswer:
    """``answer`` with ``reading`` checked against ``result`` (the selection's served APIs)."""
    data = result.api_data
    check = check_reading(reading, result, data.api_release(result.binary), api_lifecycle(catalog.data_dir))
    return replace(answer, reading=reading, check=check)


@dataclass(frozen=True, slots=True)
class LiveTarget:
    """The cluster to read: a kubeconfig (None: as kubectl finds it) and a context (None: its
    current one), how long one request may take and the whole reading (None: the reader's limit)."""

    kubeconfig: str | None = None
    context: str | None = None
    timeout: float = 60.0
    max_seconds: float | None = None


def live_reader(target: LiveTarget, progress: Progress | None = None) -> Callable[[], ClusterReading]:
    """What :func:`scan_cluster` calls to read the cluster of a kubeconfig context
    (:func:`kcompat.data.live.open_cluster`, then :func:`kcompat.data.live_objects.read_cluster`)."""
    kubeconfig, context, timeout, max_seconds = target.kubeconfig, target.context, target.timeout, target.max_seconds

    def read() -> ClusterReading:
        from kcompat.core.errors import echo
        from kcompat.data.live import open_cluster
        from kcompat.data.live_objects import MAX_SECONDS, Limits, read_cluster

        with open_cluster(kubeconfig, context, progress, timeout) as cluster:
            if progress is not None:
                progress(f"reading what context {echo(cluster.target.context)} holds {cluster.how}")
            return read_cluster(cluster, Limits(max_seconds=max_seconds or MAX_SECONDS), progress)

    return read
