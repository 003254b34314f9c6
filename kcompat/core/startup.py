"""Will kube-apiserver start with these flags? Its start-up checks beyond the version, gate and
``--runtime-config`` rules, per release, as its own code runs them.

kube-apiserver's command (cmd/kube-apiserver/app/server.go ``NewAPIServerCommand``) parses its
flags, then runs three phases and exits at the first that fails, printing that phase's errors
(``Validate`` aggregates all of its own, ``utilerrors.NewAggregate``: one alone, several in
brackets). :func:`startup_problems` puts every problem kcompat finds in that order:

1. **Flag parsing** (pflag, the component registry's ``Set``): a flag the release does not have,
   a value that cannot be read, the ``--feature-gates`` refusals (:mod:`.gates`).
2. **Complete** (cmd/kube-apiserver/app/options/completion.go, pkg/controlplane/apiserver/options
   ``Options.Complete``): the service-account signing flags (:class:`SigningKeyAndEndpoint`).
3. **Validate** (cmd/kube-apiserver/app/options ``CompletedOptions.Validate``, which runs
   pkg/controlplane/apiserver/options ``Options.Validate`` first), in this order:
   ``ServerRunOptions.Validate`` (the version ranges, the forward-compatibility flags),
   ``validateAPIPriorityAndFairness``, ``BuiltInAuthenticationOptions.Validate``,
   ``BuiltInAuthorizationOptions.Validate``, ``APIEnablementOptions.Validate`` (the lone
   ``api/all=false``, bad keys, unknown groups), the feature-feature and flag-feature checks,
   then ``CloudProviderOptions.Validate`` (1.31-1.32), ``validateClusterIPFlags`` and, on 1.31,
   ``ValidateKubeEffectiveVersion`` (the emulation version must be the binary's).
4. **Construction** (``CreateServerChain``), where each step stops at its first error:
   ``MergeAPIResourceConfigs`` of ``--runtime-config`` (``BuildGenericConfig``), the core storage
   (a Go panic without core v1 secrets, :class:`~kcompat.core.problems.CoreSecretsOffPanic`),
   the APIs introduced after the emulated version (``RemoveUnavailableKinds``), kube-aggregator's
   ``API group/version apiregistration.k8s.io/v1 must be enabled``.

Only the checks that depend on the compatibility selection (the gates at the emulated version,
``--runtime-config``) and the flags they read are ported (:data:`OPTION_FLAGS`); the other checks
of these functions (ports, files, certificates) are not kcompat's question. Sources: the
kube-apiserver option code of each bundled release (k8s.io/kubernetes v1.31.14, v1.32.13,
v1.33.13, v1.34.12, v1.35.8, v1.36.5, v1.37.2, v1.38.0-beta.0 and their k8s.io/apiserver);
the release range of each check is named beside it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .errors import KcompatError, cut
from .flags import parse_go_bool
from .record import Record, set_field

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

    from .compat import VersionSelection
    from .problems import Problem
    from .readiness import ServedApis
    from .runtime_config import RuntimeConfig

    GateOn = Callable[[str], bool]


# ---------------------------------------------------------------------------------------------
# The flags the checks read.


class OptionFlag(Record):
    """A kube-apiserver flag a start-up check reads: its name, how pflag reads it ("bool",
    "string", "array": repeatable, each value whole; "slice": repeatable, comma-separated),
    and the releases that have it (minor numbers of 1.x)."""

    __slots__ = ("help", "kind", "last", "name", "since")
    name: str
    kind: str
    help: str
    since: int
    last: int | None

    def __init__(self, name: str, kind: str, help: str, since: int = 31, last: int | None = None) -> None:
        set_field(self, "name", name)
        set_field(self, "kind", kind)
        set_field(self, "help", help)
        set_field(self, "since", since)
        set_field(self, "last", last)

    @property
    def field(self) -> str:
        return self.name.replace("-", "_")

    def exists_in(self, minor: int) -> bool:
        return self.since <= minor and (self.last is None or minor <= self.last)


#: Every flag of kube-apiserver that a ported check reads, besides the version flags,
#: --feature-gates, --runtime-config and the forward-compatibility flags.
OPTION_FLAGS: tuple[OptionFlag, ...] = (
    OptionFlag("enable-priority-and-fairness", "bool",
               "API Priority and Fairness (default true); with it on, --runtime-config may not turn off flowcontrol.apiserver.k8s.io/v1"),
    OptionFlag("peer-ca-file", "string", "needs UnknownVersionInteroperabilityProxy on"),
    OptionFlag("peer-advertise-ip", "string", "needs UnknownVersionInteroperabilityProxy on"),
    OptionFlag("peer-advertise-port", "string", "needs UnknownVersionInteroperabilityProxy on"),
    OptionFlag("service-account-issuer", "array", "read with the signing flags (repeatable)"),
    OptionFlag("service-account-key-file", "array", "read with --service-account-signing-endpoint (repeatable)"),
    OptionFlag("service-account-signing-key-file", "string", "read with --service-account-signing-endpoint"),
    OptionFlag("service-account-signing-endpoint", "string", "needs ExternalServiceAccountTokenSigner on (1.32+)", since=32),
    OptionFlag("authentication-config", "string", "needs StructuredAuthenticationConfiguration on (checked up to 1.36)"),
    OptionFlag("authorization-config", "string", "needs StructuredAuthorizationConfiguration on (checked up to 1.35)"),
    OptionFlag("requestheader-uid-headers", "slice", "needs RemoteRequestHeaderUID on (1.32+)", since=32),
    OptionFlag("tracing-config-file", "string", "ignored while APIServerTracing is off"),
    OptionFlag("cloud-provider", "string", "external needs DisableCloudProviders and DisableKubeletCloudCredentialProviders on (1.31-1.32)",
               last=32),
    OptionFlag("service-cluster-ip-range", "string",
               "larger than /12 (IPv4) or /108 (IPv6) needs MultiCIDRServiceAllocator and DisableAllocatorDualWrite on (up to 1.37)"),
)
OPTION_FLAG_NAMES = frozenset(f.name for f in OPTION_FLAGS)
BOOL_OPTION_FLAGS = frozenset(f.name for f in OPTION_FLAGS if f.kind == "bool")
_BY_NAME = {f.name: f for f in OPTION_FLAGS}


class ApiserverOptions(Record):
    """The values of :data:`OPTION_FLAGS` as kube-apiserver reads them (its defaults when not
    given); ``given`` names the flags that were given."""

    __slots__ = ("authentication_config", "authorization_config", "cloud_provider", "enable_priority_and_fairness", "given", "peer_advertise_ip", "peer_advertise_port", "peer_ca_file", "requestheader_uid_headers", "service_account_issuer", "service_account_key_file", "service_account_signing_endpoint", "service_account_signing_key_file", "service_cluster_ip_range", "tracing_config_file")
    _uncompared = ("given",)
    enable_priority_and_fairness: bool
    peer_ca_file: str
    peer_advertise_ip: str
    peer_advertise_port: str
    service_account_issuer: tuple[str, ...]
    service_account_key_file: tuple[str, ...]
    service_account_signing_key_file: str
    service_account_signing_endpoint: str
    authentication_config: str
    authorization_config: str
    requestheader_uid_headers: tuple[str, ...]
    tracing_config_file: str
    cloud_provider: str
    service_cluster_ip_range: str
    given: frozenset[str]

    def __init__(
        self, enable_priority_and_fairness: bool = True, peer_ca_file: str = "", peer_advertise_ip: str = "",
        peer_advertise_port: str = "", service_account_issuer: tuple[str, ...] = (), service_account_key_file: tuple[str, ...] = (),
        service_account_signing_key_file: str = "", service_account_signing_endpoint: str = "", authentication_config: str = "",
        authorization_config: str = "", requestheader_uid_headers: tuple[str, ...] = (), tracing_config_file: str = "",
        cloud_provider: str = "", service_cluster_ip_range: str = "", given: frozenset[str] = frozenset(),
    ) -> None:
        for name, value in (
            ("enable_priority_and_fairness", enable_priority_and_fairness), ("peer_ca_file", peer_ca_file),
            ("peer_advertise_ip", peer_advertise_ip), ("peer_advertise_port", peer_advertise_port),
            ("service_account_issuer", service_account_issuer), ("service_account_key_file", service_account_key_file),
            ("service_account_signing_key_file", service_account_signing_key_file),
            ("service_account_signing_endpoint", service_account_signing_endpoint),
            ("authentication_config", authentication_config), ("authorization_config", authorization_config),
            ("requestheader_uid_headers", requestheader_uid_headers), ("tracing_config_file", tracing_config_file),
            ("cloud_provider", cloud_provider), ("service_cluster_ip_range", service_cluster_ip_range), ("given", given),
        ):
            set_field(self, name, value)

    @property
    def flags(self) -> tuple[tuple[str, str], ...]:
        """The given flags as ``(name, value)`` pairs, as they would be written again."""
        out: list[tuple[str, str]] = []
        for flag in OPTION_FLAGS:
            if flag.name not in self.given:
                continue
            value = getattr(self, flag.field)
            if flag.kind == "bool":
                out.append((flag.name, "true" if value else "false"))
            elif flag.kind == "array":
                out.extend((flag.name, v) for v in value)
            elif flag.kind == "slice":
                out.append((flag.name, ",".join(value)))
            else:
                out.append((flag.name, value))
        return tuple(out)


DEFAULT_OPTIONS = ApiserverOptions()


def _slice(value: str) -> list[str]:
    """pflag's ``StringSlice``: one CSV record ("" is no item)."""
    if value == "":
        return []
    import csv

    try:
        return next(csv.reader([value]))
    except (csv.Error, StopIteration):
        raise KcompatError(f'invalid argument "{cut(value)}": cannot read it as comma-separated values') from None


def read_options(pairs: Iterable[tuple[str, str]]) -> ApiserverOptions:
    """The options of ``(flag, value)`` pairs as pflag sets them (the last value of a plain flag
    wins, repeatable ones accumulate). A boolean that is no Go boolean is refused with pflag's
    words (:class:`KcompatError`)."""
    values: dict[str, object] = {}
    given: set[str] = set()
    for name, value in pairs:
        flag = _BY_NAME.get(name)
        if flag is None:
            raise KcompatError(f"--{cut(name)} is not a flag kcompat reads")
        given.add(name)
        if flag.kind == "bool":
            parsed = parse_go_bool(value)
            if parsed is None:
                raise KcompatError(
                    f'invalid argument "{cut(value)}" for "--{name}" flag: strconv.ParseBool: parsing "{cut(value)}": invalid syntax'
                )
            values[flag.field] = parsed
        elif flag.kind == "array":
            values[flag.field] = (*values.get(flag.field, ()), value)  # type: ignore[misc]
        elif flag.kind == "slice":
            values[flag.field] = (*values.get(flag.field, ()), *_slice(value))  # type: ignore[misc]
        else:
            values[flag.field] = value
    if not given:
        return DEFAULT_OPTIONS
    return DEFAULT_OPTIONS.replace(given=frozenset(given), **values)


def _kinds() -> ModuleType:
    """The problem kinds, imported when a check finds one (an accepted selection needs none)."""
    from . import problems

    return problems


# ---------------------------------------------------------------------------------------------
# The checks, phase by phase. ``minor`` is the binary's release (1.minor); ``gate_on`` the gates
# after --feature-gates at the emulated version (the checks read ``DefaultFeatureGate.Enabled``).


def unknown_flags(minor: int, options: ApiserverOptions) -> list[Problem]:
    """pflag's ``unknown flag`` for a flag this release does not have."""
    out: list[Problem] = []
    for name in sorted(options.given):
        flag = _BY_NAME[name]
        if not flag.exists_in(minor):
            from .problems import UnknownFlag
            from .versions import major_minor

            if minor < flag.since:
                out.append(UnknownFlag(name, major_minor(1, minor), since=major_minor(1, flag.since)))
            else:
                out.append(UnknownFlag(name, major_minor(1, minor), last=major_minor(1, flag.last or minor)))
    return out


def complete_problems(minor: int, options: ApiserverOptions) -> list[Problem]:
    """``completeServiceAccountOptions`` (pkg/controlplane/apiserver/options/options.go, 1.32+):
    with an issuer, a signing key file and a signing endpoint exclude each other."""
    issuers = options.service_account_issuer
    if (minor >= 32 and issuers and issuers[0] != "" and options.service_account_signing_endpoint
            and options.service_account_signing_key_file):
        from .problems import SigningKeyAndEndpoint

        return [SigningKeyAndEndpoint()]
    return []


#: validateAPIPriorityAndFairness's keys, "in the order of precedence"
_APF_KEYS = ("flowcontrol.apiserver.k8s.io/v1", "api/ga", "api/all")


def priority_and_fairness(runtime_config: RuntimeConfig, options: ApiserverOptions) -> list[Problem]:
    """``validateAPIPriorityAndFairness`` (pkg/controlplane/apiserver/options/validation.go,
    1.31-1.38): with --enable-priority-and-fairness on, the first of flowcontrol v1, api/ga,
    api/all whose ``=false`` the flag's text holds (``ConfigurationMap.String``: ``key=value``
    pairs sorted and joined by commas, after ``Complete``'s legacy rewrite; a substring test, as
    in Go) refuses, unless its ``=true`` comes first."""
    if not options.enable_priority_and_fairness or not runtime_config:
        return []
    text = ",".join(sorted(f"{k}={v}" for k, v in runtime_config.items))
    for key in _APF_KEYS:
        if f"{key}=false" in text:
            from .problems import PriorityAndFairnessConflict

            return [PriorityAndFairnessConflict(key)]
        if f"{key}=true" in text:
            return []
    return []


def authentication(minor: int, gate_on: GateOn, options: ApiserverOptions) -> list[Problem]:
    """pkg/kubeapiserver/options ``BuiltInAuthenticationOptions.Validate``: --authentication-config
    needs StructuredAuthenticationConfiguration (``validateOIDCOptions``, 1.31-1.36);
    ServiceAccountTokenNodeBinding needs ServiceAccountTokenNodeBindingValidation (1.31-1.34);
    then apiserver ``RequestHeaderAuthenticationOptions.Validate``'s --requestheader-uid-headers
    (RemoteRequestHeaderUID, 1.32+)."""
    out: list[Problem] = []
    if minor <= 36 and options.authentication_config and not gate_on("StructuredAuthenticationConfiguration"):
        out.append(_kinds().FlagRequiresFeature("authentication-config", "StructuredAuthenticationConfiguration", "set"))
    if minor <= 34 and gate_on("ServiceAccountTokenNodeBinding") and not gate_on("ServiceAccountTokenNodeBindingValidation"):
        out.append(_kinds().FeatureRequiresFeature("ServiceAccountTokenNodeBinding", "ServiceAccountTokenNodeBindingValidation", "gate"))
    headers = options.requestheader_uid_headers
    if minor >= 32 and headers:
        if not gate_on("RemoteRequestHeaderUID"):
            out.append(_kinds().FlagRequiresFeature("requestheader-uid-headers", "RemoteRequestHeaderUID", "quoted"))
        else:
            from .flags import go_trim_space

            if any(go_trim_space(h) == "" for h in headers):
                out.append(_kinds().UidHeadersProblem(empty=True))
            if not any(h.casefold() == "x-remote-uid" for h in headers):
                out.append(_kinds().UidHeadersProblem(empty=False))
    return out


def authorization(minor: int, gate_on: GateOn, options: ApiserverOptions) -> list[Problem]:
    """pkg/kubeapiserver/options ``BuiltInAuthorizationOptions.Validate`` (1.31-1.35):
    --authorization-config needs StructuredAuthorizationConfiguration (then the file is read,
    which kcompat does not)."""
    if minor <= 35 and options.authorization_config and not gate_on("StructuredAuthorizationConfiguration"):
        from .problems import FlagRequiresFeature

        return [FlagRequiresFeature("authorization-config", "StructuredAuthorizationConfiguration", "without")]
    return []


#: ``pathOrSocket`` (1.32-1.33) and ``abstractSocketRegex`` (1.34+) of validation.go, anchored
#: (compiled when a signing endpoint is given: ``re`` keeps them)
_PATH_OR_SOCKET = r"(/[^/ ]*)+/?|@([a-zA-Z0-9_-]+\.)*[a-zA-Z0-9_-]+"
_ABSTRACT_SOCKET = r"@([a-zA-Z0-9_-]+\.)*[a-zA-Z0-9_-]+"


def after_api_enablement(minor: int, gate_on: GateOn, options: ApiserverOptions) -> list[Problem]:
    """The checks ``Options.Validate`` runs after ``APIEnablementOptions.Validate``
    (pkg/controlplane/apiserver/options/validation.go), in its order:
    ``validateUnknownVersionInteroperabilityProxyFeature`` (1.31-1.32),
    ``validateUnknownVersionInteroperabilityProxyFlags`` (1.31+),
    ``validateNodeSelectorAuthorizationFeature`` (1.31-1.34), ``validateDRAControlPlaneControllerFeature``
    (1.31), ``validatePodCertificateRequestFeature`` (1.34), ``validateServiceAccountTokenSigningConfig``
    (1.32+, :func:`signing_endpoint`). From 1.35 the feature-feature pairs are the gates' dependencies (:mod:`.gates`)."""
    out: list[Problem] = []
    if minor <= 32 and gate_on("UnknownVersionInteroperabilityProxy") and not gate_on("StorageVersionAPI"):
        out.append(_kinds().FeatureRequiresFeature("UnknownVersionInteroperabilityProxy", "StorageVersionAPI", "flag"))
    if not gate_on("UnknownVersionInteroperabilityProxy"):
        for flag, value in (("peer-ca-file", options.peer_ca_file), ("peer-advertise-ip", options.peer_advertise_ip),
                            ("peer-advertise-port", options.peer_advertise_port)):
            if value:
                out.append(_kinds().FlagRequiresFeature(flag, "UnknownVersionInteroperabilityProxy", "turned-on"))
    if minor <= 34 and gate_on("AuthorizeNodeWithSelectors") and not gate_on("AuthorizeWithSelectors"):
        out.append(_kinds().FeatureRequiresFeature("AuthorizeNodeWithSelectors", "AuthorizeWithSelectors"))
    if minor == 31 and gate_on("DRAControlPlaneController") and not gate_on("DynamicResourceAllocation"):
        out.append(_kinds().FeatureRequiresFeature("DRAControlPlaneController", "DynamicResourceAllocation"))
    if minor == 34 and gate_on("PodCertificateRequest") and not gate_on("AuthorizeNodeWithSelectors"):
        out.append(_kinds().FeatureRequiresFeature("PodCertificateRequest", "AuthorizeNodeWithSelectors"))
    return out + signing_endpoint(minor, gate_on, options)


def signing_endpoint(minor: int, gate_on: GateOn, options: ApiserverOptions) -> list[Problem]:
    """``validateServiceAccountTokenSigningConfig`` (pkg/controlplane/apiserver/options/validation.go,
    1.32+): --service-account-signing-endpoint without a key file, with ExternalServiceAccountTokenSigner
    on, and a socket name (1.32-1.33: a file path or ``@name``; 1.34+: an ``@name`` is checked)."""
    endpoint = options.service_account_signing_endpoint
    out: list[Problem] = []
    if minor < 32 or not endpoint:
        return out
    if options.service_account_signing_key_file or options.service_account_key_file:
        out.append(_kinds().SigningEndpointWithKeyFiles())
    if not gate_on("ExternalServiceAccountTokenSigner"):
        out.append(_kinds().FlagRequiresFeature("service-account-signing-endpoint", "ExternalServiceAccountTokenSigner", "setting"))
    if minor <= 33 and not re.fullmatch(_PATH_OR_SOCKET, endpoint, re.S):
        out.append(_kinds().SigningEndpointInvalid(endpoint, path=True))
    elif minor >= 34 and endpoint.startswith("@") and not re.fullmatch(_ABSTRACT_SOCKET, endpoint, re.S):
        out.append(_kinds().SigningEndpointInvalid(endpoint, path=False))
    return out


def command_checks(minor: int, gate_on: GateOn, options: ApiserverOptions, notes: list[Problem]) -> list[Problem]:
    """cmd/kube-apiserver/app/options ``CompletedOptions.Validate`` after ``Options.Validate``:
    ``CloudProviderOptions.Validate`` (pkg/kubeapiserver/options/cloudprovider.go, 1.31-1.32) and
    ``validateClusterIPFlags``' size of each range (1.31-1.37: at most 20 host bits unless
    MultiCIDRServiceAllocator and DisableAllocatorDualWrite are both on). A range kcompat cannot
    read is left to the binary (a note says so)."""
    out: list[Problem] = []
    provider = options.cloud_provider
    if minor <= 32 and provider:
        if provider == "external":
            for gate in ("DisableCloudProviders", "DisableKubeletCloudCredentialProviders"):
                if not gate_on(gate):
                    out.append(_kinds().CloudProviderNeedsFeature(provider, gate, True))
        elif provider in ("aws", "azure", "gce", "vsphere"):  # cloudprovider.IsDeprecatedInternal
            for gate in ("DisableCloudProviders", "DisableKubeletCloudCredentialProviders"):
                if gate_on(gate):
                    out.append(_kinds().CloudProviderNeedsFeature(provider, gate, False))
        else:
            notes.append(_kinds().Note(f"--cloud-provider={cut(provider)}: not a provider kube-apiserver knows; it refuses it (unknown --cloud-provider), which kcompat does not check"))
    ranges = options.service_cluster_ip_range
    if minor <= 37 and ranges and not (gate_on("MultiCIDRServiceAllocator") and gate_on("DisableAllocatorDualWrite")):
        import ipaddress

        for index, text in enumerate(ranges.split(",")[:2]):
            try:
                network = ipaddress.ip_network(text, strict=False)
            except ValueError:
                notes.append(_kinds().Note(f"--service-cluster-ip-range item {cut(text)!r} is not read by kcompat: its size is not checked"))
                break
            bits = network.max_prefixlen
            if bits - network.prefixlen > 20:
                label = "--service-cluster-ip-range" if index == 0 else "--service-cluster-ip-range[1]"
                out.append(_kinds().ServiceClusterIPRangeTooLarge(label, bits, bits - 20))
    return out


def option_notes(minor: int, gate_on: GateOn, options: ApiserverOptions) -> list[Problem]:
    """What kcompat says beside the checks: a tracing file that is ignored (``BuildGenericConfig``
    applies --tracing-config-file only while APIServerTracing is on, 1.31-1.36; from 1.37 always),
    a signing endpoint ``Complete`` dials before any check."""
    out: list[Problem] = []
    if minor <= 36 and options.tracing_config_file and not gate_on("APIServerTracing"):
        from .problems import Note

        out.append(Note("--tracing-config-file is ignored: kube-apiserver reads it only while APIServerTracing is on"))
    if minor >= 32 and options.service_account_signing_endpoint and options.service_account_issuer:
        from .problems import Note

        out.append(Note("--service-account-signing-endpoint: kube-apiserver asks the signer for its metadata before its checks "
                        "(it exits if the signer does not answer within 10 s); kcompat assumes it answers"))
    return out


#: The groups kube-apiserver's delegates serve (kube-aggregator, apiextensions-apiserver): their
#: default resource configs enable v1 and v1beta1 (``DefaultAPIResourceConfigSource`` of each),
#: and each builds storage for one resource of v1 only.
DELEGATED_STORAGE = (("apiregistration.k8s.io", "apiservices"), ("apiextensions.k8s.io", "customresourcedefinitions"))


def _delegated_enabled(runtime_config: RuntimeConfig | None, group: str, resource: str) -> bool:
    """Whether ``group``/v1 ``resource`` is enabled in its delegate's own resource config
    (``MergeAPIResourceConfigs`` of --runtime-config over v1 and v1beta1 on)."""
    if not runtime_config:
        return True
    from types import MappingProxyType

    from .runtime_config import (
        ApiRegistry,
        Origin,
        ResourceConfig,
        Setting,
        merge_runtime_config,
    )

    base = ResourceConfig()
    base.set_versions([(group, "v1"), (group, "v1beta1")], Setting(True, Origin.DEFAULT_STABLE))
    merged, _, _ = merge_runtime_config(base, runtime_config, ApiRegistry(MappingProxyType({group: ("v1", "v1beta1")})))
    setting = merged.resource_setting((group, "v1", resource))
    return setting is not None and setting.enabled


def delegated_served(runtime_config: RuntimeConfig | None) -> list[tuple[str, str]]:
    """The (group/version, resource) pairs the delegates serve with this --runtime-config."""
    return [(f"{group}/v1", resource) for group, resource in DELEGATED_STORAGE if _delegated_enabled(runtime_config, group, resource)]


def aggregator_problems(runtime_config: RuntimeConfig) -> list[Problem]:
    """kube-aggregator ``New`` (kube-aggregator pkg/apiserver/apiserver.go, 1.31+): its storage
    exists only for apiregistration.k8s.io/v1 apiservices enabled in its own resource config;
    without it, ``API group/version apiregistration.k8s.io/v1 must be enabled``."""
    if _delegated_enabled(runtime_config, "apiregistration.k8s.io", "apiservices"):
        return []
    from .problems import ApiGroupVersionMustBeEnabled

    return [ApiGroupVersionMustBeEnabled("apiregistration.k8s.io/v1")]


# ---------------------------------------------------------------------------------------------
# All of them, in the binary's order.

#: The kinds of the API evaluation by phase (their class names: kcompat.core.apis finds them).
_VALIDATE_API_KINDS = frozenset({"ForwardCompatSameVersion", "OnlyApiAllFalse", "RuntimeConfigInvalidKey", "UnknownApiGroups"})
_PARSE_API_KINDS = frozenset({"UnknownFlag", "FlagValueRejected"})
_INTRODUCED_KINDS = frozenset({"ApiVersionIntroducedLater", "ApiResourceIntroducedLater"})


def startup_problems(
    selection: VersionSelection,
    gate_problems: Iterable[Problem],
    flags_applied: bool,
    gate_on: GateOn,
    api_problems: Iterable[Problem] | None,
    runtime_config: RuntimeConfig | None,
    options: ApiserverOptions = DEFAULT_OPTIONS,
    served: ServedApis | None = None,
) -> tuple[Problem, ...]:
    """Every problem of a kube-apiserver start-up, refusals of the phase it stops at first (see
    the module docstring), then every warning and note of the gates, the APIs and the options.

    ``gate_problems`` and ``flags_applied`` come from the gate evaluation (its version-range
    problems are the selection's), ``api_problems`` from the API evaluation of the same flags
    (None when it was not run: no API data, or no --runtime-config to check) and ``served`` what
    that evaluation serves (None: the defaults, which serve core v1)."""
    minor = selection.rules.release.minor if selection.rules.release is not None else 99
    gate_list = list(gate_problems)
    api_list = list(api_problems or ())
    range_problems = list(selection.problems)
    warnings = [p for p in gate_list + api_list if not p.refuses]
    notes = option_notes(minor, gate_on, options)

    def done(refusals: list[Problem]) -> tuple[Problem, ...]:
        found = refusals + warnings + notes
        if not found:
            return ()
        from .problems import unique

        return (*unique(refusals), *unique(warnings + notes))

    # 1. flag parsing (a version flag the binary cannot read is the selection's only problem)
    parsing = unknown_flags(minor, options) + [p for p in api_list if p.refuses and type(p).__name__ in _PARSE_API_KINDS]
    if selection.flags_rejected:
        parsing += range_problems
    if parsing:
        return done(parsing)
    if not flags_applied:
        return done([p for p in gate_list if p.refuses])
    # 2. Complete
    completing = complete_problems(minor, options)
    if completing:
        return done(completing)
    # 3. Validate
    rc = runtime_config
    alpha_1_31 = [p for p in range_problems if type(p).__name__ == "EmulationMustEqualBinary"]
    validating: list[Problem] = [p for p in range_problems if p not in alpha_1_31]
    validating += [p for p in gate_list if p.refuses and p not in range_problems]
    validating += [p for p in api_list if p.refuses and type(p).__name__ == "ForwardCompatSameVersion"]
    if rc is not None:
        validating += priority_and_fairness(rc, options)
    validating += authentication(minor, gate_on, options)
    validating += authorization(minor, gate_on, options)
    validating += [p for p in api_list if p.refuses and type(p).__name__ in _VALIDATE_API_KINDS - {"ForwardCompatSameVersion"}]
    validating += after_api_enablement(minor, gate_on, options)
    validating += command_checks(minor, gate_on, options, notes)
    validating += alpha_1_31
    if validating:
        return done(validating)
    # 4. construction: each step returns at its first error, in this order
    constructing = [p for p in api_list if p.refuses and type(p).__name__ not in _VALIDATE_API_KINDS | _PARSE_API_KINDS]
    merging = [p for p in constructing if type(p).__name__ not in _INTRODUCED_KINDS]
    if merging:  # BuildGenericConfig: APIEnablementOptions.ApplyTo (MergeAPIResourceConfigs)
        return done(merging)
    if served is not None and not served.serves("v1", "secrets"):  # kube-apiserver New: the core storage
        from .problems import CoreSecretsOffPanic

        return done([CoreSecretsOffPanic()])
    if constructing:  # kube-apiserver New: RemoveUnavailableKinds of each group
        return done(constructing)
    return done(aggregator_problems(rc) if rc is not None else [])
