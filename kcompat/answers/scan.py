"""The support engineer's question "will my workloads still work under this emulated control
plane?": every object of some manifests against the built-in APIs a kube-apiserver serves for a
selection (binary, emulated and min compatibility versions, ``--runtime-config``,
``--feature-gates``, the forward-compatibility flags), asked the same way by ``kcompat scan`` and
the Check manifests page. The rules are :mod:`kcompat.core.scan`'s; the served APIs are
:func:`kcompat.answers.apis.apis`' answer for the same flags (``kcompat apis``).

The selection is checked as ``kcompat apis`` checks it (:func:`kcompat.answers.apis.apis_startup`:
kube-apiserver's whole start-up): a control plane that would refuse to start, or would start and
never become ready, serves nothing to check the objects against, and the answer says so in
``errors``.

Exit status (:attr:`kcompat.core.scan.ScanAnswer.exit_status`): 0 every built-in object is served, 1 some are not,
2 an input is not a manifest, or the binary would refuse the selection or never become ready with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from kcompat.answers.apis import apis, apis_startup
from kcompat.answers.queries import newest_release
from kcompat.core.apis import ApiAvailability
from kcompat.core.errors import KcompatError
from kcompat.core.problems import Remedy
from kcompat.core.request import Request, joined
from kcompat.core.scan import (
    MAX_SCAN_OBJECTS,
    ManifestReading,
    ScanAnswer,
    ScanInput,
    check_objects,
    read_manifests,
)
from kcompat.data.catalog import Catalog
from kcompat.data.lifecycle import api_lifecycle

#: The start of the errors of a selection kube-apiserver starts with but never becomes ready with:
#: the objects are checked against APIs it would never serve to a client.
COULD_NOT_CHECK = "could not check"


def target_problems(catalog: Catalog, result: ApiAvailability, request: Request) -> tuple[tuple[str, ...], tuple[str, ...], tuple[Remedy, ...]]:
    """(errors, warnings, hints) of the kube-apiserver a scan checks against: its start-up checks
    as ``kcompat apis`` runs them (a refusal, or "could not check" for each reason it would never
    become ready). Every scan, of files or of a live cluster, checks nothing when there are errors."""
    startup = apis_startup(catalog, result, request.with_(options=None))  # (the options' defaults)
    return (*startup.errors, *(_could_not_check(reason) for reason in startup.not_ready)), startup.warnings, startup.hints


def _could_not_check(reason: str) -> str:
    """A reason kube-apiserver would never become ready, as scan's error."""
    if reason.startswith("kube-apiserver starts but does not become ready"):
        return f"{COULD_NOT_CHECK}: {reason}"
    return f"{COULD_NOT_CHECK}: kube-apiserver would never become ready: {reason}"


def read_inputs(inputs: Sequence[tuple[str, bytes | str]]) -> tuple[list[ManifestReading], list[ScanInput]]:
    """Each input read (:func:`kcompat.core.scan.read_manifests`); one that cannot be read is kept
    with its problem, and the others are still read."""
    readings: list[ManifestReading] = []
    described: list[ScanInput] = []
    total = 0
    for name, content in inputs:
        try:
            reading = read_manifests(content, name)
        except KcompatError as exc:
            described.append(ScanInput(name, None, 0, 0, str(exc)))
            continue
        total += len(reading.objects)
        if total > MAX_SCAN_OBJECTS:
            described.append(ScanInput(name, reading.format, reading.documents, len(reading.objects),
                                       f"{name}: more than {MAX_SCAN_OBJECTS:,} objects in all the inputs, the limit for one scan"))
            continue
        readings.append(reading)
        described.append(ScanInput(name, reading.format, reading.documents, len(reading.objects)))
    return readings, described


def scan(catalog: Catalog, request: Request, inputs: Sequence[tuple[str, bytes | str]], unread: Sequence[ScanInput] = ()) -> ScanAnswer:
    """Every object of ``inputs`` ((name, content) pairs) checked for the selection; ``unread``:
    inputs the caller could not read at all (kept with their problem). Without a binary the
    newest bundled release answers. A binary that is no version or has no data raises
    :class:`KcompatError`; a selection the binary refuses is answered (``errors``)."""
    default_binary = not request.binary
    binary = request.binary or newest_release(catalog)
    request = request.with_(binary=binary)
    result = apis(catalog, request)
    errors, warnings, hints = target_problems(catalog, result, request)
    readings, described = read_inputs(inputs)
    objects = [o for r in readings for o in r.objects]
    definitions = [d for r in readings for d in r.definitions]
    checks = check_objects(objects, definitions, result, result.api_data.api_release(result.binary), api_lifecycle(catalog.data_dir))
    return ScanAnswer(
        binary=binary,
        default_binary=default_binary,
        emulated=str(result.emulated),
        min_compat=str(result.selection.min_compat) if result.selection is not None else "",
        feature_gates=joined(request.feature_gates) or "",
        runtime_config=joined(request.runtime_config) or "",
        emulation_forward_compatible=request.emulation_forward_compatible,
        runtime_config_emulation_forward_compatible=request.runtime_config_emulation_forward_compatible,
        errors=errors,
        warnings=warnings,
        hints=hints,
        inputs=(*unread, *described),
        checks=checks,
    )
