"""SPEC §7.2: storage version per group/kind at (emulated, min compatibility)."""

import pytest

from kcompat.core.apis_data import ApiKind
from kcompat.core.errors import KcompatError
from kcompat.core.storage import (
    StorageRule,
    pick_storage_version,
    storage_rule_for,
    storage_version_for,
    storage_versions,
)
from kcompat.core.versions import parse_version
from kcompat.data.apis import api_files

BUNDLED = api_files()

NET = "networking.k8s.io"


def v(text):
    return parse_version(text) if text else None


def kind(version, introduced, replacement=None, name="CronJob"):
    stage = "alpha" if "alpha" in version else "beta" if "beta" in version else "GA"
    return ApiKind("workload.example.com", version, name, stage, v(introduced), None, None, replacement)


# SPEC §8 worked example 9: ServiceCIDR (v1 introduced 1.33, v1beta1 1.31). A 1.33 binary
# overrides servicecidrs/ipaddresses to v1beta1 in its storage factory, and the override always
# wins (BackwardCompatibileStorageEncodingFor); 1.34 has no override, so min compat decides.
@pytest.mark.parametrize(
    "binary, emulated, min_compat, expected",
    [("1.33", "1.31", None, "v1beta1"), ("1.33", "1.33", None, "v1beta1"), ("1.33", "1.33", "1.33", "v1beta1"),
     ("1.34", "1.33", None, "v1beta1"), ("1.34", "1.33", "1.33", "v1"), ("1.34", "1.34", None, "v1")],
)
def test_example_9_servicecidr_storage_version(binary, emulated, min_compat, expected):
    result = storage_versions(binary, emulated, min_compat, api_data=BUNDLED)
    assert result.valid
    choice = result.choice(NET, "ServiceCIDR")
    assert choice.version == expected
    assert ("override" in choice.explanation) == (binary == "1.33")
    assert storage_version_for(NET, "IPAddress", binary, emulated, min_compat, api_data=BUNDLED).version == expected


def test_default_min_compat_follows_the_emulated_version():
    result = storage_versions("1.33", "1.33", api_data=BUNDLED)
    assert (str(result.emulated), str(result.min_compat)) == ("1.33", "1.32")
    assert str(storage_versions("1.36", api_data=BUNDLED).min_compat) == "1.35"


@pytest.mark.parametrize(
    "binary, rule",
    [("1.31", StorageRule.FIRST_AT_MIN_COMPAT), ("1.32", StorageRule.SKIP_REPLACED), ("1.33.4", StorageRule.SKIP_REPLACED),
     ("1.34", StorageRule.SKIP_REPLACED), ("1.35", StorageRule.FIRST_AT_MIN_COMPAT), ("1.36", StorageRule.FIRST_AT_MIN_COMPAT),
     ("1.37", StorageRule.NON_ALPHA_AT_MIN_COMPAT), ("1.37.0-alpha.2", StorageRule.NON_ALPHA_AT_MIN_COMPAT)],
)
def test_the_rule_of_the_binary_release(binary, rule):
    assert storage_rule_for(parse_version(binary)) is rule


# The apiserver's own unit cases (resource_encoding_config_test.go), emulated 1.32, mc 1.31.
def test_pick_compatible_alpha_in_1_31_to_1_36_rule():
    versions = [kind("v1beta1", "1.32"), kind("v1alpha1", "1.31")]
    assert pick_storage_version(versions, "v1beta1", StorageRule.FIRST_AT_MIN_COMPAT, v("1.32"), v("1.31"))[0] == "v1alpha1"


def test_replaced_alpha_falls_back_to_the_group_preferred_version_in_1_32_to_1_34():
    versions = [kind("v1beta1", "1.32"), kind("v1alpha1", "1.31", replacement="workload.example.com/v1beta1/CronJob")]
    assert pick_storage_version(versions, "v1beta1", StorageRule.SKIP_REPLACED, v("1.32"), v("1.31"))[0] == "v1beta1"
    assert pick_storage_version(versions, "v1beta1", StorageRule.FIRST_AT_MIN_COMPAT, v("1.32"), v("1.31"))[0] == "v1alpha1"


def test_head_rule_skips_alpha_in_pass_one_and_uses_emulated_in_pass_two():
    versions = [kind("v1beta1", "1.32"), kind("v1alpha1", "1.31")]
    version, why = pick_storage_version(versions, "v1beta1", StorageRule.NON_ALPHA_AT_MIN_COMPAT, v("1.32"), v("1.31"))
    assert version == "v1beta1" and "emulated 1.32" in why
    stable = [kind("v1", "1.33"), kind("v1beta1", "1.31"), kind("v1alpha1", "1.30")]
    assert pick_storage_version(stable, "v1", StorageRule.NON_ALPHA_AT_MIN_COMPAT, v("1.33"), v("1.31"))[0] == "v1beta1"


def test_fallback_is_the_group_preferred_version_binary_version_of_resource():
    versions = [kind("v1beta1", "1.40")]
    assert pick_storage_version(versions, "v2", StorageRule.FIRST_AT_MIN_COMPAT, v("1.33"), v("1.32"))[0] == "v2"
    assert pick_storage_version(versions, "v2", StorageRule.NON_ALPHA_AT_MIN_COMPAT, v("1.33"), v("1.32"))[0] == "v2"


def test_min_compat_zero_disables_the_lifecycle_checks():
    result = storage_versions("1.34", "1.32", "0.0", api_data=BUNDLED)
    assert result.choice(NET, "ServiceCIDR").version == "v1"
    assert result.errors == ("minCompatibilityVersion version 0.0 is not between [1.31, 1.32]",)


def test_real_data_override_beats_the_picker():
    """DeviceTaintRule: v1 (1.37), v1beta2 (1.36), v1alpha3 (1.33). The real v1.37.2 storage factory
    overrides it to v1beta2 (its ResourceEncodingOverrides), which the picker never consults;
    1.36 has no override, and with emu = mc = 1.34 it picks the alpha introduced by 1.34."""
    head = storage_versions("1.37", "1.34", "1.34", api_data=BUNDLED).choice("resource.k8s.io", "DeviceTaintRule")
    assert head.version == "v1beta2" and "override" in head.explanation
    assert storage_versions("1.36", "1.34", "1.34", api_data=BUNDLED).choice("resource.k8s.io", "DeviceTaintRule").version == "v1alpha3"


def test_only_groups_the_binary_serves_and_only_resource_kinds():
    result = storage_versions("1.33", api_data=BUNDLED)
    groups = {c.group for c in result.choices}
    assert "admission.k8s.io" not in groups and "apidiscovery.k8s.io" not in groups and "" in groups
    assert result.choice("", "PodLogOptions") is None and result.choice("", "Pod").version == "v1"
    with pytest.raises(KcompatError, match="no stored resource kind Nope"):
        storage_version_for("", "Nope", "1.33", api_data=BUNDLED)


# ---------------------------------------------------------------------------------------------
# Overrides, cohabiting resources, and the kind always held by its storage version.


def test_pod_certificate_request_at_1_36_emulating_1_33_is_stored_by_the_override():
    choice = storage_versions("1.36", "1.33", api_data=BUNDLED).choice("certificates.k8s.io", "PodCertificateRequest")
    assert choice.group_version == "certificates.k8s.io/v1beta1" and "override" in choice.explanation
    assert not choice.served


def test_device_taint_rule_on_a_plain_1_33_is_stored_as_v1alpha3():
    choice = storage_versions("1.33", api_data=BUNDLED).choice("resource.k8s.io", "DeviceTaintRule")
    assert choice.group_version == "resource.k8s.io/v1alpha3" and "override" in choice.explanation


def test_an_override_naming_no_resource_overrides_nothing():
    """1.31-1.36 list storagemigration.k8s.io 'storagemigrations'; the resource is storageversionmigrations."""
    choice = storage_versions("1.33", api_data=BUNDLED).for_resource("storagemigration.k8s.io", "storageversionmigrations")
    assert choice is not None and "override" not in choice.explanation


def test_events_k8s_io_events_are_stored_as_core_v1_events():
    choice = storage_versions("1.33", api_data=BUNDLED).for_resource("events.k8s.io", "events")
    assert choice.group_version == "v1" and "cohabiting" in choice.explanation


def test_1_37_overrides_come_from_the_release_and_name_crds_stored_as_v1beta1():
    """apiextensions-apiserver stores CRDs as v1beta1 (the hash its discovery reports), so the 1.37
    list carries it; no warning about a missing list."""
    result = storage_versions("1.37", api_data=BUNDLED)
    assert not any("no storage-version override list" in w for w in result.warnings)
    crd = result.for_resource("apiextensions.k8s.io", "customresourcedefinitions")
    assert crd.group_version == "apiextensions.k8s.io/v1beta1"


def _pairs():
    releases = ["1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37"]
    for binary in releases:
        for emulated in releases[: releases.index(binary) + 1]:
            yield binary, emulated


@pytest.mark.parametrize("binary, emulated", list(_pairs()))
def test_every_storage_version_holds_its_kind(binary, emulated):
    """Over every bundled (binary, emulated) pair, default and equal min compatibility: a storage
    version is a group/version of the binary's release that holds the kind; a served resource
    always has one."""
    api = BUNDLED.api_release(binary)
    for min_compat in (None, emulated):
        result = storage_versions(binary, emulated, min_compat, api_data=BUNDLED)
        assert result.choices
        for c in result.choices:
            if c.version is None:
                assert not c.served and "no storage is created" in c.explanation
                continue
            gv = api.find(c.storage_group, c.version)
            assert gv is not None and c.kind in {k.kind for k in gv.kinds}, (binary, emulated, min_compat, c)


def test_scheme_priority_not_kube_aware_order_decides():
    """1.33 registers resource.k8s.io as v1beta1, v1beta2, v1alpha3 (install.go): with min
    compatibility 1.33 both betas qualify and the scheme's first, v1beta1, is the storage version
    (the kube-aware order would give v1beta2)."""
    choice = storage_versions("1.33", "1.33", "1.33", api_data=BUNDLED).choice("resource.k8s.io", "ResourceClaim")
    assert choice.candidates == ("v1beta1", "v1beta2", "v1alpha3") and choice.version == "v1beta1"
    # 1.34 prefers v1beta2 over v1 for storage
    with_zero = storage_versions("1.34", "1.34", "0.0", api_data=BUNDLED).choice("resource.k8s.io", "DeviceClass")
    assert with_zero.version == "v1beta2" and "0.0 disables" in with_zero.explanation
    assert not any("no scheme version priority" in w for w in storage_versions("1.37", api_data=BUNDLED).warnings)
