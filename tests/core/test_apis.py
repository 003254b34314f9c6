"""SPEC §6: built-in API availability under emulation, on the bundled k8s.io/api data."""

import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kcompat.answers.queries import api_gate_states
from kcompat.core.api_versions import compare_kube_aware_versions, versions_by_priority
from kcompat.core.apis import (
    Reason,
    compare_with_binary,
    evaluate_api_availability,
    should_serve_removed,
)
from kcompat.core.apis_data import parse_api_release, parse_api_resources
from kcompat.core.errors import KcompatError
from kcompat.core.runtime_config import parse_runtime_config
from kcompat.core.storage import storage_versions
from kcompat.core.versions import parse_version
from kcompat.data.apis import api_files
from kcompat.data.catalog import DEFAULT_CATALOG

BUNDLED = api_files()

NET = "networking.k8s.io"
FLOW = "flowcontrol.apiserver.k8s.io"


def apis(binary, emulated=None, runtime_config=None, efc=False, rcefc=False, data_dir=None, **kw):
    if data_dir is None:  # the bundled gates decide the feature-gated REST storage, as every answer does
        kw.setdefault("gate_states", api_gate_states(DEFAULT_CATALOG))
    return evaluate_api_availability(binary, emulated, runtime_config, efc, rcefc, api_data=api_files(data_dir), **kw)


def served(result, group, version, kind):
    entry = result.entry(group, version, kind)
    assert entry is not None, f"{group}/{version} {kind} not in the data"
    return entry.served


def reason(result, group, version, kind):
    return result.entry(group, version, kind).reason


# ---------------------------------------------------------------------------------------------
# Data.


def test_every_release_has_api_data_and_list_kinds_are_not_resources():
    assert [str(v) for v in BUNDLED.api_releases()] == ["1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37", "1.38"]
    api = BUNDLED.api_release("1.33")
    kinds = {k.kind for k in api.kinds()}
    assert "Pod" in kinds and "PodList" not in kinds and "ServiceCIDRList" not in kinds


def test_result_lists_every_rest_resource_of_the_binary_release():
    result = apis("1.33")
    assert {e.key for e in result.entries} == {(k.group, k.version, k.kind) for k in BUNDLED.api_release("1.33").kinds() if k.is_rest_resource}


@pytest.mark.parametrize(
    "group, kind, resource",
    [("", "Pod", "pods"), ("networking.k8s.io", "Ingress", "ingresses"), ("networking.k8s.io", "NetworkPolicy", "networkpolicies"),
     ("", "Endpoints", "endpoints"), ("networking.k8s.io", "ServiceCIDR", "servicecidrs"), ("", "ComponentStatus", "componentstatuses"),
     ("storage.k8s.io", "VolumeAttributesClass", "volumeattributesclasses"), ("scheduling.k8s.io", "PriorityClass", "priorityclasses"),
     ("storagemigration.k8s.io", "StorageVersionMigration", "storageversionmigrations")],
)
@pytest.mark.parametrize("release", ["1.31", "1.33", "1.36"])
def test_resource_names_are_the_client_go_plurals_of_the_release(release, group, kind, resource):
    entries = [e for e in apis(release).entries if (e.group, e.kind) == (group, kind)]
    assert entries and {e.resource for e in entries} == {resource}


def test_subresources_are_the_release_clients_own():
    result = apis("1.33")
    assert set(result.entry("", "v1", "Pod").subresources) >= {"status", "eviction", "binding", "log", "ephemeralcontainers", "resize"}
    assert result.entry("apps", "v1", "Deployment").subresources == ("scale", "status")
    assert result.entry("", "v1", "ServiceAccount").subresources == ("token",)
    assert result.entry("", "v1", "Endpoints").subresources == ()
    # pods/resize: v1.31.14 has none; v1.32.13 installs it only while InPlacePodVerticalScaling (Alpha, off) is on
    assert "resize" not in apis("1.31").entry("", "v1", "Pod").subresources
    assert "resize" not in apis("1.32").entry("", "v1", "Pod").subresources
    resizing = apis("1.32", gate_states=api_gate_states(DEFAULT_CATALOG, "InPlacePodVerticalScaling=true"))
    assert "resize" in resizing.entry("", "v1", "Pod").subresources


@pytest.mark.parametrize("release", ["1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37"])
def test_no_non_resource_kind_is_listed(release):
    # lifecycle.k8s.io/v1alpha1 Eviction (1.37, resource evictions) is a resource of its own; core's Eviction is a pods/eviction body
    kinds = {e.kind for e in apis(release).entries if e.group != "lifecycle.k8s.io"}
    non_resources = {"List", "PodStatusResult", "RangeAllocation", "SerializedReference", "Scale", "Eviction", "TokenRequest",
                     "DeploymentRollback", "PodLogOptions", "PodExecOptions", "NodeProxyOptions", "AdmissionReview", "ImageReview"}
    assert not kinds & non_resources
    assert not any(k.endswith("Options") or k.endswith("List") for k in kinds)


def test_flowcontrol_v1beta3_at_1_33_emulating_1_31_is_served_by_release_1_31():
    result = apis("1.33", "1.31")
    for kind in ("FlowSchema", "PriorityLevelConfiguration"):
        entry = result.entry("flowcontrol.apiserver.k8s.io", "v1beta3", kind)
        assert not entry.served and entry.served_by_release is True and entry.differs_from_release
    assert apis("1.31").entry("flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema").served
    assert {e.kind for e in result.differences_from_release()} == {"FlowSchema", "PriorityLevelConfiguration"}


def test_served_by_release_follows_the_same_runtime_config():
    result = apis("1.33", "1.31", "flowcontrol.apiserver.k8s.io/v1beta3=false")
    entry = result.entry("flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema")
    assert entry.served_by_release is False and not entry.differs_from_release
    own = apis("1.33")
    assert all(e.served_by_release is e.served for e in own.entries)


def test_served_by_release_is_null_without_data_for_the_emulated_release(kep_data):
    result = apis("1.33", "1.31", data_dir=kep_data)
    assert all(e.served_by_release is None for e in result.entries)
    assert any("no bundled API data for Kubernetes 1.31" in w for w in result.warnings)


def test_each_release_1_31_to_1_38_has_its_own_default_lists():
    entries = {str(e.release): e.source_id for e in BUNDLED.default_enablements()}
    assert list(entries) == ["1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37", "1.38"]
    assert entries["1.37"] == "oracle-v1.37.2"  # printed by the release's running code
    choice = BUNDLED.default_enablement_for("1.33")
    assert choice.exact and choice.enablement.source_id == entries["1.33"]


def test_1_37_serves_storagemigration_v1_and_the_chained_apiservers_resources():
    """1.37's default lists come from the real v1.37.2 code: storagemigration.k8s.io/v1 is GA and
    on; CRDs (apiextensions-apiserver) and APIServices (kube-aggregator) are listed and served."""
    choice = BUNDLED.default_enablement_for("1.37")
    assert choice.exact and str(choice.enablement.release) == "1.37"
    result = apis("1.37")
    assert result.valid and not any("no default API enablement list" in w for w in result.warnings)
    served = {(e.group_version, e.resource) for e in result.served()}
    assert ("storagemigration.k8s.io/v1", "storageversionmigrations") in served
    assert ("apiextensions.k8s.io/v1", "customresourcedefinitions") in served
    assert ("apiregistration.k8s.io/v1", "apiservices") in served
    assert ("v1", "bindings") in served
    # without gate states the gated storage is not checked, and the answer says so
    assert any("feature-gated REST storage not checked" in w for w in apis("1.37", gate_states=None).warnings)


def test_malformed_api_data_names_the_file_and_entry():
    doc = {"release": "1.33", "groupVersions": [{"group": "apps", "version": "v1", "stage": "stable", "kinds": []}]}
    with pytest.raises(KcompatError, match=r"x\.yaml: groupVersions\[0\] \(apps/v1\): stage must be one of"):
        parse_api_release(doc, "x.yaml")
    with pytest.raises(KcompatError, match=r"introduced: must be a 'major\.minor' string"):
        parse_api_release(
            {"release": "1.33", "groupVersions": [{"group": "", "version": "v1", "stage": "GA", "kinds": [{"kind": "Pod", "introduced": "x"}]}]},
            "y.yaml",
        )


def test_subresource_gates_beside_a_subresource_list_that_is_no_list_are_a_clear_error():
    """Checked before the gates are looked up in it: a number there was a TypeError."""
    resource = {"kind": "A", "resource": "as", "subresources": 5, "subresourceGates": {"status": "G"}}
    doc = {"release": "1.33", "groupVersions": [{"group": "x", "version": "v1", "resources": [resource]}]}
    with pytest.raises(KcompatError, match=r"r\.yaml: groupVersions\[0\] \(x/v1\) resources\[0\] \(A\): subresources must be a list"):
        parse_api_resources(doc, "r.yaml")


def test_binary_without_bundled_data_is_an_input_error():
    with pytest.raises(KcompatError, match=r"no bundled API data for Kubernetes 1\.39"):
        apis("1.39")
    with pytest.raises(KcompatError, match="predates compatibility versions"):
        apis("1.30")


# ---------------------------------------------------------------------------------------------
# Version priority (§6.6).


def test_kube_aware_priority_order():
    names = ["v1beta1", "foo", "v2alpha1", "v2beta2", "v1", "bar", "v2", "v2beta1", "v10", "v1alpha2", "v11alpha1"]
    assert versions_by_priority(names) == ["v10", "v2", "v1", "v2beta2", "v2beta1", "v1beta1", "v11alpha1", "v2alpha1", "v1alpha2", "bar", "foo"]


@pytest.mark.parametrize("a, b", [("v2", "v1"), ("v1", "v2beta2"), ("v2beta2", "v2beta1"), ("v2beta1", "v1beta1"), ("v1beta1", "v2alpha1"),
                                  ("v1alpha1", "foo"), ("bar", "foo"), ("v1", "v1beta")])
def test_compare_kube_aware_versions_is_antisymmetric(a, b):
    assert compare_kube_aware_versions(a, b) > 0 and compare_kube_aware_versions(b, a) < 0
    assert compare_kube_aware_versions(a, a) == 0


# ---------------------------------------------------------------------------------------------
# --runtime-config syntax (§6.3).


def test_runtime_config_is_trimmed_last_wins_and_bare_keys_are_empty():
    rc = parse_runtime_config([" apps/v1 = false ,, batch/v1", "apps/v1=true"])
    assert rc.items == (("apps/v1", "true"), ("batch/v1", ""))


@pytest.mark.parametrize("key", ["v1", "api/v1", "v1/pods", "api/v1/pods"])
def test_legacy_core_spellings_become_slash_v1(key):
    rc = parse_runtime_config(f"{key}=false")
    assert rc.items == (("/v1", "false"),)
    result = apis("1.33", "1.31", f"{key}=false")
    assert result.valid and not served(result, "", "v1", "Pod") and not served(result, "", "v1", "ConfigMap")
    assert reason(result, "", "v1", "Pod") is Reason.DISABLED_BY_RUNTIME_CONFIG


def test_a_legacy_resource_key_switches_the_whole_core_version_and_says_so():
    rc = parse_runtime_config("v1/pods=false")
    assert any("switches the whole core group version" in n for n in rc.notes)
    assert any("overridden by the legacy core key" in n for n in parse_runtime_config("/v1=true,api/v1=false").notes)


def test_api_legacy_is_dropped():
    rc = parse_runtime_config("api/legacy=false,apps/v1=true")
    assert rc.items == (("apps/v1", "true"),) and "api/legacy is ignored" in rc.notes[0]


@pytest.mark.parametrize(
    "runtime_config, message",
    [
        ("api/all=false", "invalid key with only api/all=false"),  # "invalid runtime-config with only" from 1.36
        ("apps/v1/deployments/scale=false", "runtime-config invalid key apps/v1/deployments/scale"),
        ("apiall=false", "runtime-config invalid key apiall"),
        ("foo.example.com/v1=true,bar/v1=true", "unknown api groups foo.example.com,bar"),
        ("api/v2=true", "unknown api groups api"),
        ("apidiscovery.k8s.io/v2=true", "unknown api groups apidiscovery.k8s.io"),
        ("apps/v9=true", "group version apps/v9 that has not been registered"),
        ("apiextensions.k8s.io/v3=true", "group version apiextensions.k8s.io/v3 that has not been registered"),
        ("api/beta=yes", "invalid value api/beta=yes"),
        ("api/all=", "invalid value api/all="),
        ("api/alpha=True", "invalid value api/alpha=True"),
        ("apps/v1=yes", 'invalid value of apps/v1: yes, err: strconv.ParseBool: parsing "yes": invalid syntax'),
        ("apps/v1/deployments=on", 'invalid value of apps/v1/deployments: on, err: strconv.ParseBool: parsing "on": invalid syntax'),
        ("apps/v1/Deployments=false", 'invalid key apps/v1/Deployments: group/version/resource and resource is always lowercase plural, not "Deployments"'),
    ],
)
def test_every_runtime_config_error_message(runtime_config, message):
    result = apis("1.33", "1.31", runtime_config)
    assert not result.valid and result.errors == (message,)


def test_a_lone_api_all_false_is_named_as_each_release_names_it():
    """apiserver ``APIEnablementOptions.Validate``: "invalid key with only ..." up to 1.35 (recorded
    on v1.34.12), "invalid runtime-config with only ..." from 1.36."""
    for binary, noun in (("1.31", "key"), ("1.35", "key"), ("1.36", "runtime-config"), ("1.38", "runtime-config")):
        assert apis(binary, binary, "api/all=false").errors == (f"invalid {noun} with only api/all=false",), binary


def test_only_api_all_false_is_fine_with_anything_else():
    result = apis("1.33", "1.33", "api/all=false,apps/v1=true")
    assert result.valid
    assert {e.group_version for e in result.served()} == {"apps/v1"}


def test_go_boolean_spellings_and_bare_keys_enable():
    for value in ("", "=1", "=t", "=T", "=TRUE", "=True"):
        result = apis("1.33", "1.33", f"{NET}/v1beta1{value}")
        assert result.valid and served(result, NET, "v1beta1", "ServiceCIDR"), value
    assert not served(apis("1.33", "1.33", "apps/v1=F"), "apps", "v1", "Deployment")


def test_level_keys_apply_in_order_all_ga_beta_alpha_and_are_overridden_by_explicit_keys():
    result = apis("1.33", "1.33", "api/ga=false,api/all=true")
    assert not served(result, "apps", "v1", "Deployment") and served(result, NET, "v1beta1", "ServiceCIDR")
    assert reason(result, "apps", "v1", "Deployment") is Reason.DISABLED_BY_RUNTIME_CONFIG
    assert "api/ga=false" in result.entry("apps", "v1", "Deployment").detail
    result = apis("1.33", "1.33", "api/beta=true,resource.k8s.io/v1beta1=false")
    assert served(result, NET, "v1beta1", "ServiceCIDR") and not served(result, "resource.k8s.io", "v1beta1", "DeviceClass")


def test_resource_setting_wins_over_its_version():
    result = apis("1.33", "1.33", f"{NET}/v1beta1=true,{NET}/v1beta1/ipaddresses=false")
    assert served(result, NET, "v1beta1", "ServiceCIDR") and not served(result, NET, "v1beta1", "IPAddress")
    result = apis("1.33", "1.33", f"{NET}/v1beta1/servicecidrs=true")
    assert served(result, NET, "v1beta1", "ServiceCIDR") and not served(result, NET, "v1beta1", "IPAddress")


def test_the_chained_apiservers_groups_are_modelled():
    # apiextensions-apiserver's and kube-aggregator's groups are in the recorded schemes and discovery
    result = apis("1.33", "1.33", "apiextensions.k8s.io/v1beta1=false,apiregistration.k8s.io/v1=true")
    assert result.valid and not any("not modelled" in w for w in result.warnings)
    assert served(result, "apiextensions.k8s.io", "v1", "CustomResourceDefinition") and served(result, "apiregistration.k8s.io", "v1", "APIService")
    assert result.entry("apiregistration.k8s.io", "v1", "APIService").subresources == ("status",)
    off = apis("1.33", "1.33", "apiextensions.k8s.io/v1=false")
    assert not served(off, "apiextensions.k8s.io", "v1", "CustomResourceDefinition")


# ---------------------------------------------------------------------------------------------
# Defaults and what is not a REST API.


def test_defaults_ga_on_beta_and_alpha_off():
    result = apis("1.33")
    assert reason(result, "apps", "v1", "Deployment") is Reason.GA_ENABLED_BY_DEFAULT
    assert reason(result, NET, "v1beta1", "ServiceCIDR") is Reason.BETA_OFF_BY_DEFAULT
    # a 1.33 binary has no REST storage for networking v1alpha1 at all: no recorded run of v1.33.13 served it
    assert reason(result, NET, "v1alpha1", "ServiceCIDR") is Reason.NO_STORAGE_IN_BINARY
    assert reason(result, "authentication.k8s.io", "v1beta1", "SelfSubjectReview") is Reason.REMOVED_AT_OR_BEFORE_EMULATED  # removed in 1.33
    assert reason(result, "storage.k8s.io", "v1alpha1", "VolumeAttributesClass") is Reason.ALPHA_OFF_BY_DEFAULT


def test_group_versions_outside_the_default_lists_are_not_rest_apis():
    result = apis("1.33", "1.31", "extensions/v1beta1=true")
    for gv, kind in [("apps/v1beta1", "Deployment"), ("extensions/v1beta1", "Ingress")]:
        group, version = gv.split("/")
        assert reason(result, group, version, kind) is Reason.NOT_IN_DEFAULT_LISTS and not served(result, group, version, kind)
    # groups without REST resources (no client-go typed client) are no entries at all
    for group, version, kind in [("admission.k8s.io", "v1", "AdmissionReview"), ("imagepolicy.k8s.io", "v1alpha1", "ImageReview"),
                                 ("apidiscovery.k8s.io", "v2", "APIGroupDiscovery")]:
        assert result.entry(group, version, kind) is None


def test_options_and_subresource_kinds_are_not_entries():
    result = apis("1.33")
    for group, version, kind in [("", "v1", "PodLogOptions"), ("", "v1", "List"), ("policy", "v1", "Eviction"),
                                 ("autoscaling", "v1", "Scale"), ("authentication.k8s.io", "v1", "TokenRequest")]:
        assert result.entry(group, version, kind) is None
    assert served(result, "", "v1", "ComponentStatus")


# ---------------------------------------------------------------------------------------------
# SPEC §8 worked example 8 (binary 1.33, emulated 1.31, networking.k8s.io).


def test_example_8_v1_served_without_servicecidrs_and_ipaddresses():
    result = apis("1.33", "1.31")
    assert result.valid
    assert served(result, NET, "v1", "Ingress") and served(result, NET, "v1", "NetworkPolicy")
    for kind in ("ServiceCIDR", "IPAddress"):
        assert not served(result, NET, "v1", kind) and reason(result, NET, "v1", kind) is Reason.INTRODUCED_AFTER_EMULATED
        assert not served(result, NET, "v1beta1", kind)


def test_example_8_runtime_config_serves_v1beta1():
    result = apis("1.33", "1.31", f"{NET}/v1beta1=true")
    assert result.valid
    assert served(result, NET, "v1beta1", "ServiceCIDR") and served(result, NET, "v1beta1", "IPAddress")
    assert reason(result, NET, "v1beta1", "ServiceCIDR") is Reason.ENABLED_BY_RUNTIME_CONFIG
    assert not served(result, NET, "v1", "ServiceCIDR")
    assert not served(result, NET, "v1beta1", "Ingress")  # removed 1.22


def test_example_8_emulation_forward_compatible_adds_v1():
    result = apis("1.33", "1.31", f"{NET}/v1beta1=true", efc=True)
    assert result.valid
    for kind in ("ServiceCIDR", "IPAddress"):
        assert served(result, NET, "v1", kind) and reason(result, NET, "v1", kind) is Reason.KEPT_BY_EMULATION_FORWARD_COMPATIBLE
        assert served(result, NET, "v1beta1", kind)


def test_example_8_explicit_future_resource_aborts_startup():
    result = apis("1.33", "1.31", f"{NET}/v1/servicecidrs=true")
    assert result.errors == (
        "cannot enable resource networking.k8s.io/v1, Resource=servicecidrs in runtime-config because it is introduced at 1.33 "
        "after the current version 1.31. Consider setting --runtime-config-emulation-forward-compatible=true",
    )


def test_example_8_runtime_config_forward_compatible_serves_that_resource_only():
    result = apis("1.33", "1.31", f"{NET}/v1/servicecidrs=true", rcefc=True)
    assert result.valid
    assert served(result, NET, "v1", "ServiceCIDR") and not served(result, NET, "v1", "IPAddress")
    assert reason(result, NET, "v1", "ServiceCIDR") is Reason.KEPT_BY_RUNTIME_CONFIG_FORWARD_COMPATIBLE


# ---------------------------------------------------------------------------------------------
# Forward compatibility details (§6.5).


def test_explicit_version_whose_resources_are_all_future_aborts_startup():
    # the rule looks at the REST storage the binary installs: storagemigration's only while StorageVersionMigrator is on
    gate_on = api_gate_states(DEFAULT_CATALOG, "StorageVersionMigrator=true")
    result = apis("1.36", "1.33", "storagemigration.k8s.io/v1beta1=true", gate_states=gate_on)
    assert result.errors == (
        "cannot enable version storagemigration.k8s.io/v1beta1 in runtime-config because all the resources have been introduced "
        "after the current version 1.33. Consider setting --runtime-config-emulation-forward-compatible=true",
    )
    assert apis("1.36", "1.33", "storagemigration.k8s.io/v1beta1=true", rcefc=True, gate_states=gate_on).valid
    assert apis("1.36", "1.33", "storagemigration.k8s.io/v1beta1=true").valid  # the gate off: no storage, nothing to refuse


def test_explicit_version_with_some_present_resources_drops_the_future_ones_silently():
    result = apis("1.33", "1.31", f"{NET}/v1=true")
    assert result.valid and served(result, NET, "v1", "Ingress") and not served(result, NET, "v1", "ServiceCIDR")
    result = apis("1.33", "1.31", f"{NET}/v1=true", rcefc=True)
    assert served(result, NET, "v1", "ServiceCIDR") and served(result, NET, "v1", "IPAddress")


def test_level_keys_are_not_explicit_so_future_apis_stay_dropped():
    result = apis("1.33", "1.31", "api/all=true", rcefc=True)
    assert result.valid and not served(result, NET, "v1", "ServiceCIDR")


def test_a_beta_pulls_in_newer_betas_and_the_ga_of_the_same_resources():
    result = apis("1.36", "1.33", "resource.k8s.io/v1beta1=true", efc=True)
    assert result.valid
    assert reason(result, "resource.k8s.io", "v1beta2", "DeviceClass") is Reason.PULLED_IN_BY_FORWARD_COMPATIBILITY
    assert reason(result, "resource.k8s.io", "v1", "DeviceClass") is Reason.KEPT_BY_EMULATION_FORWARD_COMPATIBLE
    assert any("random map order" in w for w in result.warnings)
    plain = apis("1.36", "1.33", "resource.k8s.io/v1beta1=true")
    assert not served(plain, "resource.k8s.io", "v1beta2", "DeviceClass") and not served(plain, "resource.k8s.io", "v1", "DeviceClass")


def test_ga_being_served_never_pulls_in_a_newer_beta():
    assert apis("1.33", "1.31", efc=True).served_keys() == apis("1.33", "1.31").served_keys()


def test_explicit_disable_of_a_higher_version_beats_widening():
    result = apis("1.36", "1.33", "resource.k8s.io/v1beta1=true,resource.k8s.io/v1beta2=false", efc=True)
    assert not served(result, "resource.k8s.io", "v1beta2", "DeviceClass")
    assert reason(result, "resource.k8s.io", "v1beta2", "DeviceClass") is Reason.DISABLED_BY_RUNTIME_CONFIG


def test_alpha_versions_never_propagate():
    result = apis("1.33", "1.31", "resource.k8s.io/v1alpha3=true", efc=True)
    assert served(result, "resource.k8s.io", "v1alpha3", "DeviceClass") and not served(result, "resource.k8s.io", "v1beta1", "DeviceClass")
    assert not served(result, "resource.k8s.io", "v1beta2", "DeviceClass")


@pytest.mark.parametrize("binary", ["1.33", "1.34", "1.36.2"])
def test_forward_compat_flags_rejected_when_not_emulating(binary):
    result = apis(binary, None, None, efc=True, rcefc=True)
    assert result.errors == (
        "ServerRunOptions.EmulationForwardCompatible cannot be set to true if the emulation version is the same as the binary version",
        "ServerRunOptions.RuntimeConfigEmulationForwardCompatible cannot be set to true if the emulation version is the same as the binary version",
    )


def test_forward_compat_flags_do_not_exist_before_1_33():
    result = apis("1.32", "1.31", efc=True)
    assert result.errors == ("unknown flag: --emulation-forward-compatible (a 1.32 binary has no such flag; it exists from 1.33)",)
    result = apis("1.32", "1.31", rcefc=True)
    assert "unknown flag: --runtime-config-emulation-forward-compatible" in result.errors[0]


def test_1_32_drops_future_kinds_without_startup_errors():
    result = apis("1.32", "1.31", "resource.k8s.io/v1beta1/deviceclasses=true")
    assert result.valid and not served(result, "resource.k8s.io", "v1beta1", "DeviceClass")
    assert reason(result, "resource.k8s.io", "v1beta1", "DeviceClass") is Reason.INTRODUCED_AFTER_EMULATED


# ---------------------------------------------------------------------------------------------
# Removal rule (§6.4): an API removed between the emulated and the binary version.


def test_flowcontrol_v1beta3_removed_in_1_32_is_served_at_emulated_1_31_when_enabled():
    """k8s.io/api v0.32.0 says flowcontrol v1beta3 was removed in 1.32, and the 1.32 binary still
    lists v1beta3 (betaDisabledByDefault) with no legacy beta resources left (the 1.31 list had
    flowschemas and prioritylevelconfigurations on by default). So a 1.32 binary emulating 1.31
    serves v1beta3 only when --runtime-config enables it -- unlike a real 1.31 binary."""
    plain = apis("1.32", "1.31")
    assert not served(plain, FLOW, "v1beta3", "FlowSchema")
    assert reason(plain, FLOW, "v1beta3", "FlowSchema") is Reason.BETA_OFF_BY_DEFAULT
    enabled = apis("1.32", "1.31", f"{FLOW}/v1beta3=true")
    assert enabled.valid
    for kind in ("FlowSchema", "PriorityLevelConfiguration"):
        assert served(enabled, FLOW, "v1beta3", kind) and reason(enabled, FLOW, "v1beta3", kind) is Reason.SERVED_UNTIL_REMOVAL
    at_binary = apis("1.32", None, f"{FLOW}/v1beta3=true")
    assert reason(at_binary, FLOW, "v1beta3", "FlowSchema") is Reason.REMOVED_AT_OR_BEFORE_EMULATED
    real_1_31 = apis("1.31")
    assert reason(real_1_31, FLOW, "v1beta3", "FlowSchema") is Reason.LEGACY_BETA_ENABLED_BY_DEFAULT


def test_disabling_betas_clears_the_legacy_beta_resources():
    result = apis("1.31", None, "api/beta=false")
    assert not served(result, FLOW, "v1beta3", "FlowSchema")


def test_compare_with_binary_lists_what_emulation_adds_and_hides():
    diff = compare_with_binary(apis("1.32", "1.31", f"{FLOW}/v1beta3=true"))
    assert {(e.group_version, e.kind) for e in diff.enabled} == {(f"{FLOW}/v1beta3", "FlowSchema"), (f"{FLOW}/v1beta3", "PriorityLevelConfiguration")}
    diff = compare_with_binary(apis("1.33", "1.31"))
    hidden = {(e.group_version, e.kind) for e in diff.removed}
    assert {(f"{NET}/v1", "ServiceCIDR"), (f"{NET}/v1", "IPAddress")} <= hidden and not diff.enabled


@pytest.mark.parametrize(
    "removed, binary, expected",
    [("1.32", "1.33", True), ("1.31", "1.33", False), ("1.31", "1.33.0", False), ("1.31", "1.33.0-alpha.1", True),
     ("1.31", "1.33.0-alpha.0", True), ("1.31", "1.33.0-beta.0", False), (None, "1.33", True)],
)
def test_removal_rule_at_emulated_1_31(removed, binary, expected):
    assert should_serve_removed(parse_version(removed) if removed else None, parse_version("1.31"), parse_version(binary)) is expected


def test_alpha_prerelease_binary_keeps_an_api_removed_at_the_emulated_version():
    rc = "authentication.k8s.io/v1beta1=true"  # SelfSubjectReview v1beta1: removed in 1.33
    assert not served(apis("1.33.0", "1.33", rc), "authentication.k8s.io", "v1beta1", "SelfSubjectReview")
    result = apis("1.33.0-alpha.1", "1.33", rc)
    assert served(result, "authentication.k8s.io", "v1beta1", "SelfSubjectReview")
    assert reason(result, "authentication.k8s.io", "v1beta1", "SelfSubjectReview") is Reason.SERVED_REMOVED_ALPHA_BINARY


# ---------------------------------------------------------------------------------------------
# Alpha APIs while emulating (§6.2 step 6, 1.34+).


def test_explicit_alpha_api_while_emulating_warns_from_1_34():
    result = apis("1.34", "1.33", "coordination.k8s.io/v1alpha2=true,storage.k8s.io/v1alpha1/volumeattributesclasses=true")
    assert result.valid and served(result, "coordination.k8s.io", "v1alpha2", "LeaseCandidate")
    assert result.warnings == (
        "alpha api enabled with emulated version 1.33 instead of the binary's version 1.34.0, this is unsupported, proceed at your own risk: api=coordination.k8s.io/v1alpha2",
        "alpha api enabled with emulated version 1.33 instead of the binary's version 1.34.0, this is unsupported, proceed at your own risk: api=storage.k8s.io/v1alpha1",
    )


@pytest.mark.parametrize(
    "binary, emulated, runtime_config",
    [("1.33", "1.32", "coordination.k8s.io/v1alpha2=true"), ("1.34", None, "coordination.k8s.io/v1alpha2=true"),
     ("1.34.2", "1.34", "coordination.k8s.io/v1alpha2=true"), ("1.34", "1.33", "api/alpha=true"),
     ("1.34", "1.33", "coordination.k8s.io/v1alpha2=false")],
)
def test_no_alpha_warning(binary, emulated, runtime_config):
    assert apis(binary, emulated, runtime_config).warnings == ()


# ---------------------------------------------------------------------------------------------
# Versions (§2.3) reported with the APIs.


def test_emulated_version_out_of_range_is_reported_and_apis_still_shown():
    result = apis("1.33", "1.30")
    assert result.errors == ("emulation version 1.30 is not between [1.31, 1.33.0]", "minCompatibilityVersion version 1.31 is not between [1.31, 1.30]")
    assert str(result.emulated) == "1.30" and result.entries


# ---------------------------------------------------------------------------------------------
# KEP-4330's integration grid (N-1 vs N behaviour of APIs), on small hypothetical API data
# for a 1.33 binary: Widget beta 1.30 -> GA 1.32; Gizmo beta removed in 1.32 (off by
# default); Sprocket on-by-default (legacy) beta removed in 1.32; Gadget alpha from 1.33.

KEP_API = """\
release: '1.33'
status: test
groupVersions:
- group: example.k8s.io
  version: v1
  stage: GA
  kinds:
  - {kind: Widget, isList: false, introduced: '1.32', deprecated: null, removed: null, replacement: null}
  - {kind: WidgetList, isList: true, introduced: '1.32', deprecated: null, removed: null, replacement: null}
- group: example.k8s.io
  version: v1beta1
  stage: beta
  kinds:
  - {kind: Widget, isList: false, introduced: '1.30', deprecated: '1.33', removed: '1.36', replacement: null}
  - {kind: Gizmo, isList: false, introduced: '1.29', deprecated: '1.30', removed: '1.32', replacement: null}
  - {kind: Sprocket, isList: false, introduced: '1.28', deprecated: '1.29', removed: '1.32', replacement: null}
- group: example.k8s.io
  version: v1alpha1
  stage: alpha
  kinds:
  - {kind: Gadget, isList: false, introduced: '1.33', deprecated: null, removed: null, replacement: null}
"""
KEP_DEFAULTS = """\
snapshots:
- id: kep-example-1.33
  release: '1.33'
  stableEnabledByDefault: [example.k8s.io/v1]
  legacyBetaResourcesEnabledByDefault: ['example.k8s.io/v1beta1 sprockets (on by default before 1.24)']
  betaDisabledByDefault: [example.k8s.io/v1beta1]
  alphaDisabledByDefault: [example.k8s.io/v1alpha1]
"""
KEP_RESOURCES = """\
release: '1.33'
groupVersions:
- group: example.k8s.io
  version: v1
  resources:
  - {kind: Widget, resource: widgets, subresources: [status]}
- group: example.k8s.io
  version: v1beta1
  resources:
  - {kind: Widget, resource: widgets, subresources: [status]}
  - {kind: Gizmo, resource: gizmos, subresources: []}
  - {kind: Sprocket, resource: sprockets, subresources: []}
- group: example.k8s.io
  version: v1alpha1
  resources:
  - {kind: Gadget, resource: gadgets, subresources: []}
"""
EX = "example.k8s.io"


@pytest.fixture()
def kep_data(tmp_path):
    (tmp_path / "apis").mkdir()
    (tmp_path / "apis" / "v1.33.yaml").write_text(textwrap.dedent(KEP_API))
    (tmp_path / "apis" / "default-enablement.yaml").write_text(KEP_DEFAULTS)
    (tmp_path / "apis" / "resources").mkdir()
    (tmp_path / "apis" / "resources" / "v1.33.yaml").write_text(textwrap.dedent(KEP_RESOURCES))
    return tmp_path


def test_kep_grid_at_emulated_1_31(kep_data):
    r = apis("1.33", "1.31", data_dir=kep_data)
    assert r.valid
    # Beta API graduated to GA: only the beta, and only with --runtime-config.
    assert not served(r, EX, "v1", "Widget") and reason(r, EX, "v1", "Widget") is Reason.INTRODUCED_AFTER_EMULATED
    assert reason(r, EX, "v1beta1", "Widget") is Reason.BETA_OFF_BY_DEFAULT
    # Beta API removed (off by default): only with --runtime-config.
    assert not served(r, EX, "v1beta1", "Gizmo")
    # On-by-default beta API removed: available unless disabled.
    assert served(r, EX, "v1beta1", "Sprocket") and reason(r, EX, "v1beta1", "Sprocket") is Reason.SERVED_UNTIL_REMOVAL
    # Alpha API introduced at N: does not exist.
    assert not served(r, EX, "v1alpha1", "Gadget")

    on = apis("1.33", "1.31", f"{EX}/v1beta1=true", data_dir=kep_data)
    assert served(on, EX, "v1beta1", "Widget") and served(on, EX, "v1beta1", "Gizmo") and served(on, EX, "v1beta1", "Sprocket")
    off = apis("1.33", "1.31", f"{EX}/v1beta1/sprockets=false", data_dir=kep_data)
    assert not served(off, EX, "v1beta1", "Sprocket") and reason(off, EX, "v1beta1", "Sprocket") is Reason.DISABLED_BY_RUNTIME_CONFIG
    alpha = apis("1.33", "1.31", f"{EX}/v1alpha1=true", data_dir=kep_data)
    assert alpha.errors == (
        "cannot enable version example.k8s.io/v1alpha1 in runtime-config because all the resources have been introduced after the "
        "current version 1.31. Consider setting --runtime-config-emulation-forward-compatible=true",
    )


def test_kep_grid_at_the_binary_version_1_33(kep_data):
    r = apis("1.33", None, data_dir=kep_data)
    assert r.valid and str(r.emulated) == "1.33"
    assert served(r, EX, "v1", "Widget") and reason(r, EX, "v1", "Widget") is Reason.GA_ENABLED_BY_DEFAULT
    for kind in ("Gizmo", "Sprocket"):
        assert reason(r, EX, "v1beta1", kind) is Reason.REMOVED_AT_OR_BEFORE_EMULATED
    alpha = apis("1.33", None, f"{EX}/v1alpha1=true", data_dir=kep_data)
    assert alpha.valid and served(alpha, EX, "v1alpha1", "Gadget") and alpha.warnings == ()


def test_kep_grid_emulated_1_30_is_below_the_floor(kep_data):
    r = apis("1.33", "1.30", data_dir=kep_data)
    assert not r.valid and "emulation version 1.30 is not between [1.31, 1.33.0]" in r.errors
    assert not served(r, EX, "v1", "Widget") and served(r, EX, "v1beta1", "Sprocket")


def test_kep_grid_storage_version_changes_with_emulation(kep_data):
    assert storage_versions("1.33", "1.31", api_data=api_files(kep_data)).choice(EX, "Widget").version == "v1beta1"
    assert storage_versions("1.33", "1.32", api_data=api_files(kep_data)).choice(EX, "Widget").version == "v1beta1"  # mc 1.31
    assert storage_versions("1.33", "1.33", api_data=api_files(kep_data)).choice(EX, "Widget").version == "v1"  # mc 1.32


# ---------------------------------------------------------------------------------------------
# Property: no --runtime-config value makes the engine fail with anything but KcompatError.

_TOKENS = ["api/all", "api/ga", "api/beta", "api/alpha", "api/legacy", "api/v1", "v1", "/v1", "networking.k8s.io", "/v1beta1",
           "/servicecidrs", "resource.k8s.io/v1beta1", "apps/v1/Deployments", "=", ",", "/", "true", "false", "=true", "=false",
           " ", "\t", "yes", "apiextensions.k8s.io/v1", "x/y/z/w", "\u00a0", "İ"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from(_TOKENS), st.text(max_size=6)), max_size=12).map("".join),
    st.sampled_from([("1.33", "1.31"), ("1.34", "1.32"), ("1.32", "1.31"), ("1.37", None), ("1.36", "1.33")]),
    st.booleans(),
    st.booleans(),
)
def test_any_runtime_config_gives_a_result_or_kcompat_error(runtime_config, versions, efc, rcefc):
    binary, emulated = versions
    try:
        result = apis(binary, emulated, runtime_config, efc, rcefc)
    except KcompatError:
        return
    assert result.valid == (not result.errors)
    assert all(isinstance(e, str) for e in result.errors + result.warnings)
    assert all(e.served is (e.reason.value in _SERVED_REASONS) for e in result.entries)


_SERVED_REASONS = {
    "ga-enabled-by-default", "legacy-beta-enabled-by-default", "enabled-by-runtime-config", "pulled-in-by-forward-compatibility",
    "served-removed-only-after-emulated-version", "served-removed-at-emulated-version-alpha-binary",
    "kept-by-emulation-forward-compatible", "kept-by-runtime-config-emulation-forward-compatible",
}


# ---------------------------------------------------------------------------------------------
# The REST resource files: problems name the file and the entry.


def test_missing_or_broken_resource_file_is_a_clear_error(kep_data):
    (kep_data / "apis" / "resources" / "v1.33.yaml").write_text("release: '1.33'\ngroupVersions:\n- {group: x, version: v1, resources: [{kind: A, resource: Bs}]}\n")
    with pytest.raises(KcompatError, match=r"resources\[0\].*lowercase plural"):
        apis("1.33", data_dir=kep_data)
    (kep_data / "apis" / "resources" / "v1.33.yaml").unlink()
    with pytest.raises(KcompatError, match=r"no bundled REST resource names for Kubernetes 1\.33"):
        apis("1.33", data_dir=kep_data)
