"""Many readings, one selection: which component, which binary, which flags, and where each
came from. Two inputs that say different things are a contradiction naming both places."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..compat import parse_binary_version, select_versions
from ..errors import KcompatError, echo
from ..versions import Version, mm
from . import messages
from .model import (
    CONTROL_PLANE,
    EMULATED,
    FEATURE_GATES,
    FLAGS,
    FORWARD_COMPAT,
    KUBELET,
    MIN_COMPAT,
    OPTION_FLAGS,
    RUNTIME_CONFIG,
    RUNTIME_FORWARD_COMPAT,
    Fact,
    FlagParseError,
    FlagSet,
    InspectError,
    ObservedGate,
    Reading,
    Where,
)

DEFAULT_COMPONENT = "kube-apiserver"
#: Readings that describe one process (not a whole cluster's configuration).
_PROCESS_KINDS = ("command line", "static pod")


@dataclass(frozen=True)
class Combined:
    """What the inputs say together. Flag values are kept as written (the engine parses them
    exactly as the binary would); ``emulated``/``min_compat`` come from one source, the flags when
    either version flag is given, else what ``/version`` reports (:func:`_version_pair`)."""

    component: str
    binary: str
    emulated: tuple[str, ...]
    min_compat: tuple[str, ...]
    feature_gates: tuple[str, ...]
    runtime_config: tuple[str, ...]
    sources: Mapping[str, str]
    observed: tuple[ObservedGate, ...] | None
    warnings: tuple[str, ...]
    #: ``--emulation-forward-compatible`` / ``--runtime-config-emulation-forward-compatible`` as
    #: written (pflag booleans; the last one given wins), () when absent
    emulation_forward_compatible: tuple[str, ...] = ()
    runtime_config_emulation_forward_compatible: tuple[str, ...] = ()
    #: kube-apiserver's flags its start-up checks read (kcompat.core.startup.OPTION_FLAGS), as
    #: ``(flag, value)`` pairs in the order given
    apiserver_flags: tuple[tuple[str, str], ...] = ()
    #: where ``/version`` reports an emulation or min compatibility that the flags read do not give:
    #: the running binary disagrees with its configuration (the answer follows the flags)
    disagreements: tuple[str, ...] = ()
    #: words of the component's command lines its flag parser refuses (it would not start)
    refused: tuple[FlagParseError, ...] = ()


@dataclass(frozen=True)
class GivenBinary:
    """A binary version given beside the inputs (``kcompat inspect --binary``, the Check a cluster
    page's Binary picker), for inputs that name none (a command line alone). ``source`` says where
    it came from ("--binary 1.35"). When the inputs name a binary too, theirs is used: it is what
    the running binary says (its /version, its image); with ``fallback`` False a different release
    or patch given here is a warning naming both, with ``fallback`` True (the picker: whatever it
    was left at) it is not."""

    value: str
    source: str
    fallback: bool = False


def choose_component(readings: list[Reading], wanted: str | None = None) -> tuple[str, str]:
    """The one component the process-level inputs describe (``wanted`` or kube-apiserver when
    none does), and where it was named. ``wanted`` (``--component``) also picks that component's
    flags out of inputs that describe several (a ``ps`` listing of the whole control plane); an
    input that describes another component alone is refused."""
    named: dict[str, str] = {}
    for reading in readings:
        if any(reading.kind.startswith(k) for k in _PROCESS_KINDS):
            components = {s.component for s in reading.flag_sets}
            if len(components) > 1:
                continue  # several components in one file (ps aux | grep kube, patches): cluster-level
            for flag_set in reading.flag_sets:
                named.setdefault(flag_set.component, str(flag_set.where))
    if wanted is not None:
        other = {c: w for c, w in named.items() if c != wanted}
        if other:
            raise InspectError(
                "the inputs describe " + ", ".join(f"{c} in {w}" for c, w in other.items()) + f", not {wanted} (--component)"
            )
        return wanted, f"{named[wanted]}: {wanted}" if wanted in named else f"--component {wanted}"
    if len(named) > 1:
        raise InspectError(
            "the inputs describe more than one component ("
            + ", ".join(f"{c} in {w}" for c, w in named.items())
            + "); inspect one component at a time"
        )
    if not named:
        return DEFAULT_COMPONENT, f"default: {DEFAULT_COMPONENT} (what kubectl get --raw /version and /metrics reach)"
    component, where = next(iter(named.items()))
    if component == KUBELET:
        raise InspectError(
            f"{named[component]}: the kubelet takes no --emulated-version; kcompat inspect reads "
            f"{', '.join(CONTROL_PLANE)}"
        )
    return component, f"{where}: {component}"


def _describe(facts: list[Fact], where: Where | None) -> str:
    return " ".join(f.describe() for f in facts) if facts else f"{where}: not set"


def combine_flags(sets: list[FlagSet]) -> tuple[dict[str, list[Fact]], list[str]]:
    """Each flag's values for one component. Full descriptions (a command line, a manifest, a
    kubeadm or kind config) must agree; partial ones (patches) must agree with a full one."""
    problems: list[str] = []
    chosen: dict[str, list[Fact]] = {}
    for name in FLAGS:
        # a set that cannot tell this flag (--emulated-version=$(EMU), a script file) says nothing about it
        complete = [s for s in sets if s.complete and (s.values(name) or not _hides(s, name))]
        base = complete[0] if complete else None
        for other in complete[1:]:
            if base is not None and other.values(name) != base.values(name):
                problems.append(
                    f"--{name} differs: {_describe(base.facts(name), base.where)} but {_describe(other.facts(name), other.where)}"
                )
        facts = base.facts(name) if base is not None else []
        for partial in (s for s in sets if not s.complete and s.values(name)):
            if base is not None and partial.values(name) != base.values(name):
                problems.append(
                    f"--{name} differs: {_describe(base.facts(name), base.where)} but {_describe(partial.facts(name), partial.where)}"
                )
            elif base is None and not facts:
                facts = partial.facts(name)
        if facts:
            chosen[name] = facts
    return chosen, problems


def _hides(flag_set: FlagSet, name: str) -> bool:
    return any(u.flag in (name, None) for u in flag_set.unread)


def _binary(readings: list[Reading], warnings: list[str], given: GivenBinary | None = None) -> tuple[str, str, Version]:
    """The binary's version as written, where it came from, and parsed: the inputs' own (/version
    or /metrics first), else ``given``."""
    parsed: list[tuple[Fact, Version]] = []
    unusable = [u.describe() for r in readings for u in r.unusable_binary]
    for reading in readings:
        for fact in reading.binary:
            try:
                parsed.append((fact, parse_binary_version(fact.value)))
            except KcompatError:
                unusable.append(f"{fact.describe()}: {messages.not_a_release(fact.value)}")
    if not parsed:
        if given is None:
            raise InspectError(messages.no_binary_version(unusable))
        try:
            version = parse_binary_version(given.value)
        except KcompatError as exc:
            raise InspectError(f"{given.source}: {exc}") from None
        warnings += [messages.binary_not_used(u) for u in unusable]
        return given.value, given.source, version
    warnings += [messages.binary_not_used(u) for u in unusable]
    releases = {mm(v) for _, v in parsed}
    if len(releases) > 1:
        raise InspectError("the inputs name different binaries: " + "; ".join(f.describe() for f, _ in parsed))
    exact = {str(v) for _, v in parsed if len(v.components) >= 3}
    if len(exact) > 1:
        warnings.append("the inputs name different patch releases (" + "; ".join(f.describe() for f, _ in parsed) + "); the release decides the answer")
    # /version or /metrics first: they are what the running binary says
    fact, version = min(parsed, key=lambda p: 0 if "gitVersion" in p[0].text or "git_version" in p[0].text else 1)
    if given is not None and not given.fallback:
        note = messages.given_binary_differs(fact.describe(), given.source, _differs(given.value, version))
        if note:
            warnings.append(note)
    return fact.value, fact.describe(), version


def _differs(given: str, found: Version) -> str | None:
    """How a given binary version differs from the one the inputs name: "release", "patch" (both
    name a patch, not the same), or None (the same, or the release alone and the same)."""
    try:
        version = parse_binary_version(given)
    except KcompatError:
        return "release"
    if mm(version) != mm(found):
        return "release"
    if len(version.components) >= 3 and len(found.components) >= 3 and version.components[:3] != found.components[:3]:
        return "patch"
    return None


def _version_pair(
    flags: Mapping[str, list[Fact]], reported_emu: Fact | None, reported_mc: Fact | None, sources: dict[str, str]
) -> tuple[list[str], list[str]]:
    """The emulated and min compatibility versions, both from one source (``sources`` says which):

    1. the flags, when they give ``--emulated-version`` or ``--min-compatibility-version``: the
       other one is the binary's default for them (a min compatibility reported by ``/version``
       never joins an emulated version read from a flag, nor the reverse);
    2. else what ``/version`` reports, the one it does not report defaulted the same way;
    3. else the binary's defaults.

    Where ``/version`` reports something else than the pair chosen, the running binary disagrees
    with its configuration: an observation (:attr:`Combined.disagreements`), never a refusal."""
    chosen: list[tuple[str, list[Fact] | None]]
    if EMULATED in flags or MIN_COMPAT in flags:
        chosen = [("emulated", flags.get(EMULATED)), ("minCompatibility", flags.get(MIN_COMPAT))]
    else:
        chosen = [
            ("emulated", [reported_emu] if reported_emu is not None else None),
            ("minCompatibility", [reported_mc] if reported_mc is not None else None),
        ]
    defaults = ("default: the binary's own release (no --emulated-version in the inputs)", "default: derived from the emulated version")
    values: list[list[str]] = []
    for (key, facts), default in zip(chosen, defaults, strict=False):
        sources[key] = _describe(facts, None) if facts else default
        values.append([f.value for f in facts] if facts else [])
    return values[0], values[1]


def _observed(readings: list[Reading]) -> tuple[ObservedGate, ...] | None:
    lists = [r.observed for r in readings if r.observed is not None]
    if not lists:
        return None
    merged: dict[str, ObservedGate] = {}
    for gates in lists:
        for gate in gates:
            earlier = merged.get(gate.name)
            if earlier is not None and (earlier.enabled, earlier.stage) != (gate.enabled, gate.stage):
                raise InspectError(f"{gate.where}: {echo(gate.name)} contradicts {earlier.where}")
            merged.setdefault(gate.name, gate)
    return tuple(merged.values())


def _reported(readings: list[Reading], attr: str) -> Fact | None:
    facts = [f for r in readings for f in getattr(r, attr)]
    if len({f.value for f in facts}) > 1:
        raise InspectError("the inputs report different versions: " + "; ".join(f.describe() for f in facts))
    return facts[0] if facts else None


def _unread(sets: list[FlagSet], flags: dict[str, list[Fact]], readings: list[Reading], warnings: list[str]) -> list[str]:
    """The flags the inputs name but cannot tell the value of: another input that gives the value
    (a command line, what /version reports) is used with a warning; else the answer would be a
    guess, and is refused. A part of a command line that may hide flags is a warning."""
    problems = []
    # /version stands in for both versions or neither: never beside a version flag that was read
    version_flags_read = EMULATED in flags or MIN_COMPAT in flags
    reported = {EMULATED: any(r.emulated for r in readings) and not version_flags_read,
                MIN_COMPAT: any(r.min_compat for r in readings) and not version_flags_read}
    for flag_set in sets:
        for unread in flag_set.unread:
            if unread.flag is None:
                warnings.append(messages.hidden_flags(unread))
            elif unread.flag in flags:
                warnings.append(messages.unread_flag_replaced(unread, _describe(flags[unread.flag], None)))
            elif reported.get(unread.flag):
                warnings.append(messages.unread_flag_replaced(unread, "what /version reports"))
            else:
                problems.append(messages.unread_flag(unread))
    return problems


def combine_readings(readings: list[Reading], component: str | None = None, given: GivenBinary | None = None) -> Combined:
    """One selection from every reading (of ``component`` when given; with ``given`` when they
    name no binary version), or an :class:`InspectError` naming each contradiction."""
    warnings = [note for r in readings for note in r.notes]
    component, component_source = choose_component(readings, component)
    binary_value, binary_source, binary = _binary(readings, warnings, given)
    component_sets = [s for r in readings for s in r.flag_sets if s.component == component]
    flags, problems = combine_flags(component_sets)
    problems += _unread(component_sets, flags, readings, warnings)
    if problems:
        raise InspectError(problems)
    reported_emu = _reported(readings, "emulated")
    reported_mc = _reported(readings, "min_compat")
    # a /version before 1.35 reports a min compatibility no flag sets: checked, never a source
    settable_mc = reported_mc if select_versions(binary).rules.has_min_compat_flag else None
    sources = {"component": component_source, "binary": binary_source}
    emulated, min_compat = _version_pair(flags, reported_emu, settable_mc, sources)
    flagged = any(r.kind == "command line" or r.kind.startswith(("static pod", "kubeadm", "kind")) for r in readings)
    if EMULATED not in flags and reported_emu is None and not flagged:
        warnings.append(messages.no_emulated_version(
            str(mm(binary)), select_versions(binary).rules.version_reports_emulation, any(r.kind == "/version" for r in readings),
        ))
    for key, name in (
        ("featureGates", FEATURE_GATES),
        ("runtimeConfig", RUNTIME_CONFIG),
        ("emulationForwardCompatible", FORWARD_COMPAT),
        ("runtimeConfigEmulationForwardCompatible", RUNTIME_FORWARD_COMPAT),
        *((name, name) for name in OPTION_FLAGS),
    ):
        if name in flags:
            sources[key] = _describe(flags[name], None)
    selection = select_versions(binary, emulated or None, min_compat or None)
    disagreements = []
    for fact, value, what in ((reported_emu, selection.emulated, "emulated"), (reported_mc, selection.min_compat, "min compatibility")):
        if fact is not None and not selection.flags_rejected and fact.value != str(value):
            disagreements.append(
                f"{fact.describe()} but the flags give {what} {value} ({sources['emulated' if what == 'emulated' else 'minCompatibility']}): "
                "the running binary was not started with these flags (a manifest changed since, or another file)"
            )
    return Combined(
        component=component,
        binary=binary_value,
        emulated=tuple(emulated),
        min_compat=tuple(min_compat),
        feature_gates=tuple(f.value for f in flags.get(FEATURE_GATES, [])),
        runtime_config=tuple(f.value for f in flags.get(RUNTIME_CONFIG, [])),
        sources=MappingProxyType(sources),
        observed=_observed(readings),
        warnings=tuple(warnings),
        emulation_forward_compatible=tuple(f.value for f in flags.get(FORWARD_COMPAT, [])),
        runtime_config_emulation_forward_compatible=tuple(f.value for f in flags.get(RUNTIME_FORWARD_COMPAT, [])),
        apiserver_flags=tuple((name, f.value) for name in OPTION_FLAGS for f in flags.get(name, [])),
        disagreements=tuple(disagreements),
        refused=tuple(e for s in component_sets for e in s.refused),
    )
