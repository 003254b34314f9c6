"""What a binary says about its flags, as typed values: one frozen problem per kind.

A problem holds the values the binary's check found (the gate, the flag value, the range) and
renders the binary's own line from them (:attr:`Problem.message`), byte for byte as the binary
prints it (``tests/oracle`` compares them with the real binaries' lines). Nothing parses a
message again: callers branch on the problem's type, and the remedy beside it
(:class:`Remedy`, computed by :mod:`kcompat.core.remedies`) holds the problem itself, so
rewording a message can never lose its remedy.

Each kind has a :class:`Verdict`, what the binary does about it: it refuses to start
(:attr:`Verdict.REFUSES`, the errors), or starts and logs it (:attr:`Verdict.WARNS`, the
warnings). :attr:`Verdict.NOT_READY` (starts, but never becomes ready) is there for checks whose
failure shows only after start-up; no kind has it yet. The evaluations (``VersionSelection``,
``GateEvaluation``, ``ApiAvailability``, ``StorageVersions``) keep their problems in order in
``problems``; their ``errors`` and ``warnings`` are the messages of each verdict.

Adding a kind (a kube-apiserver option check, say ``--runtime-config=api/all=false conflicts
with --enable-priority-and-fairness=true``):

1. Define it here, next to its family: a ``@dataclass(frozen=True, slots=True)`` subclass of
   :class:`Problem` whose fields are the values the check found (never a message), with
   ``verdict`` set when it is not a refusal, ``gate`` when it names a gate, and a ``message``
   property that renders the binary's line from the fields (``cut``/``quote_cut`` every echo of
   user input). Cite the Go function that prints it.
2. Emit it where the rule lives in the core (the evaluation appends the value to its problems).
3. Give it a remedy: a function ``(problem, context) -> Remedy | None`` in the family's module of
   :mod:`kcompat.core.remedies`, registered in that module's table under the new type.
4. Record the binary's line (``oracle/``) so ``tests/oracle`` holds the message to the binary's,
   and add the remedy's kind to the table in ``docs/cli.md`` when it is a new one.

A kind with the verdict ``NOT_READY`` is added the same way; the front ends then report it
apart from the errors (``kcompat`` exits with ``ExitStatus.NOT_READY``, see docs/cli.md).

The kinds are plain values (they pickle, compare and hash by their fields). The evaluations
import a kind where they find one: defining them all costs more than a whole ``kcompat gates``
answer on input the binary accepts, which therefore never imports this module (tested).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, StrEnum

from .errors import cut, quote_cut
from .stages import Stage
from .versions import Version, mm


class Verdict(Enum):
    """What the binary does about a problem."""

    #: it exits at start-up with the message (an error)
    REFUSES = "refuses to start"
    #: it starts and logs the message (a warning)
    WARNS = "starts and warns"
    #: it starts but never becomes ready (reserved: no kind has this verdict yet)
    NOT_READY = "starts but does not become ready"


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing the binary says about its input. Subclasses hold the values; ``message``
    renders the binary's line from them."""

    #: what the binary does about it (a class attribute of each kind, not a field)
    verdict = Verdict.REFUSES

    @property
    def message(self) -> str:
        """The binary's line, byte for byte."""
        raise NotImplementedError(type(self).__name__)

    @property
    def gate(self) -> str | None:
        """The gate the problem names, as the message shows it; None when it names none."""
        return None

    @property
    def refuses(self) -> bool:
        return self.verdict is Verdict.REFUSES

    @property
    def warns(self) -> bool:
        return self.verdict is Verdict.WARNS

    def __str__(self) -> str:
        return self.message


def messages(problems: tuple[Problem, ...], verdict: Verdict) -> tuple[str, ...]:
    """The messages of the problems with ``verdict``, in order."""
    return tuple(p.message for p in problems if p.verdict is verdict)


def unique(problems: Iterable[Problem]) -> tuple[Problem, ...]:
    """``problems`` without those whose line repeats an earlier one's (the binary prints each once)."""
    seen: dict[str, Problem] = {}
    for problem in problems:
        seen.setdefault(problem.message, problem)
    return tuple(seen.values())


@dataclass(frozen=True, slots=True)
class Note(Problem):
    """A line kcompat adds beside the binary's (what it could not check, which data it used):
    shown with the warnings, never a refusal, no remedy."""

    verdict = Verdict.WARNS
    text: str

    @property
    def message(self) -> str:
        return self.text


# ---------------------------------------------------------------------------------------------
# The version flags (component-base ``compatibility``/``featuregate`` ``Validate``, pflag).


@dataclass(frozen=True, slots=True)
class FlagValueRejected(Problem):
    """A flag value the binary cannot read at all (``--emulated-version=1.3x``,
    ``--feature-gates=Foo``): the parser's own words, for the flag named."""

    flag: str
    text: str

    @property
    def message(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class UnknownFlag(Problem):
    """pflag's ``unknown flag: --NAME``: the binary's release has no such flag. ``release`` and
    ``since`` (the release that adds it) say so beside pflag's words when given."""

    flag: str
    release: Version | None = None
    since: Version | None = None

    @property
    def message(self) -> str:
        text = f"unknown flag: --{self.flag}"
        if self.release is not None and self.since is not None:
            text += f" (a {self.release} binary has no such flag; it exists from {self.since})"
        return text


@dataclass(frozen=True, slots=True)
class EmulationOutOfRange(Problem):
    """``emulation version E is not between [L, H]`` (``EffectiveVersion.Validate``)."""

    value: Version
    low: Version
    high: Version
    binary: Version

    @property
    def message(self) -> str:
        return f"emulation version {self.value} is not between [{self.low}, {self.high}]"


@dataclass(frozen=True, slots=True)
class MinCompatOutOfRange(Problem):
    """``minCompatibilityVersion version M is not between [L, H]`` (``EffectiveVersion.Validate``);
    ``binary`` is None for a component without one (the range is then [0.0, emulated])."""

    value: Version
    low: Version
    high: Version
    binary: Version | None
    emulated: Version

    @property
    def message(self) -> str:
        return f"minCompatibilityVersion version {self.value} is not between [{self.low}, {self.high}]"


@dataclass(frozen=True, slots=True)
class EmulationMustEqualBinary(Problem):
    """1.31's compatibility-version alpha: the emulation version must be the binary's
    (apiserver@v0.31 ``util/version`` ``Validate``); ``shown`` carries the binary's pre-release."""

    binary: Version
    shown: Version

    @property
    def message(self) -> str:
        return (
            f"emulation version needs to be equal to binary version({mm(self.binary)}) in compatibility-version alpha, "
            f"got {self.shown}"
        )


#: The kinds a version selection's check finds (each one's remedy is a "version-range" remedy).
VERSION_RANGE_KINDS = (EmulationOutOfRange, MinCompatOutOfRange, EmulationMustEqualBinary)


# ---------------------------------------------------------------------------------------------
# --feature-gates (component-base ``featuregate.unsafeSetFromMap``, ``validateDependencies``,
# ``Set`` and ``featureGate.SetEmulationVersion`` warnings).


def _word(value: bool) -> str:
    return "true" if value else "false"


@dataclass(frozen=True, slots=True)
class UnknownGate(Problem):
    """``unrecognized feature gate: NAME``."""

    name: str

    @property
    def gate(self) -> str:
        return cut(self.name)

    @property
    def message(self) -> str:
        return f"unrecognized feature gate: {cut(self.name)}"


@dataclass(frozen=True, slots=True)
class LockedGate(Problem):
    """``cannot set feature gate G to V, feature is locked to D``."""

    name: str
    value: bool
    locked_to: bool

    @property
    def gate(self) -> str:
        return self.name

    @property
    def message(self) -> str:
        return f"cannot set feature gate {self.name} to {_word(self.value)}, feature is locked to {_word(self.locked_to)}"


@dataclass(frozen=True, slots=True)
class PreAlphaGate(Problem):
    """``cannot set feature gate G to V, feature is PreAlpha at emulated version E`` (1.35+: ``,
    min compatibility version M``). ``emulated`` is ``EmulationVersion()`` as the binary prints it."""

    name: str
    value: bool
    emulated: Version
    min_compat: Version | None = None

    @property
    def gate(self) -> str:
        return self.name

    @property
    def message(self) -> str:
        suffix = f", min compatibility version {self.min_compat}" if self.min_compat is not None else ""
        return f"cannot set feature gate {self.name} to {_word(self.value)}, feature is PreAlpha at emulated version {self.emulated}{suffix}"


@dataclass(frozen=True, slots=True)
class DependencyDisabled(Problem):
    """``G is enabled, but depends on features that are disabled: [D ...]`` (1.35+)."""

    name: str
    disabled: tuple[str, ...]

    @property
    def gate(self) -> str:
        return self.name

    @property
    def message(self) -> str:
        return f"{self.name} is enabled, but depends on features that are disabled: [{' '.join(self.disabled)}]"


@dataclass(frozen=True, slots=True)
class AlphaGatesWhileEmulating(Problem):
    """1.34+: a binary emulating an older release with Alpha gates on."""

    verdict = Verdict.WARNS
    names: tuple[str, ...]

    @property
    def message(self) -> str:
        return f"component has alpha features enabled in emulated version, this is unsupported: features=[{' '.join(self.names)}]"


@dataclass(frozen=True, slots=True)
class RetiringGateSet(Problem):
    """A GA or Deprecated gate set by the flag ("It will be removed in a future release"); from
    1.36 a structured message."""

    verdict = Verdict.WARNS
    name: str
    value: bool
    stage: Stage
    structured: bool

    @property
    def gate(self) -> str:
        return self.name

    @property
    def message(self) -> str:
        kind = "GA" if self.stage is Stage.GA else "deprecated"
        if self.structured:
            return f"Warning: setting {kind} feature gate. It will be removed in a future release. featureGate={self.name} value={_word(self.value)}"
        return f"Setting {kind} feature gate {self.name}={_word(self.value)}. It will be removed in a future release."


# ---------------------------------------------------------------------------------------------
# kube-apiserver: --runtime-config (apiserver ``APIEnablementOptions.Validate``,
# ``MergeAPIResourceConfigs``, ``removeUnintroducedKinds``) and the forward-compatibility flags
# (``ServerRunOptions.Validate``).


@dataclass(frozen=True, slots=True)
class ForwardCompatSameVersion(Problem):
    """``ServerRunOptions.<Option> cannot be set to true if the emulation version is the same as
    the binary version``; ``flag`` is the option's command-line name."""

    flag: str
    option: str

    @property
    def message(self) -> str:
        return f"ServerRunOptions.{self.option} cannot be set to true if the emulation version is the same as the binary version"


@dataclass(frozen=True, slots=True)
class ApiVersionIntroducedLater(Problem):
    """An explicitly enabled group/version none of whose resources exists at the emulated version."""

    group_version: str
    emulated: Version

    @property
    def message(self) -> str:
        return (
            f"cannot enable version {self.group_version} in runtime-config because all the resources have been introduced "
            f"after the current version {self.emulated}. Consider setting --runtime-config-emulation-forward-compatible=true"
        )


@dataclass(frozen=True, slots=True)
class ApiResourceIntroducedLater(Problem):
    """An explicitly enabled resource introduced after the emulated version."""

    group: str
    version: str
    resource: str
    introduced: Version
    emulated: Version

    @property
    def message(self) -> str:
        return (
            f"cannot enable resource {self.group}/{self.version}, Resource={self.resource} in runtime-config because it is "
            f"introduced at {self.introduced} after the current version {self.emulated}. "
            "Consider setting --runtime-config-emulation-forward-compatible=true"
        )


@dataclass(frozen=True, slots=True)
class GroupVersionNotRegistered(Problem):
    """``group version G/V that has not been registered``; ``group_version`` as the binary writes it."""

    group_version: str

    @property
    def shown(self) -> str:
        """The group/version as the message echoes it (cut)."""
        return cut(self.group_version)

    @property
    def message(self) -> str:
        return f"group version {self.shown} that has not been registered"


@dataclass(frozen=True, slots=True)
class UnknownApiGroups(Problem):
    """``unknown api groups ...``: sorted unique group/versions (1.36+) or bare groups (before)."""

    names: tuple[str, ...]

    @property
    def message(self) -> str:
        return f"unknown api groups {cut(','.join(self.names), 200)}"


@dataclass(frozen=True, slots=True)
class OnlyApiAllFalse(Problem):
    """``--runtime-config=api/all=false`` and nothing else."""

    key: str

    @property
    def message(self) -> str:
        return f"invalid runtime-config with only {self.key}=false"


@dataclass(frozen=True, slots=True)
class RuntimeConfigInvalidKey(Problem):
    """A key with other than two or three path segments."""

    key: str

    @property
    def message(self) -> str:
        return f"runtime-config invalid key {cut(self.key)}"


@dataclass(frozen=True, slots=True)
class RuntimeConfigInvalidLevel(Problem):
    """``api/all``, ``api/ga``, ``api/beta`` or ``api/alpha`` with a value other than true/false."""

    key: str
    value: str

    @property
    def message(self) -> str:
        return f"invalid value {self.key}={cut(self.value)}"


@dataclass(frozen=True, slots=True)
class RuntimeConfigInvalidBool(Problem):
    """A group/version item whose value is no Go boolean."""

    key: str
    value: str

    @property
    def message(self) -> str:
        return (
            f"invalid value of {cut(self.key)}: {cut(self.value)}, err: strconv.ParseBool: parsing {quote_cut(self.value)}: "
            "invalid syntax"
        )


@dataclass(frozen=True, slots=True)
class RuntimeConfigResourceNotLowercase(Problem):
    """A group/version/resource item whose resource is not lowercase."""

    key: str
    resource: str

    @property
    def message(self) -> str:
        return f"invalid key {cut(self.key)}: group/version/resource and resource is always lowercase plural, not {quote_cut(self.resource)}"


@dataclass(frozen=True, slots=True)
class AlphaApiWhileEmulating(Problem):
    """1.34+ ``ApplyTo``: an explicitly enabled alpha API while emulating an older release."""

    verdict = Verdict.WARNS
    group_version: str
    emulated: Version
    #: the binary as ``version.Version.String()`` prints it (always x.y.z)
    binary: str

    @property
    def message(self) -> str:
        return (
            f"alpha api enabled with emulated version {self.emulated} instead of the binary's version {self.binary}, "
            f"this is unsupported, proceed at your own risk: api={self.group_version}"
        )


# ---------------------------------------------------------------------------------------------
# Remedies.

#: At most this many remedies beside one answer (one per problem): a flood of unknown names
#: costs 20 searches, not thousands.
MAX_REMEDIES = 20


class RemedyKind(StrEnum):
    """What a remedy explains (the ``kind`` of a hint in the JSON documents, docs/cli.md)."""

    UNKNOWN_GATE = "unknown-gate"
    REMOVED_GATE = "removed-gate"
    LATER_GATE = "later-gate"
    NOT_INTRODUCED = "not-introduced"
    LOCKED = "locked"
    DEPENDENCY = "dependency"
    VERSION_RANGE = "version-range"
    RUNTIME_CONFIG = "runtime-config"


@dataclass(frozen=True, slots=True)
class Remedy:
    """What to change so that the binary accepts its input (or stops warning), beside the problem
    it explains: computed from the data by :mod:`kcompat.core.remedies`, never canned."""

    kind: RemedyKind
    problem: Problem
    text: str
    #: the names suggested for an unknown gate; the disabled dependencies; the release or
    #: min compatibility a gate needs; the flag (version-range) or group/version (runtime-config)
    names: tuple[str, ...] = ()

    @property
    def error(self) -> str:
        """The binary's line the remedy explains."""
        return self.problem.message

    @property
    def gate(self) -> str | None:
        return self.problem.gate

    @property
    def line(self) -> str:
        """The remedy as one line of text (the gate named first when the text does not)."""
        return f"{self.gate}: {self.text}" if self.kind is RemedyKind.UNKNOWN_GATE else self.text
