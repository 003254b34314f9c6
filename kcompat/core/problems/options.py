"""kube-apiserver: the checks of its options beyond the version, gate and ``--runtime-config`` rules."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import echo, quote_cut
from .base import Problem, bool_word


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
        return f"when using --cloud-provider set to '{echo(self.value)}', please set {self.name} feature to {bool_word(self.wanted)}"


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
