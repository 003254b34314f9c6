"""A remedy beside every refusal (issue 19), on the real bundled data, through the CLI's JSON.

Each test checks three things: the binary's own line is unchanged in ``errors``, the ``hints``
entry explains that line with values computed from the data, and following the remedy gives an
input the binary accepts."""

import json

import pytest

from kcompat.cli.main import main as kcompat


def run_json(capsys, *argv):
    status = kcompat([*argv, "--format", "json"])
    return status, json.loads(capsys.readouterr().out)


def the_hint(doc, kind):
    [hint] = [h for h in doc["hints"] if h["kind"] == kind]
    assert hint["error"] in doc["errors"] + doc["warnings"]  # it names the line it explains
    return hint


def test_gate_not_yet_introduced_names_the_release_it_appears_in(capsys):
    status, doc = run_json(capsys, "gates", "--binary", "1.34", "--emulated", "1.32", "--feature-gates", "DRAPrioritizedList=true")
    assert status == 2
    assert doc["errors"] == ["cannot set feature gate DRAPrioritizedList to true, feature is PreAlpha at emulated version 1.32"]
    hint = the_hint(doc, "not-introduced")
    assert hint["gate"] == "DRAPrioritizedList" and hint["names"] == ["1.33"]
    assert hint["text"] == (
        "DRAPrioritizedList appears in 1.33 (Alpha): emulate 1.33 or later, or drop DRAPrioritizedList=true from --feature-gates"
    )
    # the remedy works
    assert run_json(capsys, "gates", "--binary", "1.34", "--emulated", "1.33", "--feature-gates", "DRAPrioritizedList=true")[0] == 0


def test_removed_gate_names_the_removal_and_the_behaviour_it_kept(capsys):
    status, doc = run_json(capsys, "gates", "--binary", "1.34", "--feature-gates", "CloudDualStackNodeIPs=true")
    assert status == 2 and doc["errors"] == ["unrecognized feature gate: CloudDualStackNodeIPs"]
    hint = the_hint(doc, "removed-gate")
    assert hint["names"] == ["1.32"]
    assert hint["text"] == (
        "CloudDualStackNodeIPs was removed in 1.32 after GA locked on (last listed by 1.31): "
        "always on in a 1.34 binary, drop it from --feature-gates"
    )


def test_gate_of_a_later_release_names_that_release(capsys):
    status, doc = run_json(capsys, "gates", "--binary", "1.33", "--feature-gates", "PodCertificateRequest=true")
    assert status == 2
    hint = the_hint(doc, "later-gate")
    assert hint["names"] == ["1.34"] and "use a 1.34 or later binary" in hint["text"]
    assert run_json(capsys, "gates", "--binary", "1.34", "--feature-gates", "PodCertificateRequest=true")[0] == 0


def test_locked_gate_names_the_lock_and_where_it_can_still_be_set(capsys):
    status, doc = run_json(capsys, "gates", "--binary", "1.34", "--feature-gates", "AllowServiceLBStatusOnNonLB=true")
    assert status == 2 and doc["errors"] == ["cannot set feature gate AllowServiceLBStatusOnNonLB to true, feature is locked to false"]
    hint = the_hint(doc, "locked")
    assert hint["text"] == (
        "AllowServiceLBStatusOnNonLB is locked off (Deprecated) since 1.32: drop AllowServiceLBStatusOnNonLB=true from "
        "--feature-gates, or emulate 1.31, the last release where it can still be set"
    )
    status, _ = run_json(capsys, "gates", "--binary", "1.34", "--emulated", "1.31", "--feature-gates", "AllowServiceLBStatusOnNonLB=true")
    assert status == 0


def test_gate_locked_since_a_placeholder_version_says_so(capsys):
    # 1.31 dates CloudDualStackNodeIPs (GA, locked on) to 0.0: a placeholder, not a release
    from kcompat.data.catalog import DEFAULT_CATALOG

    [spec] = DEFAULT_CATALOG.manifest("1.31").by_name["CloudDualStackNodeIPs"].specs
    assert (str(spec.version), spec.lock_to_default) == ("0.0", True)
    status, doc = run_json(capsys, "gates", "--binary", "1.31", "--feature-gates", "CloudDualStackNodeIPs=false")
    assert status == 2
    hint = the_hint(doc, "locked")
    assert hint["text"] == (
        "CloudDualStackNodeIPs is locked on (GA) since before the gate existed (the data dates it to 0.0, a placeholder): "
        "drop CloudDualStackNodeIPs=false from --feature-gates"
    )


def test_emulated_version_out_of_range_gives_the_range_and_nearest_value(capsys):
    status, doc = run_json(capsys, "gates", "--binary", "1.36", "--emulated", "1.30")
    assert status == 2
    hints = [h for h in doc["hints"] if h["kind"] == "version-range"]
    assert hints[0]["error"] == "emulation version 1.30 is not between [1.33, 1.36.0]"
    assert hints[0]["text"] == (
        "a 1.36 binary emulates 1.33 to 1.36: set --emulated-version=1.33 (the nearest valid value), or drop the flag for 1.36"
    )
    # the min compatibility error follows from the emulated version: the hint says to fix that first
    assert "fix --emulated-version first" in hints[1]["text"]
    assert run_json(capsys, "gates", "--binary", "1.36", "--emulated", "1.33")[0] == 0


def test_min_compatibility_out_of_range_gives_the_range_and_nearest_value(capsys):
    status, doc = run_json(capsys, "gates", "--binary", "1.36", "--emulated", "1.34", "--min-compat", "1.35")
    assert status == 2
    hint = the_hint(doc, "version-range")
    assert hint["text"] == (
        "at emulated 1.34 a 1.36 binary allows min compatibility 1.33 to 1.34 (never above the emulated version): "
        "set --min-compatibility-version=1.34 (the nearest valid value), or drop the flag for 1.33"
    )
    assert run_json(capsys, "gates", "--binary", "1.36", "--emulated", "1.34", "--min-compat", "1.34")[0] == 0


def test_runtime_config_of_an_api_introduced_after_the_emulated_version(capsys):
    status, doc = run_json(capsys, "apis", "--binary", "1.33", "--emulated", "1.31", "--runtime-config", "resource.k8s.io/v1beta1=true")
    assert status == 2
    assert doc["errors"][0].startswith("cannot enable version resource.k8s.io/v1beta1 in runtime-config because all the resources")
    hint = the_hint(doc, "runtime-config")
    assert hint["names"] == ["resource.k8s.io/v1beta1"]
    assert hint["text"].startswith("resource.k8s.io/v1beta1 appears in 1.32: emulate 1.32 or later, drop resource.k8s.io/v1beta1=true")
    for fixed in (["--emulated", "1.32"], ["--emulated", "1.31", "--runtime-config-emulation-forward-compatible"]):
        assert run_json(capsys, "apis", "--binary", "1.33", "--runtime-config", "resource.k8s.io/v1beta1=true", *fixed)[0] == 0


def test_runtime_config_of_a_removed_api(capsys):
    status, doc = run_json(capsys, "apis", "--binary", "1.34", "--emulated", "1.33", "--runtime-config", "networking.k8s.io/v1alpha1=true")
    assert status == 2 and doc["errors"] == ["group version networking.k8s.io/v1alpha1 that has not been registered"]
    hint = the_hint(doc, "runtime-config")
    assert hint["text"] == (
        "networking.k8s.io/v1alpha1 is no longer registered by a 1.34 binary (removed after 1.33, the last bundled release "
        "that registers it); emulation does not bring it back: drop networking.k8s.io/v1alpha1 from --runtime-config"
    )


def test_alpha_api_under_emulation_gets_a_remedy_beside_the_warning(capsys):
    status, doc = run_json(capsys, "apis", "--binary", "1.34", "--emulated", "1.33", "--runtime-config", "storagemigration.k8s.io/v1alpha1=true")
    assert status == 0  # a warning: the binary starts
    hint = the_hint(doc, "runtime-config")
    assert hint["error"] in doc["warnings"] and hint["error"].startswith("alpha api enabled with emulated version 1.33")
    assert "Drop --emulated-version to run 1.34 natively, or drop storagemigration.k8s.io/v1alpha1=true" in hint["text"]


@pytest.mark.parametrize("fmt", ["table"])
def test_text_output_prints_the_binarys_line_then_the_remedy(capsys, fmt):
    assert kcompat(["gates", "--binary", "1.34", "--emulated", "1.32", "--feature-gates", "DRAPrioritizedList=true"]) == 2
    err = capsys.readouterr().err.splitlines()
    i = err.index("error: cannot set feature gate DRAPrioritizedList to true, feature is PreAlpha at emulated version 1.32")
    assert err[i + 1].startswith("hint: DRAPrioritizedList appears in 1.33")


def test_runtime_config_of_an_unknown_group_names_the_closest_group(capsys):
    status, doc = run_json(capsys, "apis", "--binary", "1.34", "--runtime-config", "networkin.k8s.io/v1=true")
    assert status == 2 and doc["errors"] == ["unknown api groups networkin.k8s.io"]
    hint = the_hint(doc, "runtime-config")
    assert hint["names"] == ["networkin.k8s.io"]
    assert hint["text"].endswith("drop it from --runtime-config; networkin.k8s.io: did you mean networking.k8s.io?")
    assert run_json(capsys, "apis", "--binary", "1.34", "--runtime-config", "networking.k8s.io/v1=true")[0] == 0


def test_forward_compatibility_flag_on_a_binary_without_it(capsys):
    status, doc = run_json(capsys, "apis", "--binary", "1.32", "--emulated", "1.31", "--emulation-forward-compatible")
    assert status == 2
    hint = the_hint(doc, "runtime-config")
    assert hint["text"] == "--emulation-forward-compatible exists from 1.33: drop it from a 1.32 binary's flags"
