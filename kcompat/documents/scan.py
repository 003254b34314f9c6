"""The ``kcompat scan`` document, table rows and texts (the Check manifests page shows and downloads
the same), written from :class:`kcompat.core.scan.ScanAnswer` (:func:`kcompat.answers.scan.scan`'s answer).

JSON document::

    {"binary", "emulated", "minCompatibility", "featureGates", "runtimeConfig",
     "emulationForwardCompatible", "runtimeConfigEmulationForwardCompatible",
     "valid", "errors", "warnings", "hints",
     "inputs": [{"file", "format", "documents", "objects", "problem"}],
     "summary": {"objects", "served", "notServed", "notChecked"},
     "objects": [{"file", "line", "template", "apiVersion", "kind", "name", "namespace", "group", "version",
                  "resource", "status", "why", "reason", "nearest", "nearestKind", "nearestNote",
                  "deprecatedIn", "removedIn", "replacement", "lifecycleRecorded", "lifecycle"}]}

``status`` is ``served``, ``not served`` or ``not checked``; ``why`` a code (``removed``,
``not-introduced``, ``off-by-default``, ``disabled-by-runtime-config``, ``gate-off``,
``not-in-binary``, ``not-a-resource``, ``unknown-version``, ``not-in-data``, ``custom-resource``,
``custom-resource-version``, ``not-built-in``, ``served``) and ``reason`` the words; ``nearest``
the nearest served group/version (``nearestKind`` when the replacement is another kind). The JSON
lists every object; the other formats list those not served and not checked (every object with
``--all``). ``errors`` are the binary's own refusals of the selection (with the remedies in
``hints``) and the inputs that could not be read.

Every built-in kind, served or not, carries its deprecation facts from the binary's release data
(``APILifecycleDeprecated``, ``APILifecycleRemoved``, ``APILifecycleReplacement``; for a kind the
binary's data no longer has, from the newest bundled release that has it): ``deprecatedIn``,
``removedIn`` and ``replacement`` (``flowcontrol.apiserver.k8s.io/v1 FlowSchema``), null where
the data says not deprecated, no removal set or none named; ``lifecycleRecorded`` false when the
kind's package has no lifecycle data at all (the three are then "not recorded", never guessed);
``lifecycle`` says it in words for the emulated version ("deprecated in 1.29 (deprecated at the
emulated 1.31), removed in 1.32, replaced by flowcontrol.apiserver.k8s.io/v1 FlowSchema"), as
the ``lifecycle`` column of the other formats does. A custom resource or an unknown group has
none of them (null, and ``lifecycleRecorded`` null).
"""

from __future__ import annotations

from kcompat.core.cluster_scan import (
    HELM_FINDING,
    LAST_APPLIED_FINDING,
    UNREACHABLE,
    ClusterScanAnswer,
    Finding,
)
from kcompat.core.errors import MESSAGE_LIMIT, cut
from kcompat.core.scan import NOT_CHECKED, NOT_SERVED, SERVED, ObjectCheck, ScanAnswer
from kcompat.core.versions import Version, parse_version

from .gates import hint_dict

#: The columns of the table, CSV and Markdown formats (and of the page's table).
SCAN_COLUMNS = ("where", "apiVersion", "kind", "name", "status", "reason", "nearest", "lifecycle")


def _emulated(answer: ScanAnswer | ClusterScanAnswer) -> Version | None:
    try:
        return parse_version(answer.emulated) if answer.emulated else None
    except ValueError:
        return None


def lifecycle_text(check: ObjectCheck, emulated: Version | None = None) -> str:
    """The object's deprecation facts in words ("" for a kind that is not built in)."""
    return check.lifecycle.text(emulated) if check.lifecycle is not None else ""


def lifecycle_fields(check: ObjectCheck, emulated: Version | None = None) -> dict[str, object]:
    """The object's deprecation facts as JSON fields: ``deprecatedIn``, ``removedIn``,
    ``replacement``, ``lifecycleRecorded`` and ``lifecycle`` (in words at ``emulated``)."""
    facts = check.lifecycle
    return {
        **(facts.document() if facts is not None else {"deprecatedIn": None, "removedIn": None, "replacement": None}),
        "lifecycleRecorded": facts.recorded if facts is not None else None,
        "lifecycle": facts.text(emulated) if facts is not None else None,
    }


def object_item(check: ObjectCheck, emulated: Version | None = None) -> dict[str, object]:
    o = check.object
    return {
        "file": o.file, "line": o.line, "template": o.template, "apiVersion": o.api_version, "kind": o.kind,
        "name": o.name, "namespace": o.namespace, "group": check.group, "version": check.version, "resource": check.resource,
        "status": check.status, "why": check.why, "reason": check.reason, "nearest": check.nearest,
        "nearestKind": check.nearest_kind, "nearestNote": check.nearest_note,
        **lifecycle_fields(check, emulated),
    }


def scan_document(answer: ScanAnswer) -> dict[str, object]:
    """The JSON contract of ``kcompat scan`` (the module docstring); the lists of problems bounded
    (:func:`kcompat.documents.formats.bound_lists`), the --feature-gates value echoed cut."""
    from kcompat.documents.formats import bound_lists

    return bound_lists({
        "binary": answer.binary,
        "emulated": answer.emulated,
        "minCompatibility": answer.min_compat,
        "featureGates": cut(answer.feature_gates, MESSAGE_LIMIT),
        "runtimeConfig": cut(answer.runtime_config, MESSAGE_LIMIT),
        "emulationForwardCompatible": answer.emulation_forward_compatible,
        "runtimeConfigEmulationForwardCompatible": answer.runtime_config_emulation_forward_compatible,
        "valid": answer.valid,
        "errors": [cut(e, MESSAGE_LIMIT) for e in (*answer.errors, *answer.problems)],
        "warnings": [cut(w, MESSAGE_LIMIT) for w in answer.warnings],
        "hints": [hint_dict(h) for h in answer.hints],
        "inputs": [
            {"file": i.file, "format": i.format, "documents": i.documents, "objects": i.objects, "problem": i.problem}
            for i in answer.inputs
        ],
        "summary": summary_counts(answer),
        "objects": [object_item(c, _emulated(answer)) for c in answer.checks],
    })


def summary_counts(answer: ScanAnswer) -> dict[str, int]:
    return {
        "objects": len(answer.checks),
        "served": answer.count(SERVED),
        "notServed": answer.count(NOT_SERVED),
        "notChecked": answer.count(NOT_CHECKED),
    }


def scan_rows(answer: ScanAnswer, every: bool = False) -> list[dict[str, object]]:
    """The table rows (:data:`SCAN_COLUMNS`): the objects not served and not checked, every object with ``every``."""
    emulated = _emulated(answer)
    return [
        {
            "where": c.object.where, "apiVersion": c.object.api_version, "kind": c.object.kind, "name": c.object.name or "",
            "status": c.status, "reason": c.reason, "nearest": c.nearest_text, "lifecycle": lifecycle_text(c, emulated),
        }
        for c in answer.shown(every)
    ]


def summary_line(answer: ScanAnswer) -> str:
    """``binary 1.36, emulated 1.33: 12 objects in 2 inputs; 9 served, 2 not served, 1 not checked``."""
    counts = summary_counts(answer)
    which = " (the newest bundled release: --binary picks another)" if answer.default_binary else ""
    inputs = len(answer.inputs)
    return (
        f"binary {answer.binary}{which}, emulated {answer.emulated}, min compatibility {answer.min_compat}: "
        f"{_n(counts['objects'], 'object')} in {_n(inputs, 'input')}; {counts['served']} served, {counts['notServed']} not served, "
        f"{counts['notChecked']} not checked"
    )


def _n(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def scan_text(answer: ScanAnswer, fmt: str, every: bool = False) -> str:
    """What ``kcompat scan --format <fmt>`` prints on stdout (the summary and problems go to stderr)."""
    from kcompat.documents import formats

    if fmt == "json":
        return formats.to_json(scan_document(answer))
    return formats.render_rows(fmt, scan_rows(answer, every), SCAN_COLUMNS)


# ---------------------------------------------------------------------------------------------
# kcompat scan --live: a cluster's objects, last-applied versions and Helm releases
#
# JSON document::
#
#     {"binary", "emulated", "minCompatibility", "featureGates", "runtimeConfig",
#      "emulationForwardCompatible", "runtimeConfigEmulationForwardCompatible",
#      "valid", "errors", "warnings", "hints",
#      "cluster": {"context", "server", "servedResources", "listedResources", "objects",
#                  "helmReleases", "otherHelmRevisions", "requests", "seconds"},
#      "summary": {"unreachable", "lastApplied", "helmRelease", "notRead", "unknown", "notChecked"},
#      "findings": [{"finding", "subject", "apiVersion", "kind", "resource", "objects", "examples",
#                    "release", "namespace", "template", "why", "reason", "nearest", "nearestKind",
#                    "nearestNote", "deprecated", "removed", "replacement"}],
#      "notRead": [text], "unknown": [{"resource", "apiVersion", "kind", "problem"}],
#      "notChecked": [{"resource", "apiVersion", "kind", "objects"}]}
#
# ``finding`` is ``unreachable`` (a resource holding objects whose kind the target serves at no
# version of its group), ``last-applied`` (objects last applied with an apiVersion the target does
# not serve) or ``helm-release`` (an object of a deployed Helm release's manifest), the worst
# first. ``errors`` are the binary's refusals of the selection and why the cluster could not be
# read; ``notRead`` what could not be read (a 403 per resource, a limit, a group's discovery).

#: The columns of the table, CSV and Markdown formats of ``scan --live``.
LIVE_SCAN_COLUMNS = ("finding", "what", "apiVersion", "objects", "reason", "nearest", "lifecycle")


def finding_item(f: Finding, emulated: Version | None = None) -> dict[str, object]:
    c = f.check
    return {
        "finding": f.finding, "subject": f.subject, "apiVersion": c.object.api_version, "kind": c.object.kind, "resource": c.resource,
        "objects": f.objects, "examples": list(f.examples), "release": f.release, "namespace": f.namespace, "template": f.template,
        "why": c.why, "reason": c.reason, "nearest": c.nearest, "nearestKind": c.nearest_kind, "nearestNote": c.nearest_note,
        **lifecycle_fields(c, emulated),
    }


def live_summary_counts(answer: ClusterScanAnswer) -> dict[str, int]:
    check = answer.check
    return {
        "unreachable": answer.count(UNREACHABLE),
        "lastApplied": answer.count(LAST_APPLIED_FINDING),
        "helmRelease": answer.count(HELM_FINDING),
        "notRead": len(answer.not_read),
        "unknown": len(check.unknown) if check is not None else 0,
        "notChecked": len(check.not_checked) if check is not None else 0,
    }


def live_scan_document(answer: ClusterScanAnswer) -> dict[str, object]:
    """The JSON contract of ``kcompat scan --live`` (the comment above)."""
    r, check = answer.reading, answer.check
    errors = [*answer.errors, *([answer.unreadable] if answer.unreadable else [])]
    return {
        "binary": answer.binary,
        "emulated": answer.emulated,
        "minCompatibility": answer.min_compat,
        "featureGates": answer.feature_gates,
        "runtimeConfig": answer.runtime_config,
        "emulationForwardCompatible": answer.emulation_forward_compatible,
        "runtimeConfigEmulationForwardCompatible": answer.runtime_config_emulation_forward_compatible,
        "valid": answer.valid,
        "errors": [cut(e, MESSAGE_LIMIT) for e in errors],
        "warnings": [cut(w, MESSAGE_LIMIT) for w in answer.warnings],
        "hints": [hint_dict(h) for h in answer.hints],
        "cluster": None if r is None else {
            "context": r.context, "server": r.server, "servedResources": len(r.served), "listedResources": len(r.resources),
            "objects": r.objects, "helmReleases": len(r.releases), "otherHelmRevisions": r.other_revisions,
            "requests": r.requests, "seconds": r.seconds,
        },
        "summary": live_summary_counts(answer),
        "findings": [finding_item(f, _emulated(answer)) for f in answer.findings],
        "notRead": [cut(t, MESSAGE_LIMIT) for t in answer.not_read],
        "unknown": [{"resource": u.label, "apiVersion": u.api_version, "kind": u.kind, "problem": u.problem}
                    for u in (check.unknown if check is not None else ())],
        "notChecked": [{"resource": n.label, "apiVersion": n.api_version, "kind": n.kind, "objects": n.objects}
                       for n in (check.not_checked if check is not None else ())],
    }


def live_scan_rows(answer: ClusterScanAnswer) -> list[dict[str, object]]:
    """The table rows (:data:`LIVE_SCAN_COLUMNS`), the worst finding first."""
    rows: list[dict[str, object]] = []
    for f in answer.findings:
        c = f.check
        shown = f.examples[:3]
        examples = ", ".join(shown) + (", …" if shown and f.objects > len(shown) else "")
        what = f"{f.subject}: {examples}" if examples else f.subject
        if f.template:
            what += f" ({f.template})"
        rows.append({
            "finding": f.finding, "what": what, "apiVersion": f"{c.object.api_version} {c.object.kind}", "objects": f.objects,
            "reason": c.reason, "nearest": c.nearest_text, "lifecycle": lifecycle_text(c, _emulated(answer)),
        })
    return rows


def live_summary_line(answer: ClusterScanAnswer) -> str:
    """``binary 1.36, emulated 1.33, min compatibility 1.33: context kind: 10,234 objects in 61
    resources, 2 deployed Helm releases; 1 resource unreachable, ...``."""
    which = " (the newest bundled release: --binary picks another)" if answer.default_binary else ""
    head = f"binary {answer.binary}{which}, emulated {answer.emulated}, min compatibility {answer.min_compat}"
    r = answer.reading
    if r is None:
        return f"{head}: the cluster was not read"
    counts = live_summary_counts(answer)
    read = (f"context {r.context}: {_n(r.objects, 'object')} in {_n(len(r.resources), 'resource')}, "
            f"{_n(len(r.releases), 'deployed Helm release')} ({r.seconds:g} s, {_n(r.requests, 'request')})")
    found = (f"{counts['unreachable']} resource(s) holding objects would be unreachable, {counts['lastApplied']} last-applied apiVersion(s) "
             f"not served, {counts['helmRelease']} Helm release object(s) not served")
    tail = f"; {counts['notRead']} thing(s) could not be read (below)" if counts["notRead"] else ""
    if counts["unknown"]:
        tail += f"; {counts['unknown']} resource(s) the target does not serve could not be listed: whether they hold objects is not known"
    return f"{head}: {read}; {found}{tail}"


def live_scan_text(answer: ClusterScanAnswer, fmt: str) -> str:
    """What ``kcompat scan --live --format <fmt>`` prints on stdout (the summary and what could not
    be read go to stderr)."""
    from kcompat.documents import formats

    if fmt == "json":
        return formats.to_json(live_scan_document(answer))
    return formats.render_rows(fmt, live_scan_rows(answer), LIVE_SCAN_COLUMNS)
