"""The gates question: what a binary with these flags enables, gate by gate.

:func:`gates` is asked the same way by ``kcompat gates`` (and its ``--format`` texts, which the
Gates page downloads) and by the Gates page: the same arguments give the same
:class:`GatesAnswer`, which :mod:`kcompat.documents.gates` serialises and the page draws.
:func:`gate_evaluation` is the engine's evaluation underneath, for the answers that need the
gate states themselves (config, inspect) and for tests.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping
from types import MappingProxyType

from kcompat.answers.queries import gate_lineage, newest_release
from kcompat.core.compat import parse_binary_version, select_versions
from kcompat.core.components import COMPONENTS, KUBE_APISERVER
from kcompat.core.errors import ComponentNotRecorded, KcompatError
from kcompat.core.gates import GateEvaluation, compared_state, evaluate_gates
from kcompat.core.manifest import Manifest
from kcompat.core.placeholders import introduced_text
from kcompat.core.record import Record, set_field
from kcompat.core.request import Request, values
from kcompat.core.versions import Version, mm, parse_version
from kcompat.data.catalog import Catalog

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from pathlib import Path

    from kcompat.answers.startup import StartupAnswer
    from kcompat.core.problems import Remedy
    from kcompat.core.removals import GateLineage
    from kcompat.core.search import GateText

#: A flag value as given: one string, a repeated flag's strings, or nothing.
FlagValue = str | list[str] | None


class GateRow(Record):
    """One gate of the answer: its state with this selection and where it comes from."""

    __slots__ = ("binary_stage", "changed", "default", "enabled", "explicit", "history_from", "locked", "name", "origin", "stage")
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

    def __init__(self, name: str, enabled: bool, stage: str, default: bool, locked: bool, explicit: bool, origin: str, history_from: str | None, binary_stage: str | None, changed: bool) -> None:
        set_field(self, "name", name)
        set_field(self, "enabled", enabled)
        set_field(self, "stage", stage)
        set_field(self, "default", default)
        set_field(self, "locked", locked)
        set_field(self, "explicit", explicit)
        set_field(self, "origin", origin)
        set_field(self, "history_from", history_from)
        set_field(self, "binary_stage", binary_stage)
        set_field(self, "changed", changed)


class GateFacts(Record):
    """What ``kcompat gates --columns`` adds to a gate (the kubernetes.io feature-gates table's
    columns): its description (None: the data has none) and the span of its stage at the emulated
    version in the binary's specs (:class:`~kcompat.core.gate_history.StageSpan`): ``since`` (None:
    dated to a placeholder, not recorded), ``until`` and ``next_stage`` (None: no later spec changes it)."""

    __slots__ = ("description", "next_stage", "since", "until")
    description: str | None
    since: str | None
    until: str | None
    next_stage: str | None

    def __init__(self, description: str | None, since: str | None, until: str | None, next_stage: str | None) -> None:
        set_field(self, "description", description)
        set_field(self, "since", since)
        set_field(self, "until", until)
        set_field(self, "next_stage", next_stage)


class GateDifference(Record):
    """One gate whose state differs between the component answered and another component."""

    __slots__ = ("here", "name", "there")
    name: str
    #: (registered, enabled, stage, locked) in the component answered, then in the other one
    here: tuple[bool, bool, str, bool]
    there: tuple[bool, bool, str, bool]

    def __init__(self, name: str, here: tuple[bool, bool, str, bool], there: tuple[bool, bool, str, bool]) -> None:
        set_field(self, "name", name)
        set_field(self, "here", here)
        set_field(self, "there", there)


class ComponentComparison(Record):
    """How another control-plane component answers the same selection: the gates whose state
    differs, the errors it alone would refuse the input with, or that its gate set is not recorded."""

    __slots__ = ("component", "differences", "errors", "note", "recorded")
    component: str
    recorded: bool
    differences: tuple[GateDifference, ...]
    #: the errors the other component gives and the answered one does not
    errors: tuple[str, ...]
    #: why it was not compared (its gate set is not recorded for the release)
    note: str | None

    def __init__(self, component: str, recorded: bool, differences: tuple[GateDifference, ...] = (), errors: tuple[str, ...] = (), note: str | None = None) -> None:
        set_field(self, "component", component)
        set_field(self, "recorded", recorded)
        set_field(self, "differences", differences)
        set_field(self, "errors", errors)
        set_field(self, "note", note)

    @property
    def differs(self) -> bool:
        return bool(self.differences or self.errors)

    def line(self, answered: str) -> str:
        """One sentence for the Gates page and ``kcompat gates``' notes."""
        if not self.recorded:
            return f"{self.note}: not compared with {answered}"
        if self.errors:
            more_errors = f" and {len(self.errors) - 5:,} more" if len(self.errors) > 5 else ""
            return f"{self.component} would refuse this input: {'; '.join(self.errors[:5])}{more_errors}"
        shown = ", ".join(f"{d.name} {_state_text(d.there)} (here {_state_text(d.here)})" for d in self.differences[:5])
        more = f" and {len(self.differences) - 5} more" if len(self.differences) > 5 else ""
        return f"{self.component} differs from {answered} here: {shown}{more}"


def _state_text(state: tuple[bool, bool, str, bool]) -> str:
    registered, enabled, stage, locked = state
    if not registered:
        return "not registered"
    return f"{'on' if enabled else 'off'}, {stage}{', locked' if locked else ''}"


class GatesAnswer(Record):
    """The answer for one selection: the versions in effect, the binary's errors and warnings, the
    remedies beside them, and every gate the binary registers (sorted by name). Plain values
    only: it is cached and sent between processes as it is."""

    __slots__ = ("binary", "component", "components", "described", "emulated", "errors", "flag_errors", "gate_count", "hints", "matched", "min_compat", "not_ready", "readiness_recorded", "readiness_unknown", "rows", "startup_checked", "versions_refused", "warnings")
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
    #: the control-plane component whose gate set answered (kube-apiserver, kube-controller-manager, kube-scheduler)
    component: str
    #: how the other components answer the same selection (:func:`compare_components`); empty when not asked
    components: tuple[ComponentComparison, ...]
    #: the binary refuses --emulated-version or --min-compatibility-version: ``emulated`` and
    #: ``min_compat`` are then the defaults the gate keeps, not an answer
    versions_refused: bool
    #: after a search (:func:`search`): (gate, where the query found it: name, KEP, abbreviation or
    #: description) for every gate kept, in row order; None without a search
    matched: tuple[tuple[str, str], ...] | None
    #: kube-apiserver's whole start-up was checked beyond the gates (kcompat.answers.startup);
    #: False for the gates alone (another component, a manifest)
    startup_checked: bool
    #: why it starts but does not become ready (kcompat.core.readiness), when it starts
    not_ready: tuple[str, ...]
    #: the patch release whose recorded starts gave the readiness rules; None: not recorded
    readiness_recorded: str | None
    #: whether it becomes ready is not known for these flags (StartupAnswer.readiness_unknown)
    readiness_unknown: bool
    #: after :func:`describe`: (gate, its description and stage span) for every row; None without
    described: tuple[tuple[str, GateFacts], ...] | None
    #: the gates the selection keeps before a search (:func:`gates_report`; 0: not counted)
    gate_count: int

    def __init__(self, binary: str | None, emulated: str, min_compat: str, errors: tuple[str, ...], flag_errors: tuple[str, ...], warnings: tuple[str, ...], hints: tuple[Remedy, ...], rows: tuple[GateRow, ...], component: str = KUBE_APISERVER, components: tuple[ComponentComparison, ...] = (), versions_refused: bool = False, matched: tuple[tuple[str, str], ...] | None = None, startup_checked: bool = False, not_ready: tuple[str, ...] = (), readiness_recorded: str | None = None, readiness_unknown: bool = False, described: tuple[tuple[str, GateFacts], ...] | None = None, gate_count: int = 0) -> None:
        set_field(self, "binary", binary)
        set_field(self, "emulated", emulated)
        set_field(self, "min_compat", min_compat)
        set_field(self, "errors", errors)
        set_field(self, "flag_errors", flag_errors)
        set_field(self, "warnings", warnings)
        set_field(self, "hints", hints)
        set_field(self, "rows", rows)
        set_field(self, "component", component)
        set_field(self, "components", components)
        set_field(self, "versions_refused", versions_refused)
        set_field(self, "matched", matched)
        set_field(self, "startup_checked", startup_checked)
        set_field(self, "not_ready", not_ready)
        set_field(self, "readiness_recorded", readiness_recorded)
        set_field(self, "readiness_unknown", readiness_unknown)
        set_field(self, "described", described)
        set_field(self, "gate_count", gate_count)

    @property
    def valid(self) -> bool:
        """Whether the binary would start with this input."""
        return not self.errors

    @property
    def verdict(self) -> str:
        """"refuses", "not-ready" (starts but does not become ready) or "starts"."""
        return "refuses" if self.errors else "not-ready" if self.not_ready else "starts"

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

    @property
    def is_emulating(self) -> bool:
        """Whether the emulated version is older than the binary's release (False without a binary)."""
        if self.binary is None:
            return False
        return mm(parse_version(self.emulated)) < mm(parse_version(self.binary))

    def only(self, names: Collection[str]) -> GatesAnswer:
        """The same answer with only the gates ``names`` holds (the errors and counts of the
        selection stay whole)."""
        return self.replace(rows=tuple(r for r in self.rows if r.name in names))


def gate_evaluation(catalog: Catalog, request: Request, manifest: Manifest | None = None) -> GateEvaluation:
    """The engine's evaluation of a binary of ``request.component`` with the request's version
    and gate flags. With ``manifest`` the bundled data is replaced; without ``request.binary`` no
    range rule applies and ``request.emulated`` is required."""
    binary_version = parse_binary_version(request.binary) if request.binary else None
    note = None
    build = None
    if manifest is None:
        if binary_version is None:
            raise KcompatError("a binary version is required unless a manifest is given")
        manifest, note = catalog.manifest_for(binary_version, request.component)
        build = _build(catalog, binary_version)
    selection = select_versions(binary_version, values(request.emulated), values(request.min_compat))
    evaluation = evaluate_gates(manifest, selection, values(request.feature_gates), build=build)
    if note is not None:
        evaluation = evaluation.replace(problems=(note, *evaluation.problems))
    return evaluation


def _build(catalog: Catalog, binary: Version) -> Version | None:
    """The patch release a plain release's data is read from ("1.35" -> v1.35.8), None when the
    binary names its patch or the data names none."""
    if len(binary.components) >= 3:
        return None
    try:
        patch = catalog.info(f"{binary.major}.{binary.minor}").patch
    except KcompatError:
        return None
    return parse_binary_version(patch) if patch else None


def gates(catalog: Catalog, request: Request, manifest: Manifest | None = None) -> GatesAnswer:
    """Every gate ``request.component``'s binary registers, at the selected versions after
    ``--feature-gates`` (on ``manifest`` instead of the bundled gates, if given), compared with the
    binary without emulation. Input the binary refuses is answered (``errors``, with ``hints``);
    input no binary could take (a malformed version, a release without data, a component whose
    gate set is not recorded) raises :class:`KcompatError`.

    For kube-apiserver (not for a manifest) the answer is its whole start-up
    (:func:`kcompat.answers.startup.apiserver_startup`): ``--runtime-config``, the
    forward-compatibility flags and the ``options`` its checks read, and whether it becomes ready."""
    evaluation = gate_evaluation(catalog, request, manifest)
    feature_gates = values(request.feature_gates)
    answer = answer_of(evaluation, (lambda: gate_lineage(catalog)) if manifest is None else None, feature_gates, request.component)
    if request.component != KUBE_APISERVER or manifest is not None or request.binary is None:
        return answer
    from kcompat.answers.startup import apiserver_startup

    return with_startup(answer, apiserver_startup(catalog, evaluation, request))


class GatesQuery(Record):
    """What ``kcompat gates`` and the Gates page ask beside the selection: the gates of a manifest
    of one's own (``manifest``, or ``manifest_file`` to read, instead of the bundled ones), how the
    other components answer (``compare``: the bundled gates only), a search (``search``) and the
    facts of ``--columns`` (``describe``)."""

    __slots__ = ("compare", "describe", "manifest", "manifest_file", "search")
    manifest: Manifest | None
    compare: bool
    search: str | None
    describe: bool
    manifest_file: Path | None

    def __init__(self, manifest: Manifest | None = None, compare: bool = True, search: str | None = None, describe: bool = False,
                 manifest_file: Path | None = None) -> None:
        set_field(self, "manifest", manifest)
        set_field(self, "compare", compare)
        set_field(self, "search", search)
        set_field(self, "describe", describe)
        set_field(self, "manifest_file", manifest_file)


def gates_report(catalog: Catalog, request: Request, query: GatesQuery | None = None) -> GatesAnswer:
    """:func:`gates` with everything the front ends show beside it, in the order they show it: how
    the other components answer (:func:`compare_components`), the gates a search finds
    (:func:`search`) and their facts (:func:`describe`). ``gate_count`` is the number of gates
    before the search."""
    query = query or GatesQuery()
    if query.manifest_file is not None:  # read with the binary's own registration rules (the newest without a binary)
        from kcompat.core.registration import registration_for
        from kcompat.data.files import load_manifest_files

        release = mm(parse_binary_version(request.binary)) if request.binary else None
        query = query.replace(manifest=load_manifest_files([query.manifest_file], registration=registration_for(release)), manifest_file=None)
    if request.binary is None and query.manifest is None:
        request = request.with_(binary=newest_release(catalog))
    answer = gates(catalog, request, query.manifest)
    if query.manifest is None and query.compare:
        answer = compare_components(catalog, answer, request)
    answer = answer.replace(gate_count=len(answer.rows))
    if query.search is not None:
        answer = search(catalog, answer, query.search)
    if query.describe:
        answer = describe(catalog, answer, query.manifest)
    return answer


def require_accepted(answer: GatesAnswer) -> GatesAnswer:
    """``answer`` when the binary accepts its selection; else :class:`~kcompat.answers.startup.SelectionRefused`
    with its errors and remedies: what ``kcompat gate`` and ``timeline`` answer where ``kcompat
    gates`` answers "refuses"."""
    if answer.errors:
        from kcompat.answers.startup import SelectionRefused

        raise SelectionRefused(answer.binary or "-", answer.emulated, answer.min_compat, answer.errors, tuple(h.line for h in answer.hints),
                               answer.warnings, answer.versions_refused)
    return answer


def with_startup(answer: GatesAnswer, startup: StartupAnswer) -> GatesAnswer:
    """The gates answer with kube-apiserver's whole start-up: its refusals (the gate ones
    included, in the binary's order), the readiness problems, every warning, and the remedies of
    both (each problem explained once)."""
    known = {h.error for h in answer.hints}
    hints = answer.hints + tuple(h for h in startup.hints if h.error not in known)
    return answer.replace(errors=startup.errors, warnings=startup.warnings, hints=hints, startup_checked=True,
        not_ready=startup.not_ready, readiness_recorded=startup.readiness_recorded, readiness_unknown=startup.readiness_unknown,
    )


def answer_of(
    evaluation: GateEvaluation, lineage: Callable[[], GateLineage] | None = None, feature_gates: FlagValue = None,
    component: str = KUBE_APISERVER,
) -> GatesAnswer:
    """The answer for an evaluation (:func:`gate_evaluation`'s), for the answers that need both.
    ``lineage`` gives the bundled releases' gate lineage (the hints name a removed gate's release);
    ``feature_gates`` is the value the evaluation applied (the binary without emulation gets it too)."""
    sel = evaluation.selection
    evaluated = evaluation.manifest
    if evaluated is None:  # gate_evaluation always evaluates a manifest
        raise KcompatError("no gate list was evaluated")
    native = native_states(
        evaluation, evaluate_gates(evaluated, select_versions(sel.binary), feature_gates) if sel.binary is not None else None
    )
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
        component=component,
        versions_refused=sel.flags_rejected,
    )


def _remedies(evaluation: GateEvaluation, lineage: Callable[[], GateLineage] | None) -> tuple[Remedy, ...]:
    """The remedies beside the refusals (none to compute, nothing imported, when it has none)."""
    if evaluation.valid:
        return ()
    from kcompat.core.remedies import gate_remedies

    return gate_remedies(evaluation, lineage)


def compare_components(catalog: Catalog, answer: GatesAnswer, request: Request) -> GatesAnswer:
    """``answer`` (of the bundled gates of one component) with how every other control-plane
    component answers the same selection: the gates whose on/off, stage, lock or registration
    differs, and the errors only it gives. A component whose gate set is not recorded for the
    release is listed as such."""
    if answer.binary is None:
        return answer
    here = {r.name: (True, r.enabled, r.stage, r.locked) for r in answer.rows}
    absent = (False, False, "", False)
    said = frozenset(answer.errors)
    found = []
    binary = parse_binary_version(answer.binary)
    own, _ = catalog.manifest_for(binary, answer.component)
    for component in COMPONENTS:
        if component == answer.component:
            continue
        try:
            if catalog.manifest_for(binary, component)[0] is own:
                # the same gate set: the same flags give the same gates and the same errors
                found.append(ComponentComparison(component, True))
                continue
            other = gate_evaluation(catalog, request.with_(binary=answer.binary, component=component))
        except ComponentNotRecorded as exc:
            found.append(ComponentComparison(component, False, note=exc.reason))
            continue
        there = {g.name: (True, g.enabled, g.stage.value, g.locked) for g in other.gates}
        differences = tuple(
            GateDifference(name, here.get(name, absent), there.get(name, absent))
            for name in sorted(set(here) | set(there))
            if here.get(name, absent) != there.get(name, absent)
        )
        errors = tuple(e for e in other.errors if e not in said)  # (a set: 10,000 errors are 10,000 look-ups)
        found.append(ComponentComparison(component, True, differences, errors))
    return answer.replace(components=tuple(found))


def native_states(evaluation: GateEvaluation, native: GateEvaluation | None) -> dict[str, tuple[str | None, bool]]:
    """Gate -> (stage in the binary's own release, changed) for every gate of ``evaluation`` (the
    binary at the selection, flags applied). ``native`` is the same binary without emulation, with
    the same --feature-gates; a gate is changed when its :func:`compared_state` (on/off, stage,
    lock) differs from it: exactly the gates ``kcompat changes --against native`` lists. Without
    ``native`` (a manifest with no binary) nothing has a release stage and nothing is changed.
    (Here rather than in :mod:`kcompat.core.diffs`, whose comparison of two sides ``kcompat gates``
    does not load.)"""
    if native is None:
        return {g.name: (None, False) for g in evaluation.gates}
    by_name = native.by_name()
    out: dict[str, tuple[str | None, bool]] = {}
    for g in evaluation.gates:
        n = by_name.get(g.name)
        if n is None:
            out[g.name] = (None, True)
        else:
            out[g.name] = (n.stage.value, compared_state(g) != compared_state(n))
    return out


@functools.lru_cache(maxsize=4)
def gate_texts(catalog: Catalog) -> Mapping[str, GateText]:
    """What a gate search finds gates by besides their names (descriptions, KEP links), for
    :func:`kcompat.core.search.search_gates`: ``kcompat gates --search`` and the page's search."""
    from kcompat.core.search import GateText

    return MappingProxyType({name: GateText(info.description, info.kep) for name, info in catalog.gate_info.items()})


def search(catalog: Catalog, answer: GatesAnswer, query: str) -> GatesAnswer:
    """``answer`` with only the gates ``query`` finds (part of the name, an abbreviation (DRA), a
    KEP number (4381, KEP-4381) or words of the description), each with where it matched
    (``matched``)."""
    from kcompat.core.search import search_matches

    found = search_matches(query, [r.name for r in answer.rows], gate_texts(catalog))
    return answer.only(found).replace(matched=tuple(found.items()))


class FactsQuery(Record):
    """Whose facts :func:`gate_facts` gives: the gates ``names``, read from ``manifest`` (a manifest
    of one's own) or the ``binary``'s bundled one, at ``emulated`` and ``min_compat`` (None: the
    binary's default for ``emulated``)."""

    __slots__ = ("binary", "emulated", "manifest", "min_compat", "names")
    names: tuple[str, ...]
    binary: str | None
    emulated: str
    min_compat: str | None
    manifest: Manifest | None

    def __init__(self, names: tuple[str, ...], binary: str | None, emulated: str, min_compat: str | None = None, manifest: Manifest | None = None) -> None:
        set_field(self, "names", names)
        set_field(self, "binary", binary)
        set_field(self, "emulated", emulated)
        set_field(self, "min_compat", min_compat)
        set_field(self, "manifest", manifest)


def gate_facts(catalog: Catalog, query: FactsQuery) -> dict[str, GateFacts]:
    """Each gate of ``names``: its description and the span of its stage (:class:`GateFacts`), read
    from ``manifest`` (a manifest of one's own) or the ``binary``'s bundled one, at ``emulated``
    and ``min_compat`` (None: the binary's default for ``emulated``)."""
    from kcompat.core.gate_history import stage_span

    names, binary, emulated, min_compat, manifest = query.names, query.binary, query.emulated, query.min_compat, query.manifest
    if manifest is None and binary is not None:
        manifest = catalog.manifest_for(parse_binary_version(binary))[0]
    features = manifest.by_name if manifest is not None else {}
    info = catalog.gate_info
    at = parse_version(emulated)
    use_mc = select_versions(parse_binary_version(binary)).rules.gates_use_min_compat if binary else True
    if min_compat is None:  # the default for the binary at ``emulated``
        mc = select_versions(parse_binary_version(binary), at).min_compat if binary else at
    else:
        mc = parse_version(min_compat)
    out = {}
    for name in names:
        feature = features.get(name)
        span = stage_span(feature, at, mc, use_mc) if feature is not None else None
        gate_info = info.get(name)
        out[name] = GateFacts(
            gate_info.description if gate_info is not None else None,
            str(span.since) if span is not None and span.since is not None else None,
            str(span.until) if span is not None and span.until is not None else None,
            span.next_stage.value if span is not None and span.next_stage is not None else None,
        )
    return out


def describe(catalog: Catalog, answer: GatesAnswer, manifest: Manifest | None = None) -> GatesAnswer:
    """``answer`` with each gate's description and the span of its stage (:func:`gate_facts`)."""
    facts = gate_facts(catalog, FactsQuery(tuple(r.name for r in answer.rows), answer.binary, answer.emulated, answer.min_compat, manifest))
    return answer.replace(described=tuple((r.name, facts[r.name]) for r in answer.rows))
