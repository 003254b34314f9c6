"""What a binary says about its flags, as typed values: one frozen problem per kind.

A problem holds the values the binary's check found (the gate, the flag value, the range) and
renders the binary's own line from them (:attr:`Problem.message`), byte for byte as the binary
prints it (``tests/oracle`` compares them with the real binaries' lines). Nothing parses a
message again: callers branch on the problem's type, and the remedy beside it
(:class:`Remedy`, computed by :mod:`kcompat.core.remedies`) holds the problem itself, so
rewording a message can never lose its remedy.

Each kind has a :class:`Verdict`, what the binary does about it: it refuses to start
(:attr:`Verdict.REFUSES`, the errors), or starts and logs it (:attr:`Verdict.WARNS`, the
warnings), or starts but never becomes ready (:attr:`Verdict.NOT_READY`: :class:`GatesNotReady`,
:class:`ApiOffNotReady`, from the recorded starts of the real binary). The evaluations (``VersionSelection``,
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

from .errors import cut, echo, quote_cut
from .stages import Stage
from .versions import Version, mm


class Verdict(Enum):
    """What the binary does about a problem."""

    #: it exits at start-up with the message (an error)
    REFUSES = "refuses to start"
    #: it starts and logs the message (a warning)
    WARNS = "starts and warns"
    #: it starts but never becomes ready (it exits on a post-start hook, or /readyz keeps failing)
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

    @property
    def not_ready(self) -> bool:
        return self.verdict is Verdict.NOT_READY

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


@dataclass(frozen=True, slots=True)
class PatchNotRecorded(Problem):
    """A binary named with a patch (or pre-release) the data has no recording of: the nearest
    recorded patch answers for it (``answered_as``), and kcompat says so beside the binary's lines."""

    verdict = Verdict.WARNS
    #: the patch asked for, as shown ("1.36.7", "1.38.0-rc.1")
    asked: str
    #: the recorded patches of its release, oldest first
    recorded: tuple[str, ...]
    #: the recorded patch whose data answers ("1.36.5")
    answered_as: str
    #: the recorded ones are pre-releases of a development release
    pre_release: bool = False

    @property
    def message(self) -> str:
        return (f"{self.asked} is not a recorded {'release' if self.pre_release else 'patch release'} "
                f"(recorded: {', '.join(self.recorded)}); answered as {self.answered_as}, the nearest recorded patch")


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
class OtherComponentRefuses(Problem):
    """A refusal of another control-plane component given the same flags (``kcompat config`` for
    every component): its own line, named ``kube-scheduler: ...``."""

    component: str
    problem: Problem

    @property
    def message(self) -> str:
        return f"{self.component}: {self.problem.message}"

    @property
    def gate(self) -> str | None:
        return self.problem.gate


@dataclass(frozen=True, slots=True)
class FlagSyntaxRefused(Problem):
    """A word of a command line the binary's flag parser (spf13/pflag) refuses before any other
    check: ``unknown shorthand flag: 'e' in -emulated-version=1.34``, ``flag needs an argument``
    (the text is :func:`kcompat.core.inspect.messages.pflag_error`'s, from pflag's ``errors.go``)."""

    word: str
    text: str

    @property
    def message(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class UnknownFlag(Problem):
    """pflag's ``unknown flag: --NAME``: the binary's release has no such flag. ``release`` and
    ``since`` (the release that adds it) or ``last`` (the last release that has it) say so beside
    pflag's words when given."""

    flag: str
    release: Version | None = None
    since: Version | None = None
    last: Version | None = None

    @property
    def message(self) -> str:
        text = f"unknown flag: --{self.flag}"
        if self.release is not None and self.since is not None:
            text += f" (a {self.release} binary has no such flag; it exists from {self.since})"
        elif self.release is not None and self.last is not None:
            text += f" (a {self.release} binary has no such flag; the last release with it is {self.last})"
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
        return f"unrecognized feature gate: {echo(self.name)}"


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
        return f"unknown api groups {echo(','.join(self.names), 200)}"


@dataclass(frozen=True, slots=True)
class OnlyApiAllFalse(Problem):
    """``--runtime-config=api/all=false`` and nothing else (apiserver
    ``APIEnablementOptions.Validate``): "invalid key with only ..." up to 1.35, "invalid
    runtime-config with only ..." from 1.36 (``noun``)."""

    key: str
    noun: str = "runtime-config"

    @property
    def message(self) -> str:
        return f"invalid {self.noun} with only {self.key}=false"


@dataclass(frozen=True, slots=True)
class RuntimeConfigInvalidKey(Problem):
    """A key with other than two or three path segments."""

    key: str

    @property
    def message(self) -> str:
        return f"runtime-config invalid key {echo(self.key)}"


@dataclass(frozen=True, slots=True)
class RuntimeConfigInvalidLevel(Problem):
    """``api/all``, ``api/ga``, ``api/beta`` or ``api/alpha`` with a value other than true/false."""

    key: str
    value: str

    @property
    def message(self) -> str:
        return f"invalid value {self.key}={echo(self.value)}"


@dataclass(frozen=True, slots=True)
class RuntimeConfigInvalidBool(Problem):
    """A group/version item whose value is no Go boolean."""

    key: str
    value: str

    @property
    def message(self) -> str:
        return (
            f"invalid value of {echo(self.key)}: {echo(self.value)}, err: strconv.ParseBool: parsing {quote_cut(self.value)}: "
            "invalid syntax"
        )


@dataclass(frozen=True, slots=True)
class RuntimeConfigResourceNotLowercase(Problem):
    """A group/version/resource item whose resource is not lowercase."""

    key: str
    resource: str

    @property
    def message(self) -> str:
        return f"invalid key {echo(self.key)}: group/version/resource and resource is always lowercase plural, not {quote_cut(self.resource)}"


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
# kube-apiserver: the checks of its options beyond the version, gate and --runtime-config rules
# (the ``Validate`` functions of its option structs, and what ``Complete``, ``ApplyTo`` and the
# servers' ``New`` refuse). :mod:`kcompat.core.startup` runs them in the binary's order; each
# kind cites the Go function that prints it and the releases that have it.


@dataclass(frozen=True, slots=True)
class PriorityAndFairnessConflict(Problem):
    """``--runtime-config=K=false conflicts with --enable-priority-and-fairness=true``
    (``validateAPIPriorityAndFairness``, pkg/controlplane/apiserver/options/validation.go, 1.31+):
    ``key`` is the first of flowcontrol.apiserver.k8s.io/v1, api/ga, api/all whose ``=false`` the
    flag's text holds."""

    key: str

    @property
    def message(self) -> str:
        return f"--runtime-config={self.key}=false conflicts with --enable-priority-and-fairness=true"


@dataclass(frozen=True, slots=True)
class FeatureRequiresFeature(Problem):
    """A gate that needs another gate on, checked by kube-apiserver's options outside the gates'
    dependency map (which holds such pairs from 1.35). ``wording`` is the check's:

    * "requires": ``G feature requires R feature to be enabled`` (controlplane options
      ``validateNodeSelectorAuthorizationFeature`` 1.31-1.34, ``validateDRAControlPlaneControllerFeature``
      1.31, ``validatePodCertificateRequestFeature`` 1.34);
    * "flag": ``G feature requires R feature flag to be enabled``
      (``validateUnknownVersionInteroperabilityProxyFeature`` 1.31-1.32);
    * "gate": ``the "G" feature gate can only be enabled if the "R" feature gate is also enabled``
      (pkg/kubeapiserver/options ``BuiltInAuthenticationOptions.Validate`` 1.31-1.34)."""

    name: str
    required: str
    wording: str = "requires"

    @property
    def gate(self) -> str:
        return self.name

    @property
    def message(self) -> str:
        if self.wording == "gate":
            return f'the "{self.name}" feature gate can only be enabled if the "{self.required}" feature gate is also enabled'
        noun = "feature flag" if self.wording == "flag" else "feature"
        return f"{self.name} feature requires {self.required} {noun} to be enabled"


@dataclass(frozen=True, slots=True)
class FlagRequiresFeature(Problem):
    """A kube-apiserver flag that needs a gate on; ``wording`` is the check's:

    * "turned-on": ``--F requires G feature to be turned on`` (--peer-ca-file, --peer-advertise-ip,
      --peer-advertise-port; ``validateUnknownVersionInteroperabilityProxyFlags`` 1.31+);
    * "setting": ``setting `--F` requires enabling G feature gate`` (--service-account-signing-endpoint;
      ``validateServiceAccountTokenSigningConfig`` 1.32+);
    * "set": ``set --feature-gates=G=true to use F file`` (--authentication-config;
      ``BuiltInAuthenticationOptions.validateOIDCOptions`` 1.31-1.36);
    * "without": ``--F cannot be used without enabling G feature flag`` (--authorization-config;
      ``BuiltInAuthorizationOptions.Validate`` 1.31-1.35);
    * "quoted": ``--F requires the "G" feature to be enabled`` (--requestheader-uid-headers;
      apiserver ``RequestHeaderAuthenticationOptions.Validate`` 1.32+)."""

    flag: str
    name: str
    wording: str

    @property
    def gate(self) -> str:
        return self.name

    @property
    def message(self) -> str:
        flag, gate = self.flag, self.name
        if self.wording == "setting":
            return f"setting `--{flag}` requires enabling {gate} feature gate"
        if self.wording == "set":
            return f"set --feature-gates={gate}=true to use {flag} file"
        if self.wording == "without":
            return f"--{flag} cannot be used without enabling {gate} feature flag"
        if self.wording == "quoted":
            return f'--{flag} requires the "{gate}" feature to be enabled'
        return f"--{flag} requires {gate} feature to be turned on"


@dataclass(frozen=True, slots=True)
class UidHeadersProblem(Problem):
    """apiserver ``RequestHeaderAuthenticationOptions.Validate`` (1.32+) once RemoteRequestHeaderUID
    is on: an empty --requestheader-uid-headers item (``empty``: ``empty value in
    "requestheader-uid-headers"``), or a list without the standard X-Remote-Uid."""

    empty: bool

    @property
    def message(self) -> str:
        if self.empty:
            return 'empty value in "requestheader-uid-headers"'
        return "--requestheader-uid-headers is set without specifying the standard X-Remote-Uid header - API aggregation will not work"


@dataclass(frozen=True, slots=True)
class CloudProviderNeedsFeature(Problem):
    """``when using --cloud-provider set to 'V', please set G feature to true|false``
    (pkg/kubeapiserver/options ``CloudProviderOptions.Validate``, 1.31-1.32)."""

    value: str
    name: str
    wanted: bool

    @property
    def gate(self) -> str:
        return self.name

    @property
    def message(self) -> str:
        return f"when using --cloud-provider set to '{echo(self.value)}', please set {self.name} feature to {_word(self.wanted)}"


@dataclass(frozen=True, slots=True)
class SigningEndpointWithKeyFiles(Problem):
    """``validateServiceAccountTokenSigningConfig`` (1.32+): the endpoint with a key file."""

    @property
    def message(self) -> str:
        return (
            "can't set `--service-account-signing-key-file` and/or `--service-account-key-file` with "
            "`--service-account-signing-endpoint` (They are mutually exclusive)"
        )


@dataclass(frozen=True, slots=True)
class SigningEndpointInvalid(Problem):
    """``validateServiceAccountTokenSigningConfig``: an endpoint that is no socket. 1.32-1.33 want a
    file system path or ``@name`` (``path``); 1.34+ check only an ``@`` name."""

    value: str
    path: bool

    @property
    def message(self) -> str:
        rule = (
            "should be a valid location on the filesystem or must be prefixed with @ to name UDS in abstract namespace"
            if self.path
            else "when prefixed with @ must be a valid abstract socket name"
        )
        return f"invalid value {quote_cut(self.value)} passed for `--service-account-signing-endpoint`, {rule}"


@dataclass(frozen=True, slots=True)
class SigningKeyAndEndpoint(Problem):
    """``completeServiceAccountOptions`` (``Complete``, before ``Validate``; 1.32+): both a signing
    key file and a signing endpoint with an issuer."""

    @property
    def message(self) -> str:
        return "service-account-signing-key-file and service-account-signing-endpoint are mutually exclusive and cannot be set at the same time"


@dataclass(frozen=True, slots=True)
class ServiceClusterIPRangeTooLarge(Problem):
    """``specified --service-cluster-ip-range is too large; for B-bit addresses, the mask must be >=
    M`` (cmd/kube-apiserver/app/options ``validateClusterIPFlags``, ``validateMaxCIDRRange``;
    1.31-1.37, unless MultiCIDRServiceAllocator and DisableAllocatorDualWrite are both on).
    ``label`` is ``--service-cluster-ip-range`` or ``--service-cluster-ip-range[1]``."""

    label: str
    bits: int
    minimum: int

    @property
    def message(self) -> str:
        return f"specified {self.label} is too large; for {self.bits}-bit addresses, the mask must be >= {self.minimum}"


@dataclass(frozen=True, slots=True)
class ApiGroupVersionMustBeEnabled(Problem):
    """``API group/version G/V must be enabled``: kube-aggregator ``New`` (1.31+) when
    apiregistration.k8s.io/v1 apiservices is off after --runtime-config."""

    group_version: str

    @property
    def message(self) -> str:
        return f"API group/version {self.group_version} must be enabled"


@dataclass(frozen=True, slots=True)
class CoreSecretsOffPanic(Problem):
    """kube-apiserver panics while it builds the core storage (pkg/registry/core/rest
    ``legacyProvider.NewRESTStorage``, 1.31+: the service-account storage reads
    ``storage["secrets"].(rest.Getter)``, nil when --runtime-config turns off core v1 secrets):
    Go's ``panic:`` line, exit status 2, no ``command failed`` line."""

    @property
    def message(self) -> str:
        return "panic: interface conversion: interface is nil, not rest.Getter"


#: The kinds of :mod:`kcompat.core.startup` that refuse (their remedies: kcompat.core.remedies.startup).
OPTION_KINDS = (
    PriorityAndFairnessConflict, FeatureRequiresFeature, FlagRequiresFeature, UidHeadersProblem, CloudProviderNeedsFeature,
    SigningEndpointWithKeyFiles, SigningEndpointInvalid, SigningKeyAndEndpoint, ServiceClusterIPRangeTooLarge,
    ApiGroupVersionMustBeEnabled, CoreSecretsOffPanic,
)


# ---------------------------------------------------------------------------------------------
# Readiness: kube-apiserver starts, then exits or never reports ready (kcompat.core.readiness).
# The binary prints no one line for these: the message is kcompat's, with what the recorded start
# of the real binary did (its fatal line, or the /readyz checks that kept failing).


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def _start(recorded: str, ended: str, seconds: int, line: str, failing: tuple[str, ...], waits: tuple[str, ...]) -> str:
    """How the recorded start ended: exited after N s with its fatal line, or never ready with its
    failing checks; and what its informers kept failing to list."""
    if ended == "exited":
        text = f"{recorded} exited after about {seconds} s" + (f": {line}" if line else "")
    else:
        text = f"{recorded}'s /readyz never reported ok in {seconds} s" + (f" (failing: {', '.join(failing)})" if failing else "")
    if waits:
        text += "; it kept failing to list " + ", ".join(f"*{w}" for w in waits)
    return text


@dataclass(frozen=True, slots=True)
class GatesNotReady(Problem):
    """Gates on at an emulated version where the real binary starts but never gets ready: without
    the group/versions ``missing`` (``kinds`` their kinds), or with no --runtime-config that fixes
    it (``missing`` empty; ``fixed_by_all_apis``: --runtime-config=api/all=true does, no smaller
    set was found). How the recorded start of ``recorded`` ended: ``ended`` ("exited" after
    ``seconds`` with its fatal ``line``, or "not-ready" with the ``failing`` /readyz checks)."""

    verdict = Verdict.NOT_READY
    gates: tuple[str, ...]
    emulated: Version
    missing: tuple[str, ...]
    kinds: tuple[str, ...]
    recorded: str
    ended: str
    seconds: int
    line: str = ""
    failing: tuple[str, ...] = ()
    waits_for: tuple[str, ...] = ()
    fixed_by_all_apis: bool = False
    #: a recorded start of these gates alone: which --runtime-config fixes it was not searched for
    unsearched: bool = False

    @property
    def gate(self) -> str:
        return self.gates[0]

    @property
    def message(self) -> str:
        on = f"{_names(self.gates)} on at emulated version {self.emulated}"
        if self.missing:
            kinds = f" ({', '.join(self.kinds)})" if self.kinds else ""
            why = f"{on} needs {_names(self.missing)}{kinds}, which is not served"
        elif self.fixed_by_all_apis:
            why = f"{on} needs APIs that are off (with --runtime-config=api/all=true it gets ready)"
        elif self.unsearched:
            why = f"{on} (no --runtime-config that fixes it was searched for)"
        else:
            why = f"{on}, whatever --runtime-config enables"
        started = _start(self.recorded, self.ended, self.seconds, self.line, self.failing, self.waits_for)
        return f"kube-apiserver starts but does not become ready: {why} ({started})"


@dataclass(frozen=True, slots=True)
class ReadinessNotSearched(Problem):
    """Gates of ``stage`` turned on at an emulated version where the recorded starts of
    ``recorded`` could not narrow that stage's gates down (``--feature-gates=AllAlpha=true``, or
    AllBeta, is refused there): whether they keep kube-apiserver from getting ready is not known.
    kcompat's note beside the binary's lines (shown with the warnings), not a line of the binary."""

    verdict = Verdict.WARNS
    gates: tuple[str, ...]
    emulated: Version
    stage: str
    recorded: str

    @property
    def gate(self) -> str:
        return self.gates[0]

    @property
    def message(self) -> str:
        meta = "AllAlpha" if self.stage == "Alpha" else "AllBeta"
        shown = self.gates if len(self.gates) <= 4 else (*self.gates[:3], f"{len(self.gates) - 3} other {self.stage} gates")
        return (f"whether kube-apiserver becomes ready with {_names(shown)} on at emulated version {self.emulated} is not known: "
                f"the recorded starts of {self.recorded} could not search its {self.stage} gates there "
                f"(--feature-gates={meta}=true is refused at {self.emulated})")


@dataclass(frozen=True, slots=True)
class ApiOffNotReady(Problem):
    """A group/version (or one ``resource`` of it) that a default start serves and the real binary
    cannot get ready without, turned off by --runtime-config; the recorded start as in
    :class:`GatesNotReady`."""

    verdict = Verdict.NOT_READY
    group_version: str
    resource: str | None
    recorded: str
    ended: str
    seconds: int
    line: str = ""
    failing: tuple[str, ...] = ()
    waits_for: tuple[str, ...] = ()

    @property
    def api(self) -> str:
        return f"{self.group_version}/{self.resource}" if self.resource else self.group_version

    @property
    def message(self) -> str:
        started = _start(self.recorded, self.ended, self.seconds, self.line, self.failing, self.waits_for)
        return f"kube-apiserver starts but does not become ready: --runtime-config turns off {self.api}, which it needs ({started})"


#: The kinds whose verdict is Verdict.NOT_READY.
NOT_READY_KINDS = (GatesNotReady, ApiOffNotReady)


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
    OPTION = "option"
    READINESS = "readiness"
    FLAG_SYNTAX = "flag-syntax"


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
