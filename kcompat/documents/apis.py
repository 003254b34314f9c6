"""The ``kcompat apis`` document: built-in REST resources a kube-apiserver binary serves at an
emulated version, and whether a real binary of the emulated release serves each of them.

JSON document (exactly these keys)::

    {"binary", "emulated", "valid", "verdict", "errors", "notReady", "warnings", "hints", "against", "onlyDifferences",
     "apis": [{"group", "version", "kind", "resource", "subresources", "stage", "served",
               "servedByRelease", ["servedByBinary",] "deprecatedIn", "removedIn", "replacement",
               "lifecycleRecorded", "reason"}]}

``against`` is ``release`` or ``native`` (``kcompat apis --against``); with ``native`` each entry
also has ``servedByBinary``: whether the same binary at its own version (the same
``--runtime-config``) serves it. ``onlyDifferences`` (``--only-differences``): ``apis`` holds only
the entries where ``served`` differs from the side compared with.

The core group is ``""``. ``resource`` and ``subresources`` are the names the release's
k8s.io/client-go typed client uses; ``servedByRelease`` is whether a real binary of release
``emulated`` (its own version, the same ``--runtime-config``) serves the entry, null when that
release has no bundled data. ``deprecatedIn``, ``removedIn`` and ``replacement``
(``flowcontrol.apiserver.k8s.io/v1 FlowSchema``) are the kind's deprecation facts from the binary's
release data (``APILifecycleDeprecated``, ``APILifecycleRemoved``, ``APILifecycleReplacement``),
served or not: null where the data says not deprecated, no removal set or none named;
``lifecycleRecorded`` is false when the kind's package has no lifecycle data (the three are then
null and the table says "not recorded": never guessed). The table, CSV and Markdown formats say
them in words ("not deprecated", "no removal set", "none named", "not recorded"). ``hints`` are the remedies beside the errors (and beside the
alpha-under-emulation warning), each ``{"kind", "error", "gate", "text", "names"}`` as in
``kcompat gates`` (:func:`kcompat.core.remedies.api_remedies`). With kube-apiserver's whole
start-up (:func:`kcompat.answers.apis.apis_startup`), ``errors`` are its refusals in its order
(the option checks, such as --enable-priority-and-fairness against --runtime-config, beside the
API ones), ``verdict`` "starts", "refuses" or "not-ready" and ``notReady`` why it would not
become ready. Both the CLI and the APIs page build their output here.
"""

from __future__ import annotations

from ..core.api_comparison import ApiComparison
from ..core.apis import ApiAvailability, ApiEntry
from ..core.remedies.apis import apis_hints
from .gates import hint_dict

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any

    from ..answers.startup import StartupAnswer

DOCUMENT_KEYS = ("binary", "emulated", "valid", "verdict", "errors", "notReady", "warnings", "hints", "against", "onlyDifferences", "apis")
#: the deprecation facts of each entry (JSON keys and table columns alike)
LIFECYCLE_COLUMNS = ("deprecatedIn", "removedIn", "replacement")
API_KEYS = (
    "group", "version", "kind", "resource", "subresources", "stage", "served", "servedByRelease", *LIFECYCLE_COLUMNS, "lifecycleRecorded",
    "reason",
)
TABLE_COLUMNS = ("group", "version", "kind", "resource", "subresources", "stage", "served", "servedByRelease", *LIFECYCLE_COLUMNS, "reason")
#: ``kcompat apis --against native``: the same binary at its own version instead of a real release
NATIVE_COLUMNS = ("group", "version", "kind", "resource", "subresources", "stage", "served", "servedByBinary", *LIFECYCLE_COLUMNS, "reason")
DIFFERENCE_COLUMNS = ("group", "version", "resource", "kind", "served", "servedByRelease", "reason")


def table_columns(comparison: ApiComparison | None = None) -> tuple[str, ...]:
    """The table columns of ``kcompat apis`` (``--against native``: ``servedByBinary``)."""
    return NATIVE_COLUMNS if comparison is not None and comparison.against == "native" else TABLE_COLUMNS


def _entries(result: ApiAvailability, comparison: ApiComparison | None, only_differences: bool) -> tuple[ApiEntry, ...]:
    if not only_differences:
        return result.entries
    if comparison is None:
        return result.differences_from_release()
    return tuple(e for e in result.entries if comparison.differs(e))


def api_item(entry: ApiEntry, comparison: ApiComparison | None = None) -> dict[str, Any]:
    if comparison is not None and comparison.against == "native":
        item = _item(entry)
        return {**{k: item[k] for k in API_KEYS if k != "reason"}, "servedByBinary": comparison.served_there(entry), "reason": item["reason"]}
    return _item(entry)


def _item(entry: ApiEntry) -> dict[str, Any]:
    return {
        "group": entry.group,
        "version": entry.version,
        "kind": entry.kind,
        "resource": entry.resource,
        "subresources": list(entry.subresources),
        "stage": entry.stage,
        "served": entry.served,
        "servedByRelease": entry.served_by_release,
        **entry.lifecycle.document(),
        "lifecycleRecorded": entry.lifecycle.recorded,
        "reason": entry.detail,
    }


def lifecycle_words(entry: ApiEntry) -> dict[str, str]:
    """The deprecation facts as the table says them: ``1.29``, "not deprecated", "no removal set",
    "none named", "not recorded"."""
    facts = entry.lifecycle
    return {"deprecatedIn": facts.deprecated_text(), "removedIn": facts.removed_text(), "replacement": facts.replacement_text()}


def apis_document(
    result: ApiAvailability, comparison: ApiComparison | None = None, only_differences: bool = False, *, startup: StartupAnswer | None = None,
) -> dict[str, Any]:
    """The JSON contract of ``kcompat apis`` (``comparison``: :func:`kcompat.answers.apis.compare_apis`;
    none = against a real release; with kube-apiserver's whole start-up when ``startup`` is given)."""
    hints = apis_hints(result, startup.hints if startup is not None else None)
    from kcompat.documents.formats import bound_lists

    return bound_lists({  # the first 20 errors, warnings, hints, each cut, then how many more
        "binary": str(result.binary),
        "emulated": str(result.emulated),
        "valid": result.valid if startup is None else not startup.errors,
        "verdict": ("starts" if result.valid else "refuses") if startup is None else startup.verdict,
        "errors": list(result.errors if startup is None else startup.errors),
        "notReady": [] if startup is None else list(startup.not_ready),
        "warnings": list(result.warnings if startup is None else startup.warnings),
        "hints": [hint_dict(h) for h in hints],
        "against": comparison.against if comparison is not None else "release",
        "onlyDifferences": only_differences,
        "apis": [api_item(e, comparison) for e in _entries(result, comparison, only_differences)],
    })


def rejected_apis_document(binary: str | None, message: str, against: str = "release", only_differences: bool = False) -> dict[str, Any]:
    """The document when the input is not usable at all (no evaluation happened)."""
    from kcompat.core.errors import MESSAGE_LIMIT, cut

    return {
        "binary": binary, "emulated": None, "valid": False, "verdict": "refuses", "errors": [cut(message, MESSAGE_LIMIT)], "notReady": [], "warnings": [],
        "hints": [], "against": against, "onlyDifferences": only_differences, "apis": [],
    }


def api_rows(result: ApiAvailability, comparison: ApiComparison | None = None, only_differences: bool = False) -> list[dict[str, Any]]:
    """Table rows (subresources joined with commas): every entry, or only those that differ from
    the side compared with."""
    return [
        {**api_item(e, comparison), "subresources": ", ".join(e.subresources), **lifecycle_words(e)}
        for e in _entries(result, comparison, only_differences)
    ]


def difference_rows(result: ApiAvailability) -> list[dict[str, Any]]:
    """The entries whose answer differs from a real binary of the emulated release."""
    return [{k: _item(e)[k] for k in DIFFERENCE_COLUMNS} for e in result.differences_from_release()]

