"""SPEC §7.2: storage version per group/kind at (emulated, min compatibility)."""

import pytest

from dashboard.core.apis_data import ApiKind
from dashboard.core.errors import KcompatError
from dashboard.core.storage import StorageRule, pick_storage_version, storage_rule_for, storage_version_for, storage_versions
from dashboard.core.versions import parse_version

NET = "networking.k8s.io"


def v(text):
    return parse_version(text) if text else None


def kind(version, introduced, replacement=None, name="CronJob"):
    stage = "alpha" if "alpha" in version else "beta" if "beta" in version else "GA"
    return ApiKind("workload.example.com", version, name, stage, v(introduced), None, None, replacement)


# SPEC §8 worked example 9: ServiceCIDR (v1 introduced 1.33, v1beta1 1.31) on a 1.33 binary.
@pytest.mark.parametrize(
    "emulated, min_compat, expected",
    [("1.31", None, "v1beta1"), ("1.33", None, "v1beta1"), ("1.33", "1.33", "v1")],
)
def test_example_9_servicecidr_storage_version(emulated, min_compat, expected):
    result = storage_versions("1.33", emulated, min_compat)
    assert result.valid
    choice = result.choice(NET, "ServiceCIDR")
    assert choice.version == expected and choice.candidates == ("v1", "v1beta1", "v1alpha1")
    assert storage_version_for(NET, "IPAddress", "1.33", emulated, min_compat).version == expected


def test_default_min_compat_follows_the_emulated_version():
    result = storage_versions("1.33", "1.33")
    assert (str(result.emulated), str(result.min_compat)) == ("1.33", "1.32")
    assert str(storage_versions("1.36").min_compat) == "1.35"


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


def test_fallbacks_group_preferred_before_1_37_and_kind_top_version_at_head():
    versions = [kind("v1beta1", "1.40")]
    assert pick_storage_version(versions, "v2", StorageRule.FIRST_AT_MIN_COMPAT, v("1.33"), v("1.32"))[0] == "v2"
    assert pick_storage_version(versions, "v2", StorageRule.NON_ALPHA_AT_MIN_COMPAT, v("1.33"), v("1.32"))[0] == "v1beta1"


def test_min_compat_zero_disables_the_lifecycle_checks():
    result = storage_versions("1.33", "1.31", "0.0")
    assert result.choice(NET, "ServiceCIDR").version == "v1"
    assert result.errors == ("minCompatibilityVersion version 0.0 is not between [1.31, 1.31]",)


def test_real_data_head_pass_two_picks_an_alpha():
    """DeviceTaintRule: v1 (1.37), v1beta2 (1.36), v1alpha3 (1.33). With emu = mc = 1.34 the 1.37
    rule finds no non-alpha version by 1.34 and falls to pass 2 (introduced by emu 1.34)."""
    head = storage_versions("1.37", "1.34", "1.34").choice("resource.k8s.io", "DeviceTaintRule")
    assert head.version == "v1alpha3" and "no non-alpha version" in head.explanation
    assert storage_versions("1.36", "1.34", "1.34").choice("resource.k8s.io", "DeviceTaintRule").version == "v1alpha3"


def test_only_groups_the_binary_serves_and_only_resource_kinds():
    result = storage_versions("1.33")
    groups = {c.group for c in result.choices}
    assert "admission.k8s.io" not in groups and "apidiscovery.k8s.io" not in groups and "" in groups
    assert result.choice("", "PodLogOptions") is None and result.choice("", "Pod").version == "v1"
    with pytest.raises(KcompatError, match="no stored resource kind Nope"):
        storage_version_for("", "Nope", "1.33")
