"""SPEC §3.3-§5 on real gates of the bundled data (release and gate named in each test)."""


import pytest

from kcompat.core.compat import select_versions
from kcompat.core.gates import evaluate_gates, spec_at
from kcompat.core.manifest import Manifest
from kcompat.core.registration import load_manifest_bytes
from kcompat.core.request import Request
from kcompat.core.stages import Stage
from kcompat.core.versions import parse_version as V


def state(ev, name):
    return ev.by_name()[name]


# --- §3.3 the spec in effect -------------------------------------------------------------

def test_example_1_job_managed_by_is_alpha_off_at_1_31_on_a_1_33_binary(gates):
    ev = gates("1.33", "1.31")
    jmb = state(ev, "JobManagedBy")
    assert (jmb.stage, jmb.enabled, jmb.locked) == (Stage.ALPHA, False, False)
    crd = state(ev, "CRDValidationRatcheting")
    assert (crd.stage, crd.enabled, crd.locked) == (Stage.BETA, True, False)
    own = state(gates("1.33"), "CRDValidationRatcheting")
    assert (own.stage, own.locked) == (Stage.GA, True)


def test_gate_introduced_after_emulated_is_prealpha(gates):
    s = state(gates("1.33", "1.31"), "ContainerStopSignals")
    assert (s.stage, s.enabled, s.default, s.locked) == (Stage.PRE_ALPHA, False, False, False)


def test_min_compat_gates_a_spec_on_1_37(catalog):
    f = catalog.manifest("1.37").by_name["DRAFractionalCapacityRange"]
    assert spec_at(f, V("1.37"), V("1.36"), use_min_compat=True).default is False
    assert spec_at(f, V("1.37"), V("1.37"), use_min_compat=True).default is True
    # before 1.35 binaries ignore min compat
    assert spec_at(f, V("1.37"), V("1.36"), use_min_compat=False).default is True


def test_1_37_binary_default_min_compat_keeps_fractional_capacity_off(gates):
    assert state(gates("1.37"), "DRAFractionalCapacityRange").enabled is False
    assert state(gates("1.37", "1.37", "1.37"), "DRAFractionalCapacityRange").enabled is True


def test_inherited_min_compat_falls_back_to_a_lower_stage():
    text = """
- name: G
  versionedSpecs:
  - {default: false, lockToDefault: false, preRelease: Beta, version: "1.28"}
  - {default: true, lockToDefault: false, preRelease: Beta, version: "1.28", minCompatibilityVersion: "1.28"}
  - {default: true, lockToDefault: true, preRelease: GA, version: "1.30"}
"""
    (f,) = load_manifest_bytes(text, "t.yaml")
    s = spec_at(f, V("1.30"), V("1.27"), use_min_compat=True)
    assert (s.stage, s.default, s.lock_to_default) == (Stage.BETA, False, False)


# --- §5.1 syntax -------------------------------------------------------------------------

def test_example_10_whitespace_empty_items_and_last_wins(gates):
    ev = gates("1.33", "1.31", flags=" JobManagedBy = T ,, JobManagedBy=0,APIResponseCompression=FALSE,")
    assert ev.valid
    assert state(ev, "JobManagedBy").enabled is False
    assert state(ev, "APIResponseCompression").enabled is False
    assert state(ev, "JobManagedBy").explicit


@pytest.mark.parametrize(
    "flags, error",
    [
        ("JobManagedBy=yes", 'invalid value of JobManagedBy=yes, err: strconv.ParseBool: parsing "yes": invalid syntax'),
        ("JobManagedBy=", 'invalid value of JobManagedBy=, err: strconv.ParseBool: parsing "": invalid syntax'),
        ("JobManagedBy", "missing bool value for JobManagedBy"),
        ("jobManagedBy=true", "unrecognized feature gate: jobManagedBy"),
        ("kube:JobManagedBy=true,APIResponseCompression=false", "set kube feature gates with default empty prefix or kube: prefix consistently, do not mix use"),
        ("wardle:Foo=true", "component not registered: wardle"),
    ],
)
def test_malformed_values_are_rejected_and_nothing_applies(gates, flags, error):
    ev = gates("1.33", "1.31", flags=flags)
    assert not ev.valid and error in ev.errors
    assert state(ev, "JobManagedBy").enabled is False


@pytest.mark.parametrize("word, value", [("1", True), ("t", True), ("TRUE", True), ("True", True), ("0", False), ("F", False), ("False", False)])
def test_go_boolean_spellings(gates, word, value):
    assert state(gates("1.33", "1.31", flags=f"JobManagedBy={word}"), "JobManagedBy").enabled is value


def test_component_prefix_kube_is_accepted_and_repeated_flags_accumulate(gates):
    ev = gates("1.33", "1.31", flags=["kube:JobManagedBy=true", "kube:APIResponseCompression=false"])
    assert ev.valid
    assert state(ev, "JobManagedBy").enabled and not state(ev, "APIResponseCompression").enabled


# --- §5.3 application --------------------------------------------------------------------

def test_example_2_prealpha_gate_cannot_be_named(gates):
    ev = gates("1.33", "1.31", flags="ContainerStopSignals=true")
    assert ev.errors == ("cannot set feature gate ContainerStopSignals to true, feature is PreAlpha at emulated version 1.31",)
    ev = gates("1.33", "1.31", flags="ContainerStopSignals=false")
    assert not ev.valid


def test_prealpha_message_names_min_compat_from_1_35(gates):
    ev = gates("1.36", "1.33", flags="ContainerStopSignals=true")
    # ContainerStopSignals is Alpha 1.33 -> not PreAlpha; pick a gate introduced after 1.33 in 1.36
    ev = gates("1.36", "1.33", flags="DRAListTypeAttributes=true")
    assert ev.errors == (
        "cannot set feature gate DRAListTypeAttributes to true, feature is PreAlpha at emulated version 1.33, min compatibility version 1.33",
    )


def test_example_4_locked_gate_depends_on_emulated_version(gates):
    ev = gates("1.33", "1.31", flags="AllowServiceLBStatusOnNonLB=true")
    assert ev.valid and state(ev, "AllowServiceLBStatusOnNonLB").enabled
    assert any("Setting deprecated feature gate AllowServiceLBStatusOnNonLB=true" in w for w in ev.warnings)
    for emu in ("1.32", "1.33"):
        ev = gates("1.33", emu, flags="AllowServiceLBStatusOnNonLB=true")
        assert ev.errors == ("cannot set feature gate AllowServiceLBStatusOnNonLB to true, feature is locked to false",)


def test_setting_a_locked_gate_to_its_default_is_accepted_with_a_warning(gates):
    ev = gates("1.33", flags="CRDValidationRatcheting=true")
    assert ev.valid
    assert ev.warnings == ("Setting GA feature gate CRDValidationRatcheting=true. It will be removed in a future release.",)
    assert not gates("1.33", flags="CRDValidationRatcheting=false").valid
    assert gates("1.33", "1.31", flags="CRDValidationRatcheting=false").valid  # Beta at 1.31


def test_example_5_kmsv1_deprecated_can_be_enabled(gates):
    ev = gates("1.33", "1.31")
    assert state(ev, "KMSv1").enabled is False
    ev = gates("1.33", "1.31", flags="KMSv1=true")
    assert ev.valid and state(ev, "KMSv1").enabled
    assert "Setting deprecated feature gate KMSv1=true. It will be removed in a future release." in ev.warnings


def test_all_problems_are_reported(gates):
    ev = gates("1.33", "1.31", flags="Nope1=true,ContainerStopSignals=true,Nope2=false")
    assert set(ev.errors) == {
        "unrecognized feature gate: Nope1",
        "unrecognized feature gate: Nope2",
        "cannot set feature gate ContainerStopSignals to true, feature is PreAlpha at emulated version 1.31",
    }


def test_rejected_flags_leave_the_defaults_and_explicit_marks(gates):
    ev = gates("1.33", "1.31", flags="JobManagedBy=true,Nope=true")
    s = state(ev, "JobManagedBy")
    assert (s.enabled, s.explicit, s.source) == (False, True, "default")


# --- §5.4 AllAlpha / AllBeta -------------------------------------------------------------

def test_example_3_all_alpha_follows_the_emulated_stage(gates):
    ev = gates("1.33", "1.31", flags="AllAlpha=true")
    assert ev.valid
    for name in ("AnonymousAuthConfigurableEndpoints", "JobManagedBy", "ClusterTrustBundle"):
        assert state(ev, name).enabled and state(ev, name).source == "AllAlpha", name
    assert not state(ev, "ContainerStopSignals").enabled  # PreAlpha
    assert state(ev, "CRDValidationRatcheting").source == "default"  # Beta at 1.31
    # 1.33 binary: the alpha-while-emulating warning does not exist before 1.34
    assert ev.warnings == ()


def test_alpha_while_emulating_warning_from_1_34(gates):
    ev = gates("1.34", "1.31", flags="AllAlpha=true")
    (warning,) = ev.warnings
    assert warning.startswith("component has alpha features enabled in emulated version, this is unsupported: features=[")
    assert "AllAlpha" in warning and "JobManagedBy" in warning
    assert gates("1.34.0", flags="AllAlpha=true").warnings == ()  # v1.34.0 is not above 1.34.0
    # the binary's version against the emulation version 1.34.0 (component-base GreaterThan): a patch
    # release warns at its own minor too, as v1.34.4 was seen to
    (own,) = gates("1.34.2", "1.34", flags="AllAlpha=true").warnings
    assert own.startswith("component has alpha features enabled in emulated version") and "AllAlpha" in own


def test_the_alpha_warning_compares_the_patch_a_plain_release_stands_for(catalog):
    """``--binary 1.35`` is v1.35.8 (its data's patch): it warns at 1.35 with an Alpha gate on;
    v1.35.0 and the pre-release v1.38.0-beta.0 (below 1.38.0) do not."""
    from kcompat.answers.gates import gate_evaluation

    assert gate_evaluation(catalog, Request("1.35", None, None, "StorageVersionAPI=true")).warnings == (
        "component has alpha features enabled in emulated version, this is unsupported: features=[StorageVersionAPI]",
    )
    assert gate_evaluation(catalog, Request("1.35.0", None, None, "StorageVersionAPI=true")).warnings == ()
    assert gate_evaluation(catalog, Request("1.38", None, None, "StorageVersionAPI=true")).warnings == ()


@pytest.mark.parametrize("flags", ["JobManagedBy=false,AllAlpha=true", "AllAlpha=true,JobManagedBy=false"])
def test_explicit_values_win_over_meta_gates_in_any_order(gates, flags):
    ev = gates("1.33", "1.31", flags=flags)
    assert state(ev, "JobManagedBy").enabled is False
    assert state(ev, "ClusterTrustBundle").enabled is True


def test_all_beta_false_pins_beta_gates_off_but_not_ga(gates):
    ev = gates("1.33", "1.31", flags="AllBeta=false")
    assert state(ev, "CRDValidationRatcheting").enabled is False
    assert state(ev, "CRDValidationRatcheting").source == "AllBeta"
    ga = [g for g in ev.gates if g.stage is Stage.GA]
    assert all(g.source == "default" for g in ga)


def test_meta_gates_are_not_in_the_features_list(gates):
    names = {g.name for g in gates("1.36").gates}
    assert "AllAlpha" not in names and "AllBeta" not in names


# --- §5.6 dependencies -------------------------------------------------------------------

DEPS = """
- name: Base
  versionedSpecs:
  - {default: true, lockToDefault: false, preRelease: Beta, version: "1.30"}
- name: Child
  dependencies: [Base]
  versionedSpecs:
  - {default: true, lockToDefault: false, preRelease: Beta, version: "1.30"}
"""


def _deps_eval(binary, flags):
    manifest = Manifest(load_manifest_bytes(DEPS, "deps.yaml"))
    return evaluate_gates(manifest, select_versions(V(binary)), flags)


def test_dependency_check_from_1_35():
    ev = _deps_eval("1.35", "Base=false")
    assert ev.errors == ("Child is enabled, but depends on features that are disabled: [Base]",)
    assert _deps_eval("1.35", "Base=false,Child=false").valid
    assert _deps_eval("1.34", "Base=false").valid  # no dependencies before 1.35


def test_defaults_that_break_a_dependency_are_refused_without_any_flag():
    # registration refuses such a manifest; built directly, the runtime check still reads the defaults
    base, child = Manifest(load_manifest_bytes(DEPS, "deps.yaml")).features
    off = base.specs[0].replace(default=False)
    manifest = Manifest((base.replace(specs=(off,)), child))
    ev = evaluate_gates(manifest, select_versions(V("1.35")))
    assert ev.errors == ("Child is enabled, but depends on features that are disabled: [Base]",)
    assert evaluate_gates(manifest, select_versions(V("1.35")), "Child=false").valid
    assert evaluate_gates(manifest, select_versions(V("1.34"))).valid


def test_example_6_authorize_node_with_selectors_needs_authorize_with_selectors(catalog, gates):
    f = catalog.manifest("1.35").by_name["AuthorizeNodeWithSelectors"]
    if "AuthorizeWithSelectors" not in f.dependencies:
        pytest.skip("the bundled 1.35 manifest carries no dependency data")
    ev = gates("1.35", "1.33", flags="AuthorizeWithSelectors=false")
    assert ev.errors == ("AuthorizeNodeWithSelectors is enabled, but depends on features that are disabled: [AuthorizeWithSelectors]",)
    assert gates("1.35", "1.33", flags="AuthorizeWithSelectors=false,AuthorizeNodeWithSelectors=false").valid


# --- the gates of a binary ---------------------------------------------------------------

def test_gates_come_from_the_binary_manifest(gates, catalog):
    # every gate the binary registers: its own list plus k8s.io/client-go's features
    for binary, emulated in (("1.36", "1.33"), ("1.33", "1.31")):
        names = {g.name for g in gates(binary, emulated).gates}
        assert names == set(catalog.manifest(binary).by_name)
        assert {"JobManagedBy", "WatchListClient", "InformerResourceVersion"} <= names


def test_version_errors_keep_the_gate_at_the_requested_versions(gates):
    ev = gates("1.36", "1.32")
    assert not ev.valid and str(ev.selection.emulated) == "1.32"


def test_bundled_dependency_data_is_marked_exact(catalog):
    assert catalog.info("1.35").dependencies_status == "release"  # read from the running v1.35.8
    assert catalog.info("1.36").dependencies_status == "release"
    assert catalog.info("1.37").dependencies_status == "release"  # read from the running v1.37.2
    assert catalog.info("1.34").dependencies_status is None
    assert catalog.manifest("1.35").by_name["AuthorizeNodeWithSelectors"].dependencies == ("AuthorizeWithSelectors",)


def test_dependency_on_a_gate_disabled_by_all_beta(gates):
    # 1.36: DRAAdminAccess depends on DynamicResourceAllocation (GA, locked on at 1.36 -> AllBeta does not touch it)
    ev = gates("1.36", "1.35", flags="AllBeta=false")
    assert ev.valid


def test_feature_gate_errors_stop_startup_before_range_validation(gates):
    # kube-apiserver exits in flag processing; the range check never runs
    ev = gates("1.33", "1.30", flags="JobManagedBy=maybe")
    assert ev.errors == ('invalid value of JobManagedBy=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax',)
    ev = gates("1.36", "1.30", flags="Nope=true")
    assert ev.errors == ("unrecognized feature gate: Nope",)
    assert len(gates("1.36", "1.30").errors) == 2


def test_setting_warning_wording_changed_in_1_36(gates):
    assert gates("1.35", flags="KMSv1=true").warnings == (
        "Setting deprecated feature gate KMSv1=true. It will be removed in a future release.",
    )
    assert gates("1.36", flags="KMSv1=true").warnings == (
        "Warning: setting deprecated feature gate. It will be removed in a future release. featureGate=KMSv1 value=true",
    )


def test_prealpha_message_names_the_bare_emulated_version_from_1_33(gates):
    """component-base 1.33+ keeps the emulation version as major.minor: a pre-release binary's
    message names 1.33, as the recorded v1.38.0-beta.0 kube-apiserver does (tests/oracle)."""
    ev = gates("v1.36.0-alpha.1", "1.33", flags="DRAListTypeAttributes=true")
    assert ev.errors == (
        "cannot set feature gate DRAListTypeAttributes to true, feature is PreAlpha at emulated version 1.33, min compatibility version 1.33",
    )
