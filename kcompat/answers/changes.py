"""What changes: ``B`` at ``E`` against another side (the binary natively, the real release E, or
another release), asked the same way by ``kcompat changes`` and the What changes page.
The sides are described in :mod:`kcompat.documents.changes`, which serialises the answer."""

from __future__ import annotations

import re
from dataclasses import replace

from kcompat.answers.queries import bundled_release, gate_lineage, newest_release
from kcompat.core.compat import parse_binary_version, select_versions
from kcompat.core.components import KUBE_APISERVER
from kcompat.core.diffs import ChangesResult, Side, compare_sides, side_label
from kcompat.core.errors import KcompatError, cut
from kcompat.core.gates import evaluate_gates
from kcompat.core.request import Request, joined
from kcompat.core.versions import Version, mm, parse_version
from kcompat.data.catalog import Catalog

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from kcompat.core.problems import PatchNotRecorded


def _side(
    catalog: Catalog, binary: Version, emulated: str | None, min_compat: str | None, feature_gates: str | None, real: bool,
    what: str = "binary", component: str = KUBE_APISERVER,
) -> tuple[Side, PatchNotRecorded | None]:
    """One side, with the note of :meth:`Catalog.manifest_for` (a patch that is not recorded).
    ``binary`` keeps the patch it was given with: the side answers as that patch release, or, not
    recorded, as the nearest recorded one, which its label names."""
    release = bundled_release(catalog, binary, what)
    manifest, note = catalog.manifest_for(binary, component)
    selection = select_versions(binary, emulated, min_compat)
    evaluation = evaluate_gates(manifest, selection, feature_gates or None)
    # "a real 1.35" names the patch its data is: "a real 1.35 (v1.35.8)"; so does "a real 1.35.99 (answered as v1.35.8)"
    answered_as = note.answered_as if note is not None else None
    label = side_label(binary, selection.emulated, real, catalog.info(release).patch if real else None, answered_as)
    return Side(label, manifest, evaluation, real), note


#: ``VERSION[@E]`` of ``--against``, whole: a binary version (a patch, pre-release or build kept)
#: and an emulated major.minor; nothing before, between or after (``1.35@1.34@1.33`` is refused)
_AGAINST_SIDE = re.compile(r"(v?\d+\.\d+(?:\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)?)(?:@(v?\d+\.\d+(?:\.0)?))?")


def parse_against_side(text: str) -> tuple[Version, Version | None]:
    """``VERSION`` or ``VERSION@E`` of ``--against``: the binary as given (a patch kept: ``1.35.0``)
    and the emulated release, or None. Anything else is refused, naming the value."""
    match = _AGAINST_SIDE.fullmatch(text.strip())
    try:
        if match is None:
            raise KcompatError(text)
        binary = parse_binary_version(match.group(1))
        emulated = mm(parse_version(match.group(2))) if match.group(2) else None
    except KcompatError:
        raise KcompatError(
            f"--against {text[:60]!r} is not native, release, a release VERSION or VERSION@EMULATED"
        ) from None
    return binary, emulated


def _there(
    catalog: Catalog, here: Side, against: str, feature_gates: str | None, component: str = KUBE_APISERVER
) -> tuple[str, Side, PatchNotRecorded | None]:
    text = (against or "release").strip()
    if text == "native":
        return ("native", *_side(catalog, here.version, None, None, feature_gates, False, component=component))
    if text == "release":
        release = bundled_release(catalog, here.emulated, "the emulated release")
        return ("release", *_side(catalog, parse_binary_version(release), None, None, feature_gates, True, "the emulated release", component))
    binary, emulated = parse_against_side(text)
    side, note = _side(
        catalog, binary, str(emulated) if emulated is not None else None, None, feature_gates, emulated is None, "--against release",
        component,
    )
    if not side.selection.valid:
        raise KcompatError(f"--against {text}: {'; '.join(side.selection.errors)}")
    return "version", side, note


def _name_data_patches(catalog: Catalog, here: Side, there: Side) -> tuple[Side, Side]:
    """Two sides of one release, one of them given without a patch: each plain side names the
    patch its data is (``1.35 (v1.35.8, not emulating)`` against ``a real 1.35.0``)."""
    if here.binary != there.binary or here.version.components == there.version.components:
        return here, there
    patch = catalog.info(str(here.binary)).patch
    if patch is None:
        return here, there

    def named(side: Side) -> Side:
        if len(side.version.components) >= 3:  # named by its own patch already (or the one answering for it)
            return side
        return replace(side, label=side_label(side.version, side.emulated, side.real, patch))

    return named(here), named(there)


_ECHO = 64


def _echo(value: str | None) -> str | None:
    """A rejected value as the document repeats it: cut past a length no version reaches."""
    return None if value is None else cut(value, _ECHO)


def compare(catalog: Catalog, request: Request, against: str = "release") -> ChangesResult:
    """B at E (with M and the flags) against the other side, with both sides' problems; both sides
    are ``request.component``'s gate sets; without a binary, the newest bundled release's."""
    binary, emulated, min_compat, component = request.binary, joined(request.emulated), joined(request.min_compat), request.component
    flags = joined(request.feature_gates) or ""
    try:
        b = parse_binary_version(binary or newest_release(catalog))
        here, note = _side(catalog, b, emulated, min_compat, flags, False, component=component)
        if not here.selection.valid:
            return ChangesResult(str(b), str(here.emulated), None, flags, here.selection.errors, (), None, component)
        kind, there, there_note = _there(catalog, here, against, flags, component)
    except KcompatError as exc:
        return ChangesResult(_echo(binary), _echo(emulated), None, flags, (str(exc),), (), None, component)
    here, there = _name_data_patches(catalog, here, there)
    notes = [f"{side.label}: {n}" for side, n in ((here, note), (there, there_note)) if n is not None]
    errors = [f"{side.label}: {e}" for side in (here, there) for e in side.evaluation.errors]
    warnings = notes + [f"{side.label}: {w}" for side in (here, there) for w in side.evaluation.warnings]
    against_doc = {"kind": kind, "binary": str(there.version), "emulated": str(there.emulated), "label": there.label}
    comparison = compare_sides(here, there, gate_lineage(catalog))
    return ChangesResult(str(here.version), str(here.emulated), against_doc, flags, tuple(errors), tuple(warnings), comparison, component)
