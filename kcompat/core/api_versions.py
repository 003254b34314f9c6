"""API version names: kube-aware priority (apimachinery ``pkg/version/helpers.go``, SPEC §6.6)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

_ALPHA_VERSION = re.compile(r"v[0-9]+alpha[0-9]+")
_KUBE_VERSION = re.compile(r"v([0-9]+)(?:(alpha|beta)([0-9]+))?")
_INT64_MAX = 2**63 - 1

def _parse_kube_version(name: str) -> tuple[int, int, int] | None:
    """(type, major, minor) with type alpha=0, beta=1, GA=2; None if the name is not kube-like."""
    match = _KUBE_VERSION.fullmatch(name)
    if match is None:
        return None
    # digits bounded before int(): anything past int64's 19 digits is out of range anyway
    digits = match.group(1).lstrip("0") or "0"
    if len(digits) > 19 or int(digits) > _INT64_MAX:
        return None
    major = int(digits)
    kind = {"alpha": 0, "beta": 1, None: 2}[match.group(2)]
    minor = 0
    if kind != 2:
        digits = match.group(3).lstrip("0") or "0"
        if len(digits) > 19 or int(digits) > _INT64_MAX:
            return None
        minor = int(digits)
    return kind, major, minor


def compare_kube_aware_versions(a: str, b: str) -> int:
    """``CompareKubeAwareVersionStrings``: > 0 when ``a`` has the higher priority. GA above beta
    above alpha; within a class higher major, then higher minor; names that are not kube
    versions rank below all that are, and among themselves the alphabetically earlier wins."""
    if a == b:
        return 0
    pa, pb = _parse_kube_version(a), _parse_kube_version(b)
    if pa is None and pb is None:
        return (b > a) - (b < a)
    if pa is None:
        return -1
    if pb is None:
        return 1
    for x, y in zip(pa, pb, strict=False):
        if x != y:
            return x - y
    return 0


def versions_by_priority(versions: Iterable[str]) -> list[str]:
    """Highest priority first."""
    return sorted(versions, key=functools.cmp_to_key(compare_kube_aware_versions), reverse=True)


def is_alpha_version(version: str) -> bool:
    return _ALPHA_VERSION.fullmatch(version) is not None

