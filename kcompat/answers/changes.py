"""What changes: ``B`` at ``E`` against another side (the binary natively, the real release E, or
another release), asked the same way by ``kcompat changes`` and the What changes page.
The sides are described in :mod:`kcompat.documents.changes`, which serialises the answer."""

from __future__ import annotations

from kcompat.answers.queries import bundled_release, gate_lineage, newest_release
from kcompat.core.compat import parse_binary_version, select_versions
from kcompat.core.diffs import ChangesResult, Side, compare_sides, side_label
from kcompat.core.errors import KcompatError, cut
from kcompat.core.gates import evaluate_gates
from kcompat.core.versions import Version, mm
from kcompat.data.catalog import Catalog


def _side(
    catalog: Catalog, binary: Version, emulated: str | None, min_compat: str | None, feature_gates: str | None, real: bool,
    what: str = "binary",
) -> Side:
    release = bundled_release(catalog, binary, what)
    manifest = catalog.manifest_for(binary)[0]
    selection = select_versions(binary, emulated, min_compat)
    evaluation = evaluate_gates(manifest, selection, feature_gates or None)
    label = side_label(binary, selection.emulated, real)
    info = catalog.info(release)
    if real and info.patch and len(binary.components) < 3:
        label += f" (v{info.patch})"  # "a real 1.35" names the patch its data is
    return Side(label, manifest, evaluation)


def _there(catalog: Catalog, here: Side, against: str, feature_gates: str | None) -> tuple[str, Side]:
    text = (against or "release").strip()
    if text == "native":
        return "native", _side(catalog, here.binary, None, None, feature_gates, False)
    if text == "release":
        release = bundled_release(catalog, here.emulated, "the emulated release")
        return "release", _side(catalog, parse_binary_version(release), None, None, feature_gates, True, "the emulated release")
    from kcompat.core.plan import (
        parse_plan_endpoint,  # B or B@E, as kcompat plan --from reads it
    )

    try:
        binary, emulated = parse_plan_endpoint(text)
    except KcompatError:
        raise KcompatError(
            f"--against {text[:60]!r} is not native, release, a release VERSION or VERSION@EMULATED"
        ) from None
    side = _side(
        catalog, binary, str(emulated) if emulated is not None else None, None, feature_gates, emulated is None, "--against release"
    )
    if not side.selection.valid:
        raise KcompatError(f"--against {text}: {'; '.join(side.selection.errors)}")
    return "version", side


_ECHO = 64


def _echo(value: str | None) -> str | None:
    """A rejected value as the document repeats it: cut past a length no version reaches."""
    return None if value is None else cut(value, _ECHO)


def compare(
    catalog: Catalog,
    binary: str | None,
    emulated: str | None = None,
    min_compat: str | None = None,
    feature_gates: str | None = None,
    against: str = "release",
) -> ChangesResult:
    """B at E (with M and the flags) against the other side, with both sides' problems."""
    flags = feature_gates or ""
    try:
        b = parse_binary_version(binary or newest_release(catalog))
        here = _side(catalog, b, emulated, min_compat, flags, False)
        if not here.selection.valid:
            return ChangesResult(str(mm(b)), str(here.emulated), None, flags, here.selection.errors, (), None)
        kind, there = _there(catalog, here, against, flags)
    except KcompatError as exc:
        return ChangesResult(_echo(binary), _echo(emulated), None, flags, (str(exc),), (), None)
    errors = [f"{side.label}: {e}" for side in (here, there) for e in side.evaluation.errors]
    warnings = [f"{side.label}: {w}" for side in (here, there) for w in side.evaluation.warnings]
    against_doc = {"kind": kind, "binary": str(there.binary), "emulated": str(there.emulated)}
    comparison = compare_sides(here, there, gate_lineage(catalog))
    return ChangesResult(str(here.binary), str(here.emulated), against_doc, flags, tuple(errors), tuple(warnings), comparison)
