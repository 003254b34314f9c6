"""The ``kcompat apis`` document: built-in REST resources a kube-apiserver binary serves at an
emulated version, and whether a real binary of the emulated release serves each of them.

JSON document (exactly these keys)::

    {"binary", "emulated", "valid", "errors", "warnings", "hints",
     "apis": [{"group", "version", "kind", "resource", "subresources", "stage", "served",
               "servedByRelease", "reason"}]}

The core group is ``""``. ``resource`` and ``subresources`` are the names the release's
k8s.io/client-go typed client uses; ``servedByRelease`` is whether a real binary of release
``emulated`` (its own version, the same ``--runtime-config``) serves the entry, null when that
release has no bundled data. ``hints`` are the remedies beside the errors (and beside the
alpha-under-emulation warning), each ``{"kind", "error", "gate", "text", "names"}`` as in
``kcompat gates`` (:func:`kcompat.core.remedies.api_remedies`). Both the CLI and the APIs page build their output here.
"""

from __future__ import annotations

from ..core.apis import ApiAvailability, ApiEntry
from ..core.remedies import api_remedies
from .gates import hint_dict

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any


DOCUMENT_KEYS = ("binary", "emulated", "valid", "errors", "warnings", "hints", "apis")
API_KEYS = ("group", "version", "kind", "resource", "subresources", "stage", "served", "servedByRelease", "reason")
TABLE_COLUMNS = ("group", "version", "kind", "resource", "subresources", "stage", "served", "servedByRelease", "reason")
DIFFERENCE_COLUMNS = ("group", "version", "resource", "kind", "served", "servedByRelease", "reason")


def api_item(entry: ApiEntry) -> dict[str, Any]:
    return {
        "group": entry.group,
        "version": entry.version,
        "kind": entry.kind,
        "resource": entry.resource,
        "subresources": list(entry.subresources),
        "stage": entry.stage,
        "served": entry.served,
        "servedByRelease": entry.served_by_release,
        "reason": entry.detail,
    }


def apis_document(result: ApiAvailability) -> dict[str, Any]:
    """The JSON contract of ``kcompat apis``."""
    return {
        "binary": str(result.binary),
        "emulated": str(result.emulated),
        "valid": result.valid,
        "errors": list(result.errors),
        "warnings": list(result.warnings),
        "hints": [hint_dict(h) for h in api_remedies(result)],
        "apis": [api_item(e) for e in result.entries],
    }


def rejected_apis_document(binary: str | None, message: str) -> dict[str, Any]:
    """The document when the input is not usable at all (no evaluation happened)."""
    return {"binary": binary, "emulated": None, "valid": False, "errors": [message], "warnings": [], "hints": [], "apis": []}


def api_rows(result: ApiAvailability) -> list[dict[str, Any]]:
    """Table rows (subresources joined with commas)."""
    return [{**api_item(e), "subresources": ", ".join(e.subresources)} for e in result.entries]


def difference_rows(result: ApiAvailability) -> list[dict[str, Any]]:
    """The entries whose answer differs from a real binary of the emulated release."""
    return [{k: api_item(e)[k] for k in DIFFERENCE_COLUMNS} for e in result.differences_from_release()]

