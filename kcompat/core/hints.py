"""Remedies beside the binary's errors: what to change so that the binary starts, computed from
the data the engine already has. They never alter the binary's own error text; each hint names
the error it explains.

* ``unrecognized feature gate: <name>`` (component-base ``featuregate.unsafeSetFromMap``): the
  closest known names of the binary's gate set (``difflib`` ratio, case-insensitive equality
  first), AllAlpha/AllBeta included.
* ``<gate> is enabled, but depends on features that are disabled: [<deps>]`` (component-base
  ``featuregate.validateDependencies``, 1.35+, SPEC §5.6): one line naming the fix, "enable
  <deps> or leave <gate> off", adjusted when a dependency is locked off or not yet introduced at
  the emulated version, or when the gate was turned on by AllAlpha/AllBeta or by its default.
* ``unrecognized feature gate`` for a gate the bundled releases show removed (a gate removed
  after GA or while deprecated: the behaviour it kept, and "drop the flag"), or first registered
  by a later release (the release to use); ``kind`` "removed-gate" / "later-gate".
* ``cannot set feature gate <g> to <v>, feature is PreAlpha at emulated version <e>``: the
  release where the gate appears (its first spec that is not PreAlpha), "emulate it or later, or
  drop the flag"; or the min compatibility it needs (1.35+); ``kind`` "not-introduced".
* ``cannot set feature gate <g> to <v>, feature is locked to <d>``: since when it is locked
  (and the emulated version where it can still be set, when the range allows one); ``kind``
  "locked".
* ``emulation version <e> is not between [<lo>, <hi>]`` and the min compatibility twin: the
  range and the nearest valid value; ``kind`` "version-range" (:func:`version_hints`).

The API errors of ``--runtime-config`` are explained by :func:`api_hints` (kind
"runtime-config"), from the API data of the binary's release and the other bundled releases.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .compat import VersionSelection
from .gates import GateEvaluation
from .placeholders import is_placeholder
from .manifest import META_GATES, Feature, FeatureSpec, GateState
from .stages import Stage
from .versions import Version, major_minor, mm, parse_version, subtract_minor

TYPE_CHECKING = False
if TYPE_CHECKING:

    from .apis import ApiAvailability
    from .removals import GateLineage

#: At most this many hints (one per error); a flood of unknown names gets no more.
MAX_HINTS = 20
#: Names longer than this get no suggestions (no gate name is near it; difflib is quadratic).
MAX_SUGGESTED_NAME_LENGTH = 128
MAX_SUGGESTIONS = 3
SIMILARITY_CUTOFF = 0.75

UNKNOWN_PREFIX = "unrecognized feature gate: "
DEPENDENCY_MIDDLE = " is enabled, but depends on features that are disabled: ["


@dataclass(frozen=True)
class Hint:
    """One explanation of one of the binary's errors."""

    #: "unknown-gate" | "dependency" | "removed-gate" | "later-gate" | "not-introduced" | "locked"
    #: | "version-range" | "runtime-config"
    kind: str
    error: str  # the binary's error text (or warning), unchanged
    #: the gate the error names; None for a hint about a version flag or an API
    gate: str | None
    text: str
    #: the known names suggested for an unknown gate; the disabled dependencies for a dependency
    #: error; the flag (version-range) or group/version (runtime-config) for the others
    names: tuple[str, ...] = ()

    @property
    def line(self) -> str:
        """The hint as one line of text (the gate named first when the text does not)."""
        return f"{self.gate}: {self.text}" if self.kind == "unknown-gate" else self.text


def closest_names(name: str, known: Iterable[str], limit: int = MAX_SUGGESTIONS) -> tuple[str, ...]:
    """The known names closest to ``name``, best first; () when none is close."""
    if not name or len(name) > MAX_SUGGESTED_NAME_LENGTH:
        return ()
    known = tuple(known)
    folded = name.casefold()
    same_case = tuple(k for k in known if k.casefold() == folded and k != name)
    if same_case:
        return same_case[:limit]
    by_folded: dict[str, str] = {}
    for k in known:
        by_folded.setdefault(k.casefold(), k)
    import difflib  # only when a name is unknown: kcompat gates starts without it

    matches = difflib.get_close_matches(folded, list(by_folded), n=limit, cutoff=SIMILARITY_CUTOFF)
    return tuple(by_folded[m] for m in matches)


def unknown_gate_name(error: str) -> str | None:
    """The gate an ``unrecognized feature gate`` error names, else None."""
    return error[len(UNKNOWN_PREFIX) :] if error.startswith(UNKNOWN_PREFIX) else None


def dependency_error_parts(error: str) -> tuple[str, tuple[str, ...]] | None:
    """(gate, disabled dependencies) of a dependency error, else None (plain string splitting)."""
    gate, found, rest = error.partition(DEPENDENCY_MIDDLE)
    if not found or not gate or not rest.endswith("]"):
        return None
    return gate, tuple(rest[:-1].split())


def _joined(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def unknown_gate_hint(error: str, known: Iterable[str]) -> Hint | None:
    name = unknown_gate_name(error)
    if name is None:
        return None
    names = closest_names(name, known)
    if not names:
        return None
    text = f"did you mean {' or '.join(names)}?"
    return Hint("unknown-gate", error, name, text, names)


def dependency_hint(error: str, states: dict[str, GateState], sources: dict[str, str], emulated: str) -> Hint | None:
    parts = dependency_error_parts(error)
    if parts is None:
        return None
    gate, deps = parts
    blocked = [d for d in deps if d in states and (states[d].stage is Stage.PRE_ALPHA or (states[d].locked and not states[d].default))]
    enable = [d for d in deps if d not in blocked]
    source = sources.get(gate, "")
    if source in ("AllAlpha", "AllBeta"):
        leave_off = f"set {gate}=false (turned on by {source}=true)"
    elif source == "default":
        leave_off = f"set {gate}=false (it is on by default at {emulated})"
    else:
        leave_off = f"leave {gate} off"
    if blocked:
        why = "; ".join(
            f"{d} is not yet introduced at {emulated}" if states[d].stage is Stage.PRE_ALPHA else f"{d} is locked off at {emulated}"
            for d in blocked
        )
        text = f"{gate} depends on {_joined(deps)}; {why}, so {leave_off}"
    else:
        text = f"{gate} depends on {_joined(deps)}: enable {_joined(enable)} or {leave_off}"
    return Hint("dependency", error, gate, text, deps)


def hints_for(evaluation: GateEvaluation, lineage: Callable[[], GateLineage] | None = None) -> tuple[Hint, ...]:
    """The hints for an evaluation's errors, in the order of the errors (at most MAX_HINTS).

    ``lineage`` (called only when an unknown gate needs it) gives the bundled releases' gate
    lineage: an unrecognized gate that an older release registered is named as removed, one a
    newer release registers as "use that release"."""
    errors = evaluation.errors
    if not errors:
        return ()
    known: tuple[str, ...] | None = None
    states: dict[str, GateState] | None = None
    sources: dict[str, str] = {}
    history: GateLineage | None = None
    out: list[Hint] = list(version_hints(evaluation.selection))
    for error in errors[:MAX_HINTS]:  # the errors shown; a flood of unknown names costs 20 searches, not thousands
        if len(out) >= MAX_HINTS:
            break
        hint = None
        if error.startswith(UNKNOWN_PREFIX):
            if lineage is not None and history is None:
                history = lineage()
            hint = _lineage_hint(error, evaluation, history) if history is not None else None
            if hint is None:
                if known is None:
                    known = tuple(g.name for g in evaluation.gates) + META_GATES
                hint = unknown_gate_hint(error, known)
        elif DEPENDENCY_MIDDLE in error:
            if states is None:
                states = {g.name: g for g in evaluation.gates}
                sources = _enabling_sources(evaluation)
            hint = dependency_hint(error, states, sources, str(evaluation.selection.emulated))
        elif PRE_ALPHA_ERROR.match(error):
            hint = not_introduced_hint(error, evaluation)
        elif LOCKED_ERROR.match(error):
            hint = locked_hint(error, evaluation)
        if hint is not None:
            out.append(hint)
    return tuple(out[:MAX_HINTS])


# ---------------------------------------------------------------------------------------------
# Gates the binary does not register, gates not introduced yet, locked gates.

PRE_ALPHA_ERROR = re.compile(r"^cannot set feature gate (\S+) to (true|false), feature is PreAlpha at emulated version ")
LOCKED_ERROR = re.compile(r"^cannot set feature gate (\S+) to (true|false), feature is locked to (true|false)$")
def since_text(version: Version) -> str:
    """``since 1.30``, or the placeholder said as such."""
    if is_placeholder(version):
        return f"since before the gate existed (the data dates it to {mm(version)}, a placeholder)"
    return f"since {mm(version)}"


def _flag_item(gate: str, word: str) -> str:
    return f"drop {gate}={word} from --feature-gates"


def _lineage_hint(error: str, evaluation: GateEvaluation, lineage: GateLineage) -> Hint | None:
    name = unknown_gate_name(error)
    binary = evaluation.selection.binary
    if name is None or binary is None:
        return None
    removal = lineage.removal_before(name, binary)
    if removal is not None:
        text = (
            f"{name} was removed in {removal.removed_in} after {removal.last_status} (last listed by {removal.last_release}): "
            f"{removal.behaviour} in a {mm(binary)} binary, drop it from --feature-gates"
        )
        return Hint("removed-gate", error, name, text, (str(removal.removed_in),))
    for release, manifest in zip(lineage.releases, lineage.manifests):
        if release > mm(binary) and name in manifest.by_name:
            text = (
                f"{name} is first registered by {release} binaries (a {mm(binary)} binary does not know it): "
                f"use a {release} or later binary, or drop it from --feature-gates"
            )
            return Hint("later-gate", error, name, text, (str(release),))
    return None


def _feature(evaluation: GateEvaluation, name: str) -> Feature | None:
    manifest = evaluation.manifest
    return manifest.by_name.get(name) if manifest is not None else None


def not_introduced_hint(error: str, evaluation: GateEvaluation) -> Hint | None:
    match = PRE_ALPHA_ERROR.match(error)
    feature = _feature(evaluation, match.group(1)) if match else None
    if match is None or feature is None:
        return None
    gate, word = match.group(1), match.group(2)
    sel = evaluation.selection
    emu = mm(sel.emulated)
    first = next((s for s in feature.specs if s.stage is not Stage.PRE_ALPHA), None)
    if first is None:
        return Hint("not-introduced", error, gate, f"{gate} is PreAlpha in every release of the data: {_flag_item(gate, word)}", ())
    if mm(first.version) > emu:
        top = mm(sel.binary) if sel.binary is not None else None
        if top is not None and mm(first.version) > top:
            text = f"{gate} appears in {mm(first.version)} ({first.stage.value}), after this {top} binary: {_flag_item(gate, word)}"
        else:
            text = (
                f"{gate} appears in {mm(first.version)} ({first.stage.value}): emulate {mm(first.version)} or later, "
                f"or {_flag_item(gate, word)}"
            )
        return Hint("not-introduced", error, gate, text, (str(mm(first.version)),))
    # introduced at or before the emulated version: its specs need a higher min compatibility (1.35+)
    need = [s.effective_min_compatibility for s in feature.specs if mm(s.version) <= emu and s.effective_min_compatibility is not None]
    low = min(need) if need else None
    if low is not None and mm(low) <= emu:
        text = (
            f"{gate} is introduced in {mm(first.version)} but needs min compatibility {mm(low)} or later "
            f"(now {sel.min_compat}): set --min-compatibility-version={mm(low)}, or {_flag_item(gate, word)}"
        )
        return Hint("not-introduced", error, gate, text, (str(mm(low)),))
    return Hint("not-introduced", error, gate, f"{gate} cannot be set at {emu}: {_flag_item(gate, word)}", ())


def locked_hint(error: str, evaluation: GateEvaluation) -> Hint | None:
    match = LOCKED_ERROR.match(error)
    if match is None:
        return None
    gate, word, locked = match.groups()
    if gate in META_GATES:
        return None
    feature = _feature(evaluation, gate)
    sel = evaluation.selection
    emu = mm(sel.emulated)
    current = [s for s in (feature.specs if feature else ()) if mm(s.version) <= emu]
    if not current:
        return None
    # walk back over the specs locked to the same value: the lock started at the oldest of them
    since: FeatureSpec = current[-1]
    before: FeatureSpec | None = None
    for spec in reversed(current):
        if spec.lock_to_default and spec.default == since.default:
            since = spec
        else:
            before = spec
            break
    state = "on" if locked == "true" else "off"
    text = f"{gate} is locked {state} ({current[-1].stage.value}) {since_text(since.version)}: {_flag_item(gate, word)}"
    if before is not None and not is_placeholder(since.version):
        unlocked = subtract_minor(mm(since.version), 1)
        span = sel.rules.emulation_range()
        if span is not None and span[0] <= unlocked <= span[1]:
            text += f", or emulate {unlocked}, the last release where it can still be set"
    return Hint("locked", error, gate, text, (str(mm(since.version)),))


# ---------------------------------------------------------------------------------------------
# The version flags.

EMULATION_RANGE_ERROR = re.compile(r"^emulation version (\S+) is not between \[(\S+), (\S+)\]$")
MIN_COMPAT_RANGE_ERROR = re.compile(r"^minCompatibilityVersion version (\S+) is not between \[(\S+), (\S+)\]$")
FIRST_RELEASE_ERROR = "emulation version needs to be equal to binary version("


def _nearest(value: Version, low: Version, high: Version) -> Version:
    return low if value < low else high if value > high else value


def version_hints(selection: VersionSelection) -> tuple[Hint, ...]:
    """The range and the nearest valid value beside each range error of the version flags."""
    out = []
    binary = selection.binary
    for error in selection.errors:
        emu_match = EMULATION_RANGE_ERROR.match(error)
        mc_match = MIN_COMPAT_RANGE_ERROR.match(error)
        if emu_match and binary is not None:
            low, high = (mm(parse_version(v)) for v in emu_match.group(2, 3))
            value = mm(selection.emulated)
            text = (
                f"a {mm(binary)} binary emulates {low} to {high}: "
                f"set --emulated-version={_nearest(value, low, high)} (the nearest valid value), or drop the flag for {mm(binary)}"
            )
            out.append(Hint("version-range", error, None, text, ("--emulated-version",)))
        elif mc_match and binary is not None:
            low, high = (mm(parse_version(v)) for v in mc_match.group(2, 3))
            value = mm(selection.min_compat)
            if low > high:
                text = (
                    f"the min compatibility range [{low}, {high}] is empty because the emulated version {mm(selection.emulated)} "
                    "is out of range: fix --emulated-version first"
                )
            elif not selection.rules.has_min_compat_flag or low == high:
                text = f"a {mm(binary)} binary allows only min compatibility {low}: drop --min-compatibility-version"
            else:
                default = selection.rules.default_min_compat(selection.emulated)
                text = (
                    f"at emulated {mm(selection.emulated)} a {mm(binary)} binary allows min compatibility {low} to {high} "
                    f"(never above the emulated version): set --min-compatibility-version={_nearest(value, low, high)} "
                    f"(the nearest valid value), or drop the flag for {default}"
                )
            out.append(Hint("version-range", error, None, text, ("--min-compatibility-version",)))
        elif error.startswith(FIRST_RELEASE_ERROR) and binary is not None:
            text = (
                f"a {mm(binary)} binary cannot emulate another release: drop --emulated-version, "
                f"or use a {major_minor(binary.major, binary.minor + 1)} or later binary"
            )
            out.append(Hint("version-range", error, None, text, ("--emulated-version",)))
    return tuple(out)


def _enabling_sources(evaluation: GateEvaluation) -> dict[str, str]:
    """Why each gate would be on with the flags: "flag", "AllAlpha", "AllBeta" or "default".

    A dependency error means the flags were not applied (the binary refuses to start), so the
    sources are recomputed from the flag values the way ``unsafeSetFromMap`` resolves them."""
    values = dict(evaluation.flags.values) if evaluation.flags is not None else {}
    out: dict[str, str] = {}
    for g in evaluation.gates:
        if g.name in values:
            out[g.name] = "flag"
        elif g.stage is Stage.ALPHA and "AllAlpha" in values:
            out[g.name] = "AllAlpha"
        elif g.stage is Stage.BETA and "AllBeta" in values:
            out[g.name] = "AllBeta"
        else:
            out[g.name] = "default"
    return out


# ---------------------------------------------------------------------------------------------
# --runtime-config and the forward-compatibility flags (kube-apiserver).

API_VERSION_INTRODUCED_ERROR = re.compile(
    r"^cannot enable version (\S+) in runtime-config because all the resources have been introduced after the current version (\S+)\."
)
API_RESOURCE_INTRODUCED_ERROR = re.compile(
    r"^cannot enable resource (\S+), Resource=(\S+) in runtime-config because it is introduced at (\S+) after the current version (\S+)\."
)
API_NOT_REGISTERED_ERROR = re.compile(r"^group version (\S+) that has not been registered$")
API_UNKNOWN_GROUPS_ERROR = re.compile(r"^unknown api groups (\S+)$")
API_ALPHA_WARNING = re.compile(r"^alpha api enabled with emulated version (\S+) instead of the binary's version (\S+),.* api=(\S+)$")
FORWARD_COMPAT_SAME_VERSION = re.compile(r"^ServerRunOptions\.(\w+) cannot be set to true if the emulation version is the same as the binary version$")
UNKNOWN_FORWARD_COMPAT_FLAG = re.compile(r"^unknown flag: --(\S+) \(a (\S+) binary has no such flag")

_FORWARD_COMPAT_FLAG_NAMES = {
    "EmulationForwardCompatible": "--emulation-forward-compatible",
    "RuntimeConfigEmulationForwardCompatible": "--runtime-config-emulation-forward-compatible",
}


def api_hints(availability: ApiAvailability) -> tuple[Hint, ...]:
    """The remedies beside ``--runtime-config`` refusals and the alpha-under-emulation warning,
    and beside the version-range errors (the same as for the gates)."""
    out: list[Hint] = []
    if availability.selection is not None:
        out.extend(version_hints(availability.selection))
    binary, emu = mm(availability.binary), mm(availability.emulated)
    for error in availability.errors:
        if len(out) >= MAX_HINTS:
            break
        hint = _api_error_hint(error, availability, binary, emu)
        if hint is not None:
            out.append(hint)
    for warning in availability.warnings:
        match = API_ALPHA_WARNING.match(warning)
        if match and len(out) < MAX_HINTS:
            gv = match.group(3)
            text = (
                f"{gv} is alpha: under emulation it is unsupported (a warning, the binary starts). Drop --emulated-version to run "
                f"{binary} natively, or drop {gv}=true from --runtime-config"
            )
            out.append(Hint("runtime-config", warning, None, text, (gv,)))
    return tuple(out)


def _first_introduced(availability: ApiAvailability, gv: str, resource: str | None = None) -> Version | None:
    versions = [
        mm(e.introduced)
        for e in availability.entries
        if e.group_version == gv and e.introduced is not None and (resource is None or e.resource == resource)
    ]
    return min(versions) if versions else None


def _api_error_hint(error: str, availability: ApiAvailability, binary: Version, emu: Version) -> Hint | None:
    match = API_VERSION_INTRODUCED_ERROR.match(error)
    if match:
        gv = match.group(1)
        first = _first_introduced(availability, gv)
        appears = f"{gv} appears in {first}" if first is not None else f"every resource of {gv} is introduced after {emu}"
        emulate = f"emulate {first} or later, " if first is not None else ""
        text = (
            f"{appears}: {emulate}drop {gv}=true from --runtime-config, "
            "or add --runtime-config-emulation-forward-compatible=true to serve it anyway"
        )
        return Hint("runtime-config", error, None, text, (gv,))
    match = API_RESOURCE_INTRODUCED_ERROR.match(error)
    if match:
        gv, resource, introduced = match.group(1), match.group(2), match.group(3)
        text = (
            f"{gv}/{resource} appears in {introduced}: emulate {introduced} or later, drop {gv}/{resource}=true from "
            "--runtime-config, or add --runtime-config-emulation-forward-compatible=true to serve it anyway"
        )
        return Hint("runtime-config", error, None, text, (gv,))
    match = API_NOT_REGISTERED_ERROR.match(error)
    if match:
        return _unregistered_hint(error, match.group(1), availability, binary)
    match = API_UNKNOWN_GROUPS_ERROR.match(error)
    if match:
        groups = tuple(g for g in match.group(1).split(",") if g)
        known = dict.fromkeys(e.group for e in availability.entries if e.group)
        guesses = [f"{g}: did you mean {' or '.join(names)}?" for g in groups for names in [closest_names(g, known)] if names]
        text = (
            f"{', '.join(groups)} {'is not a group' if len(groups) == 1 else 'are not groups'} a {binary} kube-apiserver serves "
            "(--runtime-config cannot enable a CRD's or an aggregated API's group): drop "
            f"{'it' if len(groups) == 1 else 'them'} from --runtime-config" + ("; " + "; ".join(guesses) if guesses else "")
        )
        return Hint("runtime-config", error, None, text, groups)
    match = FORWARD_COMPAT_SAME_VERSION.match(error)
    if match:
        flag = _FORWARD_COMPAT_FLAG_NAMES.get(match.group(1), match.group(1))
        text = f"{flag} only applies while emulating an older release: drop it, or set --emulated-version below {binary}"
        return Hint("runtime-config", error, None, text, (flag,))
    match = UNKNOWN_FORWARD_COMPAT_FLAG.match(error)
    if match:
        text = f"--{match.group(1)} exists from 1.33: drop it from a {match.group(2)} binary's flags"
        return Hint("runtime-config", error, None, text, (f"--{match.group(1)}",))
    return None


def _unregistered_hint(error: str, gv: str, availability: ApiAvailability, binary: Version) -> Hint | None:
    """A group/version the binary does not register: removed (the last release that served it),
    not yet added (the first release that does), or a typo (the closest registered names)."""
    from .errors import KcompatError

    group, _, version = gv.rpartition("/")
    last_before = first_after = None
    api_data = availability.api_data
    for release in api_data.api_releases():
        try:
            api = api_data.api_release(release)
        except KcompatError:
            continue
        if api.find(group, version) is None:
            continue
        if mm(release) < binary:
            last_before = mm(release)
        elif mm(release) > binary and first_after is None:
            first_after = mm(release)
    if last_before is not None:
        text = (
            f"{gv} is no longer registered by a {binary} binary (removed after {last_before}, the last bundled release that "
            f"registers it); emulation does not bring it back: drop {gv} from --runtime-config"
        )
        return Hint("runtime-config", error, None, text, (gv,))
    if first_after is not None:
        text = f"{gv} is first registered by {first_after} binaries: use a {first_after} or later binary, or drop {gv} from --runtime-config"
        return Hint("runtime-config", error, None, text, (gv,))
    known = dict.fromkeys(e.group_version for e in availability.entries)
    names = closest_names(gv, known)
    if names:
        return Hint("runtime-config", error, None, f"{gv}: did you mean {' or '.join(names)}?", names)
    return None
