"""The ``kcompat versions`` document::

    {"binary", "component", "release", "floor", "emulatedRange": [low, high], "defaultEmulated",
     "minCompatibilityFlag", "forwardCompatibilityFlags",
     "emulated": [{"emulated", "defaultMinCompatibility", "minCompatibility": [...]}],
     "bundled", "warnings"}
"""

from __future__ import annotations

from kcompat.core.compat import AllowedVersions


def versions_document(allowed: AllowedVersions, bundled: bool, warnings: tuple[str, ...], component: str = "kube-apiserver") -> dict[str, object]:
    """``bundled``: whether the catalog holds the release's data; ``warnings`` say what it means
    when it does not (:func:`kcompat.answers.versions.versions`)."""
    return {
        "binary": allowed.binary,
        "component": component,
        "release": allowed.release,
        "floor": allowed.floor,
        "emulatedRange": list(allowed.emulated_range),
        "defaultEmulated": allowed.default_emulated,
        "minCompatibilityFlag": allowed.min_compat_flag,
        "forwardCompatibilityFlags": allowed.forward_compat_flags,
        "emulated": [
            {"emulated": e.emulated, "defaultMinCompatibility": e.default_min_compat, "minCompatibility": list(e.min_compat)}
            for e in allowed.emulated
        ],
        "bundled": bundled,
        "warnings": list(warnings),
    }
