"""SPEC §7.4: component version ranges against a kube-apiserver, classic and emulation-aware."""

import pytest

from kcompat.core.skew import (
    CLOUD_CONTROLLER_MANAGER,
    COMPONENTS,
    CONTROLLER_MANAGER,
    KUBE_APISERVER,
    KUBE_PROXY,
    KUBECTL,
    KUBELET,
    SCHEDULER,
    skew_policy,
)


def ranges(rs):
    return {r.component: str(r) for r in rs}


def test_classic_policy_from_the_binary_version():
    policy = skew_policy("1.33.2", "1.31")
    assert ranges(policy.classic) == {
        KUBE_APISERVER: "1.32..1.34",
        CONTROLLER_MANAGER: "1.32..1.33",
        SCHEDULER: "1.32..1.33",
        CLOUD_CONTROLLER_MANAGER: "1.32..1.33",
        KUBELET: "1.30..1.33",
        KUBE_PROXY: "1.30..1.33",
        KUBECTL: "1.32..1.34",
    }


def test_emulation_aware_policy_uses_emulated_and_min_compat():
    policy = skew_policy("1.36", "1.34")
    assert (str(policy.emulated), str(policy.min_compat)) == ("1.34", "1.33")
    assert ranges(policy.emulation_aware) == {
        KUBE_APISERVER: "1.33..1.35",
        CONTROLLER_MANAGER: "1.33..1.34",
        SCHEDULER: "1.33..1.34",
        CLOUD_CONTROLLER_MANAGER: "1.33..1.34",
        KUBELET: "1.31..1.34",
        KUBE_PROXY: "1.31..1.34",
        KUBECTL: "1.33..1.35",
    }
    assert not policy.emulation_aware_for(KUBE_APISERVER).documented
    assert all(r.documented for r in policy.emulation_aware if r.component != KUBE_APISERVER)


def test_kubelet_must_not_be_newer_than_the_emulated_version():
    policy = skew_policy("1.36", "1.34")
    assert policy.classic_for(KUBELET).allows("1.36") and not policy.emulation_aware_for(KUBELET).allows("1.36.1")
    assert policy.emulation_aware_for(KUBELET).allows("v1.31.9")


def test_explicit_min_compat_widens_the_lower_bounds():
    policy = skew_policy("1.36", "1.36", "1.33")
    assert str(policy.emulation_aware_for(CONTROLLER_MANAGER)) == "1.33..1.36"
    assert str(policy.emulation_aware_for(KUBELET)) == "1.31..1.36"


@pytest.mark.parametrize("binary", ["1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37"])
def test_without_emulation_both_policies_agree_for_documented_components(binary):
    policy = skew_policy(binary)
    for component in COMPONENTS:
        if component == KUBE_APISERVER:
            continue
        assert str(policy.classic_for(component)) == str(policy.emulation_aware_for(component)), component
