"""The gates question: what a binary with these flags enables, gate by gate.

:func:`gates` is asked the same way by ``kcompat gates`` (and its ``--format`` texts, which the
Gates page downloads) and by the Gates page: the same arguments give the same
:class:`GatesAnswer`, which :mod:`kcompat.documents.gates` serialises and the page draws.
:func:`gate_evaluation` is the engine's evaluation underneath, for the answers that need the
gate states themselves (config, inspect) and for tests.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from kcompat.answers.queries import gate_lineage
from kcompat.core.compat import parse_binary_version, select_versions
from kcompat.core.errors import KcompatError
from kcompat.core.gates import GateEvaluation, evaluate_gates
from kcompat.core.manifest import Manifest
from kcompat.core.placeholders import introduced_text
from kcompat.data.catalog import Catalog

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from kcompat.core.problems import Remedy
    from kcompat.core.removals import GateLineage
    from kcompat.core.search import GateText

#: A flag value as given: one string, a repeated flag's strings, or nothing.
FlagValue = str | list[str] | None


@dataclass(frozen=True, slots=True)
class GateRow:
    """One gate of the answer: its state with this selection and where it comes from."""

    name: str
    enabled: bool
    #: the stage of the spec in effect at the emulated version ("PreAlpha": not yet introduced)
    stage: str
    default: bool
    locked: bool
    #: set by --feature-gates (by name; AllAlpha/AllBeta do not count)
    explicit: bool
    #: "kube" (the release's own list) or "client-go" (k8s.io/client-go's features)
    origin: str
    #: where the gate's specs start: "1.33", or a 0.0 / 1.0 placeholder said as one
    history_from: str | None
    #: the stage in the binary's own release (the binary without emulation or flags)
    binary_stage: str | None
    #: stage, default or lock differ from the binary without emulation
    changed: bool


@dataclass(frozen=True)
class GatesAnswer:
    """The answer for one selection: the versions in effect, the binary's errors and warnings, the
    remedies beside them, and every gate the binary registers (sorted by name). Plain values
    only: it is cached and sent between processes as it is."""

    #: the binary's version ("1.36", "1.35.0" for a patch release); None when a manifest stands alone
    binary: str | None
    emulated: str
    min_compat: str
    errors: tuple[str, ...]
    #: the errors of the --feature-gates value (then no flag is applied)
    flag_errors: tuple[str, ...]
    warnings: tuple[str, ...]
    hints: tuple[Remedy, ...]
    rows: tuple[GateRow, ...]

    @property
    def valid(self) -> bool:
        """Whether the binary would start with this input."""
        return not self.errors

    @property
    def flags_applied(self) -> bool:
        """False when the binary would refuse the --feature-gates value (every gate at its default)."""
        return not self.flag_errors

    @property
    def metrics(self) -> tuple[tuple[str, int], ...]:
        """The Gates page's figures: enabled, changed, not yet introduced (PreAlpha), locked, all."""
        rows = self.rows
        return (
            ("enabled", sum(r.enabled for r in rows)),
            ("changed", sum(r.changed for r in rows)),
            ("PreAlpha", sum(r.stage == "PreAlpha" for r in rows)),
            ("locked", sum(r.locked for r in rows)),
            ("gates", len(rows)),
        )

    def only(self, names: Collection[str]) -> GatesAnswer:
        """The same answer with only the gates ``names`` holds (the errors and counts of the
        selection stay whole)."""
        return dataclasses.replace(self, rows=tuple(r for r in self.rows if r.name in names))


def gate_evaluation(
    catalog: Catalog,
    binary: str | None,
    emulated: FlagValue = None,
    min_compat: FlagValue = None,
    feature_gates: FlagValue = None,
    manifest: Manifest | None = None,
) -> GateEvaluation:
    """The engine's evaluation of a binary with these flags. With ``manifest`` the bundled data is
    replaced; without ``binary`` no range rule applies and ``emulated`` is required."""
    binary_version = parse_binary_version(binary) if binary else None
    note = None
    if manifest is None:
        if binary_version is None:
            raise KcompatError("a binary version is required unless a manifest is given")
        manifest, note = catalog.manifest_for(binary_version)
    selection = select_versions(binary_version, emulated, min_compat)
    evaluation = evaluate_gates(manifest, selection, feature_gates)
    if note:
        from kcompat.core.problems import Note

        evaluation = dataclasses.replace(evaluation, problems=(Note(note), *evaluation.problems))
    return evaluation


def gates(
    catalog: Catalog,
    binary: str | None,
    emulated: FlagValue = None,
    min_compat: FlagValue = None,
    feature_gates: FlagValue = None,
    manifest: Manifest | None = None,
) -> GatesAnswer:
    """Every gate of ``binary`` at the selected versions after ``--feature-gates`` (on ``manifest``
    instead of the bundled gates, if given), compared with the binary without emulation. Input the
    binary refuses is answered (``errors``, with ``hints``); input no binary could take (a
    malformed version, a release without data) raises :class:`KcompatError`."""
    evaluation = gate_evaluation(catalog, binary, emulated, min_compat, feature_gates or None, manifest)
    return answer_of(evaluation, (lambda: gate_lineage(catalog)) if manifest is None else None)


def answer_of(evaluation: GateEvaluation, lineage: Callable[[], GateLineage] | None = None) -> GatesAnswer:
    """The answer for an evaluation (:func:`gate_evaluation`'s), for the answers that need both.
    ``lineage`` gives the bundled releases' gate lineage (the hints name a removed gate's release)."""
    sel = evaluation.selection
    evaluated = evaluation.manifest
    if evaluated is None:  # gate_evaluation always evaluates a manifest
        raise KcompatError("no gate list was evaluated")
    native = native_states(evaluation, evaluate_gates(evaluated, select_versions(sel.binary)) if sel.binary is not None else None)
    features = evaluated.by_name
    rows = []
    for g in evaluation.gates:
        feature = features.get(g.name)
        binary_stage, changed = native[g.name]
        rows.append(
            GateRow(
                name=g.name,
                enabled=g.enabled,
                stage=g.stage.value,
                default=g.default,
                locked=g.locked,
                explicit=g.explicit,
                origin=evaluation.origin(g.name),
                history_from=introduced_text(feature) if feature is not None else None,
                binary_stage=binary_stage,
                changed=changed,
            )
        )
    return GatesAnswer(
        binary=str(sel.binary) if sel.binary is not None else None,
        emulated=str(sel.emulated),
        min_compat=str(sel.min_compat),
        errors=evaluation.errors,
        flag_errors=evaluation.flag_errors,
        warnings=evaluation.warnings,
        hints=_remedies(evaluation, lineage),
        rows=tuple(rows),
    )


def _remedies(evaluation: GateEvaluation, lineage: Callable[[], GateLineage] | None) -> tuple[Remedy, ...]:
    """The remedies beside the refusals (none to compute, nothing imported, when it has none)."""
    if evaluation.valid:
        return ()
    from kcompat.core.remedies import gate_remedies

    return gate_remedies(evaluation, lineage)


def native_states(evaluation: GateEvaluation, native: GateEvaluation | None) -> dict[str, tuple[str | None, bool]]:
    """Gate -> (stage in the binary's own release, changed) for every gate of ``evaluation`` (the
    binary at the selection, flags applied). ``native`` is the binary without emulation or flags;
    a gate is changed when its stage, default or lock differ from it. Without ``native`` (a
    manifest with no binary) nothing has a release stage and nothing is changed. (Here rather than
    in :mod:`kcompat.core.diffs`, whose comparison of two sides ``kcompat gates`` does not load.)"""
    if native is None:
        return {g.name: (None, False) for g in evaluation.gates}
    by_name = native.by_name()
    out: dict[str, tuple[str | None, bool]] = {}
    for g in evaluation.gates:
        n = by_name.get(g.name)
        if n is None:
            out[g.name] = (None, True)
        else:
            out[g.name] = (n.stage.value, (g.stage, g.default, g.locked) != (n.stage, n.default, n.locked))
    return out


@functools.lru_cache(maxsize=4)
def gate_texts(catalog: Catalog) -> Mapping[str, GateText]:
    """What a gate search finds gates by besides their names (descriptions, KEP links), for
    :func:`kcompat.core.search.search_gates`: ``kcompat gates --search`` and the page's search."""
    from kcompat.core.search import GateText

    return MappingProxyType({name: GateText(info.description, info.kep) for name, info in catalog.gate_info.items()})


def search(catalog: Catalog, answer: GatesAnswer, query: str) -> GatesAnswer:
    """``answer`` with only the gates ``query`` finds: part of the name, an abbreviation (DRA), a
    KEP number (4381, KEP-4381) or words of the description."""
    from kcompat.core.search import search_gates

    return answer.only(set(search_gates(query, [r.name for r in answer.rows], gate_texts(catalog))))
