"""kube-apiserver's start-up checks beyond the gate and API rules (kcompat/core/startup.py), per
release as its own code runs them, on the bundled data: each check's message, its release range,
the order the binary prints them in, and the remedy beside each. The recorded starts of the real
binaries check the same messages byte for byte (tests/oracle/test_startup.py)."""

from __future__ import annotations

import pytest

from kcompat.answers.gates import gate_evaluation
from kcompat.answers.startup import apiserver_startup
from kcompat.core.errors import KcompatError
from kcompat.core.problems import (
    ApiGroupVersionMustBeEnabled,
    CoreSecretsOffPanic,
    PriorityAndFairnessConflict,
    RemedyKind,
)
from kcompat.core.request import Request
from kcompat.core.runtime_config import parse_runtime_config
from kcompat.core.startup import OPTION_FLAGS, priority_and_fairness, read_options

APF = "--runtime-config={}=false conflicts with --enable-priority-and-fairness=true"


def start(catalog, binary, emulated=None, feature_gates=None, runtime_config=None, **flags):
    options = read_options([(name.replace("_", "-"), value) for name, value in flags.items()])
    evaluation = gate_evaluation(catalog, Request(binary, emulated, None, feature_gates))
    return apiserver_startup(catalog, evaluation, Request(binary, emulated=emulated, feature_gates=feature_gates, runtime_config=runtime_config, options=options))


@pytest.mark.parametrize(
    "runtime_config, key",
    [
        ("api/all=false,api/v1=true", "api/all"),
        ("api/ga=false", "api/ga"),
        ("flowcontrol.apiserver.k8s.io/v1=false", "flowcontrol.apiserver.k8s.io/v1"),
        # flowcontrol v1 comes first: its =true ends the check before api/all's =false
        ("api/all=false,flowcontrol.apiserver.k8s.io/v1=true,api/v1=true", None),
        # api/ga before api/all
        ("api/all=false,api/ga=true", None),
        ("api/ga=false,api/all=true", "api/ga"),
        # a legacy key is rewritten to /v1 first; api/legacy dropped (Complete)
        ("api/legacy=false,apps/v1=true", None),
        ("networking.k8s.io/v1=false", None),
    ],
)
def test_priority_and_fairness_reads_the_flag_text_in_its_order(runtime_config, key):
    """validateAPIPriorityAndFairness: flowcontrol v1, api/ga, api/all in that order, on the sorted
    key=value text of the flag after Complete."""
    found = priority_and_fairness(parse_runtime_config(runtime_config), read_options([]))
    assert found == ([PriorityAndFairnessConflict(key)] if key else [])
    assert priority_and_fairness(parse_runtime_config(runtime_config), read_options([("enable-priority-and-fairness", "false")])) == []


@pytest.mark.parametrize("binary", ["1.31", "1.34", "1.35", "1.37", "1.38"])
def test_a_lone_api_all_false_gets_both_errors_in_one_aggregate(catalog, binary):
    """As v1.34.12 printed it: "[--runtime-config=api/all=false conflicts with ..., invalid key with
    only api/all=false]" (the lone key "invalid runtime-config with only" from 1.36)."""
    answer = start(catalog, binary, runtime_config="api/all=false")
    noun = "runtime-config" if binary in ("1.37", "1.38") else "key"
    assert answer.errors == (APF.format("api/all"), f"invalid {noun} with only api/all=false")
    assert answer.verdict == "refuses"


def test_the_priority_and_fairness_remedy_names_both_ways_out(catalog):
    answer = start(catalog, "1.37", runtime_config="api/all=false,api/v1=true")
    assert answer.errors == (APF.format("api/all"),)
    (hint,) = answer.hints
    assert hint.kind is RemedyKind.OPTION and hint.names == ("flowcontrol.apiserver.k8s.io/v1", "--enable-priority-and-fairness")
    assert "add flowcontrol.apiserver.k8s.io/v1=true to --runtime-config" in hint.text
    assert "--enable-priority-and-fairness=false" in hint.text


def test_kube_aggregator_needs_apiservices(catalog):
    """With APF off the options pass; kube-aggregator's New refuses without apiregistration v1."""
    answer = start(catalog, "1.37", runtime_config="api/all=false,api/v1=true", enable_priority_and_fairness="false")
    assert [type(p) for p in answer.problems if p.refuses] == [ApiGroupVersionMustBeEnabled]
    assert answer.errors == ("API group/version apiregistration.k8s.io/v1 must be enabled",)
    assert "add apiregistration.k8s.io/v1=true to --runtime-config" in answer.hints[0].text
    minimal = "api/all=false,api/v1=true,apiregistration.k8s.io/v1=true"
    assert start(catalog, "1.37", runtime_config=minimal, enable_priority_and_fairness="false").errors == ()
    # the resource alone, or its version turned off by name
    for rc in ("apiregistration.k8s.io/v1/apiservices=false", "apiregistration.k8s.io/v1=false"):
        answer = start(catalog, "1.34", runtime_config=rc)
        assert answer.errors == ("API group/version apiregistration.k8s.io/v1 must be enabled",), rc
        assert answer.hints[0].text.startswith("kube-aggregator cannot run without apiregistration.k8s.io/v1 apiservices: drop")


@pytest.mark.parametrize("runtime_config", ["api/ga=false", "v1=false", "api/v1=false", "/v1/secrets=false"])
def test_core_v1_secrets_off_is_the_binarys_panic(catalog, runtime_config):
    """legacyProvider.NewRESTStorage reads storage["secrets"].(rest.Getter): nil without core v1
    secrets, a Go panic (recorded on v1.34.12 with api/ga=false and APF off)."""
    answer = start(catalog, "1.34", runtime_config=runtime_config, enable_priority_and_fairness="false")
    assert [type(p) for p in answer.problems if p.refuses] == [CoreSecretsOffPanic]
    assert answer.errors == ("panic: interface conversion: interface is nil, not rest.Getter",)


@pytest.mark.parametrize(
    "binary, emulated, feature_gates, message",
    [
        ("1.34", "1.33", "AuthorizeNodeWithSelectors=true,AuthorizeWithSelectors=false",
         "AuthorizeNodeWithSelectors feature requires AuthorizeWithSelectors feature to be enabled"),
        ("1.33", "1.31", "AuthorizeNodeWithSelectors=true,AuthorizeWithSelectors=false",
         "AuthorizeNodeWithSelectors feature requires AuthorizeWithSelectors feature to be enabled"),
        ("1.31", None, "AuthorizeNodeWithSelectors=true,AuthorizeWithSelectors=false",
         "AuthorizeNodeWithSelectors feature requires AuthorizeWithSelectors feature to be enabled"),
        ("1.32", "1.31", "UnknownVersionInteroperabilityProxy=true,StorageVersionAPI=false",
         "UnknownVersionInteroperabilityProxy feature requires StorageVersionAPI feature flag to be enabled"),
        ("1.31", None, "DRAControlPlaneController=true,DynamicResourceAllocation=false",
         "DRAControlPlaneController feature requires DynamicResourceAllocation feature to be enabled"),
        ("1.34", "1.31", "ServiceAccountTokenNodeBinding=true,ServiceAccountTokenNodeBindingValidation=false",
         'the "ServiceAccountTokenNodeBinding" feature gate can only be enabled if the "ServiceAccountTokenNodeBindingValidation" feature gate is also enabled'),
    ],
)
def test_feature_feature_requirements_outside_the_dependency_map(catalog, binary, emulated, feature_gates, message):
    answer = start(catalog, binary, emulated, feature_gates)
    assert answer.errors == (message,)
    (hint,) = answer.hints
    assert hint.kind is RemedyKind.OPTION and "from --feature-gates" in hint.text


def test_the_feature_feature_checks_belong_to_their_releases(catalog):
    # UnknownVersionInteroperabilityProxy without StorageVersionAPI: checked by 1.31-1.32 only
    assert start(catalog, "1.33", "1.31", "UnknownVersionInteroperabilityProxy=true,StorageVersionAPI=false").errors == ()
    # AuthorizeNodeWithSelectors: from 1.35 a gate dependency (the dependency map's own line), no option check
    errors = start(catalog, "1.35", None, "AuthorizeNodeWithSelectors=true,AuthorizeWithSelectors=false").errors
    assert "AuthorizeNodeWithSelectors feature requires AuthorizeWithSelectors feature to be enabled" not in errors


def test_a_check_whose_gates_cannot_disagree_never_fires(catalog):
    """1.34's validatePodCertificateRequestFeature: PodCertificateRequest exists from 1.34, where
    AuthorizeNodeWithSelectors is locked on, so the gates refuse first."""
    assert start(catalog, "1.34", None, "PodCertificateRequest=true,AuthorizeNodeWithSelectors=false").errors == (
        "cannot set feature gate AuthorizeNodeWithSelectors to false, feature is locked to true",
    )


@pytest.mark.parametrize("flag", ["peer-ca-file", "peer-advertise-ip", "peer-advertise-port"])
def test_peer_flags_need_the_proxy_gate(catalog, flag):
    value = {"peer-ca-file": "/etc/ca.crt", "peer-advertise-ip": "10.0.0.1", "peer-advertise-port": "6443"}[flag]
    message = f"--{flag} requires UnknownVersionInteroperabilityProxy feature to be turned on"
    answer = start(catalog, "1.35", **{flag.replace("-", "_"): value})
    assert answer.errors == (message,)
    assert answer.hints[0].text == f"--{flag} needs UnknownVersionInteroperabilityProxy on: add UnknownVersionInteroperabilityProxy=true to --feature-gates, or drop --{flag}"
    # on by default in 1.36 (Beta): no refusal; on by flag elsewhere
    assert start(catalog, "1.36", **{flag.replace("-", "_"): value}).errors == ()
    assert start(catalog, "1.35", None, "UnknownVersionInteroperabilityProxy=true", **{flag.replace("-", "_"): value}).errors == ()


def test_the_signing_endpoint(catalog):
    endpoint = "@external.signer"
    # 1.31 has no such flag
    assert start(catalog, "1.31", service_account_signing_endpoint=endpoint).errors == (
        "unknown flag: --service-account-signing-endpoint (a 1.31 binary has no such flag; it exists from 1.32)",
    )
    # 1.32 emulating 1.31: the gate is not introduced yet, so the flag cannot be used
    answer = start(catalog, "1.32", "1.31", service_account_signing_endpoint=endpoint)
    assert answer.errors == ("setting `--service-account-signing-endpoint` requires enabling ExternalServiceAccountTokenSigner feature gate",)
    assert "not yet introduced at emulated version 1.31: drop --service-account-signing-endpoint" in answer.hints[0].text
    # with a key file as well, and a value that is no socket (1.32-1.33: a path or an @name)
    answer = start(catalog, "1.33", "1.32", "ExternalServiceAccountTokenSigner=true", service_account_signing_endpoint="signer.sock",
                   service_account_key_file="/k.pub")
    assert answer.errors == (
        "can't set `--service-account-signing-key-file` and/or `--service-account-key-file` with `--service-account-signing-endpoint` (They are mutually exclusive)",
        'invalid value "signer.sock" passed for `--service-account-signing-endpoint`, should be a valid location on the filesystem '
        "or must be prefixed with @ to name UDS in abstract namespace",
    )
    # 1.34+: only an @name is checked
    assert start(catalog, "1.34", service_account_signing_endpoint="signer.sock").errors == ()
    assert start(catalog, "1.34", service_account_signing_endpoint="@bad/name").errors == (
        'invalid value "@bad/name" passed for `--service-account-signing-endpoint`, when prefixed with @ must be a valid abstract socket name',
    )
    # Complete, before Validate: a key and an endpoint together, with an issuer
    assert start(catalog, "1.34", service_account_signing_endpoint=endpoint, service_account_signing_key_file="/k",
                 service_account_issuer="https://kubernetes.default.svc").errors == (
        "service-account-signing-key-file and service-account-signing-endpoint are mutually exclusive and cannot be set at the same time",
    )


def test_config_files_that_need_their_gates(catalog):
    answer = start(catalog, "1.34", "1.31", "StructuredAuthenticationConfiguration=false,StructuredAuthorizationConfiguration=false",
                   authentication_config="/a.yaml", authorization_config="/z.yaml")
    assert answer.errors == (
        "set --feature-gates=StructuredAuthenticationConfiguration=true to use authentication-config file",
        "--authorization-config cannot be used without enabling StructuredAuthorizationConfiguration feature flag",
    )
    assert start(catalog, "1.34", authentication_config="/a.yaml", authorization_config="/z.yaml").errors == ()


def test_uid_headers(catalog):
    assert start(catalog, "1.34", "1.31", requestheader_uid_headers="X-Remote-Uid").errors == (
        '--requestheader-uid-headers requires the "RemoteRequestHeaderUID" feature to be enabled',
    )
    assert start(catalog, "1.34", requestheader_uid_headers="X-Remote-Uid").errors == ()
    assert start(catalog, "1.34", requestheader_uid_headers="X-Custom,").errors == (
        'empty value in "requestheader-uid-headers"',
        "--requestheader-uid-headers is set without specifying the standard X-Remote-Uid header - API aggregation will not work",
    )


def test_cloud_provider_and_its_release_range(catalog):
    assert start(catalog, "1.32", "1.31", "DisableCloudProviders=false", cloud_provider="external").errors == (
        "cannot set feature gate DisableCloudProviders to false, feature is locked to true",  # the gates refuse first
    )
    assert start(catalog, "1.31", cloud_provider="gce").errors == (
        "when using --cloud-provider set to 'gce', please set DisableCloudProviders feature to false",
        "when using --cloud-provider set to 'gce', please set DisableKubeletCloudCredentialProviders feature to false",
    )
    assert start(catalog, "1.33", cloud_provider="external").errors == (
        "unknown flag: --cloud-provider (a 1.33 binary has no such flag; the last release with it is 1.32)",
    )


def test_the_service_cluster_ip_range_size_depends_on_two_gates(catalog):
    too_large = "specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12"
    assert start(catalog, "1.34", "1.31", service_cluster_ip_range="10.0.0.0/8").errors == (too_large,)
    assert start(catalog, "1.34", "1.31", service_cluster_ip_range="10.0.0.0/12").errors == ()
    assert start(catalog, "1.34", service_cluster_ip_range="10.0.0.0/8").errors == ()  # both on by default at 1.34
    assert start(catalog, "1.34", "1.31", service_cluster_ip_range="10.96.0.0/12,fd00::/64").errors == (
        "specified --service-cluster-ip-range[1] is too large; for 128-bit addresses, the mask must be >= 108",
    )
    assert start(catalog, "1.37", "1.34", "DisableAllocatorDualWrite=false", service_cluster_ip_range="10.0.0.0/8").errors == (too_large,)
    assert start(catalog, "1.38", "1.35", service_cluster_ip_range="10.0.0.0/8").errors == ()  # no such check in 1.38


def test_the_1_31_alpha_rule_comes_last_in_its_aggregate(catalog):
    """cmd/kube-apiserver 1.31 ValidateKubeEffectiveVersion runs after every other check."""
    answer = start(catalog, "1.31", "1.30", runtime_config="api/ga=false")
    assert answer.errors[-1].startswith("emulation version needs to be equal to binary version(1.31)")
    assert APF.format("api/ga") in answer.errors


def test_a_bad_boolean_is_pflags_refusal():
    with pytest.raises(KcompatError, match=r'invalid argument "maybe" for "--enable-priority-and-fairness" flag: strconv\.ParseBool'):
        read_options([("enable-priority-and-fairness", "maybe")])
    assert read_options([("enable-priority-and-fairness", "F")]).enable_priority_and_fairness is False


def test_every_option_flag_reads_back_as_given():
    pairs = [(f.name, "true" if f.kind == "bool" else "a,b" if f.kind == "slice" else "x") for f in OPTION_FLAGS]
    options = read_options(pairs)
    assert sorted(options.flags) == sorted(pairs)
    assert options.given == {f.name for f in OPTION_FLAGS}


def test_an_accepted_selection_has_no_problem(catalog):
    answer = start(catalog, "1.37", "1.35")
    assert answer.problems == () and answer.verdict == "starts" and answer.hints == ()
