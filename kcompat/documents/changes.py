"""The ``kcompat changes`` document, shown by the What changes page as well.

``here`` is the binary the user runs (``B`` at ``E``, min compatibility ``M``); ``there`` is one of

* ``native``: the same binary at its own version (what emulating E holds back or brings back);
* ``release``: the real release E: release E's own binary at its own version (E must be bundled);
* ``VERSION``: the real binary of release VERSION at its own version, or ``B2@E2``: that binary
  emulating E2 (B2 must be bundled; its default min compatibility applies).

The same ``--feature-gates`` value applies to both sides; a side that refuses it says so in
``errors`` (prefixed with the side) and shows its defaults, as that binary would not start::

    {"binary", "emulated", "against": {"kind", "binary", "emulated"}, "featureGates",
     "errors", "warnings",
     "changes": [{"name", "origin", "here": {"exists", "enabled", "stage"},
                  "there": {"exists", "enabled", "stage"}, "behaviour", "why"}]}
"""

from __future__ import annotations

from dataclasses import dataclass

from kcompat.documents import formats
from kcompat.data.catalog import Catalog
from ..core.compat import parse_binary_version, select_versions
from ..core.diffs import Side, SideComparison, compare_sides, side_label
from ..core.errors import KcompatError
from ..core.gates import evaluate_gates
from ..core.versions import Version, mm
from kcompat.answers.queries import bundled_release, gate_lineage, newest_release

ROW_COLUMNS = (
    "name", "origin", "behaviour",
    "here_exists", "here_enabled", "here_stage",
    "there_exists", "there_enabled", "there_stage",
    "why",
)


@dataclass(frozen=True)
class ChangesResult:
    """The comparison and the sides' problems (the document is built from it)."""

    binary: str | None
    emulated: str | None
    against: dict | None
    feature_gates: str
    errors: tuple[str, ...]
    warnings: tuple[str, ...]
    comparison: SideComparison | None


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
    from ..core.plan import parse_plan_endpoint  # B or B@E, as kcompat plan --from reads it

    try:
        binary, emulated = parse_plan_endpoint(text)
    except KcompatError:
        raise KcompatError(
            f"--against {formats.cell_text(text)[:60]!r} is not native, release, a release VERSION or VERSION@EMULATED"
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
    if value is None or len(value) <= _ECHO:
        return value
    return f"{value[:_ECHO]}… ({len(value)} characters)"


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


def change_document(change) -> dict:
    return {
        "name": change.name,
        "origin": change.origin,
        "here": change.here.document(),
        "there": change.there.document(),
        "behaviour": change.behaviour,
        "why": change.why,
    }


def changes_document(result: ChangesResult) -> dict:
    """The JSON contract of ``kcompat changes``."""
    return {
        "binary": result.binary,
        "emulated": result.emulated,
        "against": result.against,
        "featureGates": result.feature_gates,
        "errors": list(result.errors),
        "warnings": list(result.warnings),
        "changes": [change_document(c) for c in result.comparison.changes] if result.comparison is not None else [],
    }


def changes_rows(document: dict) -> list[dict]:
    """Flat rows (table, CSV, Markdown) of a changes document."""
    rows = []
    for c in document["changes"]:
        row = {"name": c["name"], "origin": c["origin"], "behaviour": c["behaviour"]}
        for side in ("here", "there"):
            for key in ("exists", "enabled", "stage"):
                row[f"{side}_{key}"] = c[side][key]
        row["why"] = c["why"]
        rows.append(row)
    return rows


def side_labels(document: dict) -> tuple[str, str]:
    """(here, there) as the page and the CLI name them, from a document with an ``against``."""
    against = document["against"]
    here = side_label(parse_binary_version(document["binary"]), parse_binary_version(document["emulated"]))
    there = side_label(
        parse_binary_version(against["binary"]), parse_binary_version(against["emulated"]), against["kind"] != "native"
    )
    return here, there


def behaviour_text(behaviour: str, here: str, there: str) -> str:
    """``on in 1.33 emulating 1.31, off in a real 1.31`` (or ``same in both``)."""
    if behaviour == "on-here-only":
        return f"on in {here}, off in {there}"
    if behaviour == "on-there-only":
        return f"off in {here}, on in {there}"
    return "behaves the same"


def render(document: dict, fmt: str) -> str:
    """``kcompat changes --format <fmt>`` output."""
    if fmt == "json":
        return formats.to_json(document)
    return formats.render_rows(fmt, changes_rows(document), ROW_COLUMNS)
