"""The version skew question: the versions other components may run against a kube-apiserver
binary at (emulated, min compatibility), by the classic policy and by KEP-4330's emulation-aware
rules. Asked the same way by ``kcompat skew`` and the APIs page's "Version skew" tab (written by
:mod:`kcompat.documents.skew`)."""

from __future__ import annotations

from kcompat.core.compat import parse_binary_version, select_versions
from kcompat.core.skew import SkewPolicy, skew_policy


def skew(binary: str, emulated: str | list[str] | None = None, min_compat: str | list[str] | None = None, *, refuse: bool = False) -> SkewPolicy:
    """Both policies for ``binary`` at ``emulated`` and ``min_compat``, the flags read as the binary
    reads them (:func:`kcompat.core.compat.select_versions`: the same parse and ranges as ``kcompat
    gates``). The rules need no data: any binary version is answered. With ``refuse`` a version
    flag the binary refuses raises :class:`~kcompat.answers.startup.SelectionRefused` (``kcompat
    skew``); without it the ranges are those of the versions the binary keeps."""
    version = parse_binary_version(binary)
    selection = select_versions(version, emulated or None, min_compat or None)
    if refuse and selection.errors:
        from kcompat.answers.startup import SelectionRefused

        emu = None if selection.flags_rejected else str(selection.emulated)
        mc = None if selection.flags_rejected else str(selection.min_compat)
        raise SelectionRefused(str(version), emu, mc, selection.errors, versions_refused=selection.flags_rejected)
    return skew_policy(version, selection.emulated, selection.min_compat)
