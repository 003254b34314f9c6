"""The ``kcompat storage`` document: the version kube-apiserver writes each REST resource to etcd in
at (binary, emulated, min compatibility) (:mod:`kcompat.core.storage`).

JSON document (exactly these keys)::

    {"binary", "emulated", "minCompatibility", "valid", "errors", "warnings",
     "resources": [{"group", "resource", "kind", "storageVersion", "served", "reason"}]}

``storageVersion`` is ``group/version`` (``v1`` for the core group; the storing group for
cohabiting resources such as events.k8s.io ``events``), null when no storage is created
(the resource is not served and no version of it qualifies). Both the CLI and the pages
build their output here.
"""

from __future__ import annotations

from ..core.storage import StorageVersions

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any


DOCUMENT_KEYS = ("binary", "emulated", "minCompatibility", "valid", "errors", "warnings", "resources")
RESOURCE_KEYS = ("group", "resource", "kind", "storageVersion", "served", "reason")
TABLE_COLUMNS = RESOURCE_KEYS


def storage_rows(result: StorageVersions) -> list[dict[str, Any]]:
    return [
        {"group": c.group, "resource": c.resource, "kind": c.kind, "storageVersion": c.group_version, "served": c.served, "reason": c.explanation}
        for c in result.choices
    ]


def storage_document(result: StorageVersions) -> dict[str, Any]:
    """The JSON contract of ``kcompat storage``."""
    return {
        "binary": str(result.binary),
        "emulated": str(result.emulated),
        "minCompatibility": str(result.min_compat),
        "valid": result.valid,
        "errors": list(result.errors),
        "warnings": list(result.warnings),
        "resources": storage_rows(result),
    }


def rejected_storage_document(binary: str | None, message: str) -> dict[str, Any]:
    """The document when the input is not usable at all (no evaluation happened)."""
    return {"binary": binary, "emulated": None, "minCompatibility": None, "valid": False, "errors": [message], "warnings": [], "resources": []}
