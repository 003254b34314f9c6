"""The version skew question: the versions other components may run against a kube-apiserver
binary at (emulated, min compatibility), by the classic policy and by KEP-4330's emulation-aware
rules. Asked the same way by ``kcompat skew`` and the APIs page's "Version skew" tab (written by
:mod:`kcompat.documents.skew`)."""

from __future__ import annotations

from kcompat.core.compat import parse_binary_version
from kcompat.core.skew import SkewPolicy, skew_policy


def skew(binary: str, emulated: str | None = None, min_compat: str | None = None) -> SkewPolicy:
    """Both policies for ``binary`` at ``emulated`` and ``min_compat`` (defaults as the binary
    derives them). The rules need no data: any binary version is answered."""
    return skew_policy(parse_binary_version(binary), emulated or None, min_compat or None)
