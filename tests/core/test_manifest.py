"""SPEC §3.1-§3.2: manifest schema, its variants, validation messages and safe reading."""

import json

import pytest

from kcompat.core.errors import KcompatError
from kcompat.core.registration import (
    FULL,
    INCREASING,
    SORTED,
    ManifestError,
    load_manifest_bytes,
    registration_for,
)
from kcompat.core.stages import Stage


def spec(version, stage="Alpha", default=False, lock=False, mc=None):
    extra = f'\n    minCompatibilityVersion: "{mc}"' if mc else ""
    return f'  - default: {str(default).lower()}\n    lockToDefault: {str(lock).lower()}\n    preRelease: {stage}\n    version: "{version}"{extra}\n'


def gate(name, *specs, deps=None):
    dep = f"  dependencies: [{', '.join(deps)}]\n" if deps else ""
    return f"- name: {name}\n{dep}  versionedSpecs:\n" + "".join(specs)


def load(text, registration=FULL):
    return load_manifest_bytes(text, "test.yaml", registration=registration)


def problems(text):
    with pytest.raises(ManifestError) as err:
        load(text)
    return [str(p) for p in err.value.problems]


def test_bundled_releases_all_load(catalog):
    kube = {d.info.release: sum(f.origin == "kube" for f in d.manifest.features) for d in catalog.all()}
    client_go = {d.info.release: sum(f.origin == "client-go" for f in d.manifest.features) for d in catalog.all()}
    assert set(kube) == {"1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37", "1.38"}
    # each release's kube and k8s.io/client-go gates are those its recorded patch registers (data/oracle/v<patch>/gates.json)
    for info in catalog.releases:
        if info.status not in ("release", "development"):
            continue  # data that is not read from a recording yet
        recorded = json.loads((catalog.data_dir / "oracle" / f"v{info.patch}" / "gates.json").read_text())
        assert kube[info.release] == sum(g["origin"] == "kube" for g in recorded) > 150, info.release
        assert client_go[info.release] == sum(g["origin"] == "client-go" for g in recorded) >= 2, info.release


def test_unversioned_gate_is_registered_at_0_0(catalog):
    f = catalog.manifest("1.31").by_name["JobManagedBy"]
    assert len(f.specs) == 1 and str(f.specs[0].version) == "0.0"


def test_empty_list_is_a_valid_manifest():
    assert load("[]") == ()


def test_min_compatibility_version_is_accepted_and_inherited():
    (f,) = load(gate("G", spec("1.28", "Beta"), spec("1.28", "Beta", True, mc="1.28"), spec("1.30", "GA", True, True)))
    assert [str(s.effective_min_compatibility) for s in f.specs] == ["None", "1.28", "1.28"]


def test_bundled_1_37_carries_the_real_min_compat_spec(catalog):
    f = catalog.manifest("1.37").by_name["DRAFractionalCapacityRange"]
    assert [str(s.min_compatibility_version) for s in f.specs] == ["None", "1.37"]


def test_dependencies_are_accepted():
    fs = load(gate("A", spec("1.30", "Beta")) + gate("B", spec("1.30", "Beta"), deps=["A"]))
    assert fs[1].dependencies == ("A",)


@pytest.mark.parametrize(
    "text, expected",
    [
        (gate("G", spec("1.31.2")), 'field versionedSpecs[0].version: expected exactly "major.minor"'),
        (gate("G", spec("1.30", "Deprecated")), "cannot start Deprecated at 1.30"),
        (gate("G", spec("1.30"), spec("1.29", "Beta")), "version 1.29 is lower than the previous spec's 1.30"),
        (gate("G", spec("1.30"), spec("1.30")), "duplicate spec for version 1.30"),
        (gate("G", spec("1.30"), spec("1.30", "Beta", mc="1.29")), "change the stage (Alpha -> Beta)"),
        (gate("G", spec("1.30"), spec("1.31")), "changes nothing relative to the previous spec"),
        (gate("G", spec("1.30", "GA", True, True), spec("1.31", "GA", False, False)), "unlocks a gate"),
        (gate("G", spec("1.0", "Deprecated"), spec("1.31", "GA", True)), "GA after Deprecated"),
        (gate("G", spec("1.30", "Beta"), spec("1.31", "Alpha", True)), "Alpha after a more stable stage goes backwards"),
        (gate("G", spec("1.30", "GA", True), spec("1.31", "Beta", True, True)), "Beta after GA goes backwards"),
        (gate("G", spec("1.30", mc="1.29")), "needs a preceding spec at the same version"),
        (gate("G", spec("1.30"), spec("1.31", "Beta", mc="1.30")), "needs a preceding spec at the same version"),
        (gate("G", spec("1.30", "Beta"), spec("1.30", "Beta", True, mc="1.31")), "greater than the spec's version"),
        (gate("G", spec("1.30", "Omega")), "field versionedSpecs[0].preRelease: expected one of Alpha, Beta, GA, Deprecated"),
        ('- name: G\n  versionedSpecs:\n  - {default: maybe, lockToDefault: false, preRelease: Alpha, version: "1.30"}\n', "field versionedSpecs[0].default: expected true or false"),
        ('- name: G\n  versionedSpecs:\n  - {default: false, preRelease: Alpha, version: 1.10}\n', "a YAML number loses digits"),
        ('- name: G\n  versionedSpecs:\n  - {default: false, preRelease: Alpha, version: "1.30", colour: red}\n', "field versionedSpecs[0].colour: unknown field"),
        (gate("G", spec("1.30")) + gate("G", spec("1.31")), "gate G, field name: duplicate gate"),
        (gate("AllAlpha", spec("1.30")), "meta-gate"),
        (gate("Bad=Name", spec("1.30")), "could never be set by --feature-gates"),
        (gate("A", spec("1.30", "Beta"), deps=["Missing"]), "cannot add dependency from A to unknown feature Missing"),
        (gate("A", spec("1.30"), deps=["B"]) + gate("B", spec("1.30"), deps=["A"]), "cycle detected"),
        (gate("A", spec("1.30", "Beta")) + gate("B", spec("1.30", "GA", True), deps=["A"]), " feature B cannot depend on BETA feature A at version 1.30"),
        (gate("A", spec("1.30", "Beta")) + gate("B", spec("1.30", "Beta", True), deps=["A"]), "default-enabled feature B cannot depend on default-disabled feature A at version 1.30"),
        ("- 3\n", "expected a mapping with name and versionedSpecs"),
        ("name: G\n", "expected a list of gates at the top level, got a mapping"),
        ("", "got an empty file"),
        ("- name: G\n  versionedSpecs: []\n", "expected a non-empty list of specs"),
    ],
)
def test_invalid_manifests_name_the_file_gate_and_field(text, expected):
    found = problems(text)
    assert any(expected in p for p in found), found
    assert all(p.startswith("test.yaml") for p in found)


def test_all_problems_of_a_file_are_listed():
    found = problems(gate("A", spec("1.30", "Omega")) + gate("B", spec("1.31.1")))
    assert len(found) == 2 and "gate A" in found[0] and "gate B" in found[1]


def test_allowed_sequences():
    # Alpha->GA directly, GA default false, Beta->Deprecated, Deprecated->Deprecated, 1.0 GA -> Deprecated
    load(gate("A", spec("1.28"), spec("1.30", "GA", True)))
    load(gate("B", spec("1.30", "GA", False)))
    load(gate("C", spec("1.28", "Beta", True), spec("1.30", "Deprecated", True), spec("1.31", "Deprecated", False)))
    load(gate("D", spec("1.0", "GA", True), spec("1.29", "Deprecated", False)))


def test_pre_1_33_registration_only_sorts(catalog):
    # 1.32's AllowDNSOnlyNodeCSR starts Deprecated at 1.31: 1.32 accepted that, 1.33 rules would not
    f = catalog.manifest("1.32").by_name["AllowDNSOnlyNodeCSR"]
    assert f.specs[0].stage is Stage.DEPRECATED
    (g,) = load(gate("G", spec("1.31", "Beta"), spec("1.29")), registration=SORTED)
    assert [str(s.version) for s in g.specs] == ["1.29", "1.31"]


@pytest.mark.parametrize(
    "data, expected",
    [
        (b"a: &x [1]\nb: *x\n", "anchors and aliases are not allowed"),
        (b"\x00\x01\x02", "binary data"),
        (b"\xc3\x28- name", "not UTF-8"),
        (b"\xff\xfe- nam", "UTF-16 text (byte-order mark) that does not decode"),
        (b"- name: [unclosed\n", "not valid YAML (line"),
        (b"[" * 5000, "nested too deeply"),
        (b"- " * 100 + b"x", "nested too deeply"),
        (b"- " * 3 + b"x", "expected a mapping"),
    ],
)
def test_hostile_or_broken_files_are_refused_clearly(data, expected):
    with pytest.raises(KcompatError) as err:
        load_manifest_bytes(data, "upload.yaml")
    assert expected in str(err.value) and "upload.yaml" in str(err.value)


def test_alias_bomb_is_refused_before_expansion():
    bomb = "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(f"{c}: &{c} [*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True))
    with pytest.raises(KcompatError, match="anchors and aliases"):
        load_manifest_bytes(bomb, "bomb.yaml")


def test_size_cap():
    with pytest.raises(KcompatError, match="larger than the limit"):
        load_manifest_bytes(b"[]" + b" " * 2000, "big.yaml", max_bytes=1000)


def test_registration_rules_follow_the_binary_release():
    from kcompat.core.versions import parse_version as V

    assert [registration_for(V(r)) for r in ("1.31", "1.32", "1.33", "1.34", "1.35", "1.37")] == [SORTED, SORTED, INCREASING, INCREASING, FULL, FULL]
    assert registration_for(None) == FULL


def test_1_33_rules_need_strictly_increasing_versions_but_allow_no_op_transitions():
    no_op = gate("G", spec("1.29"), spec("1.30"))
    load(no_op, registration=INCREASING)  # 1.33/1.34 had no "changes nothing" rule
    with pytest.raises(ManifestError, match="changes nothing"):
        load(no_op)
    same_version = gate("G", spec("1.30", "Beta"), spec("1.30", "Beta", True, mc="1.30"))
    with pytest.raises(ManifestError, match="strictly increasing"):
        load(same_version, registration=INCREASING)
    load(same_version)


def test_1_35_rules_compare_with_the_inherited_min_compat():
    # the GA spec inherits mc 1.29, so a second 1.30 spec with mc 1.29 duplicates it
    text = gate("G", spec("1.29", "Beta"), spec("1.29", "Beta", True, mc="1.29"), spec("1.30", "GA", True), spec("1.30", "GA", True, mc="1.29"))
    assert any("duplicate spec for version 1.30" in p for p in problems(text))
    text = gate("G", spec("1.30", "Beta"), spec("1.30", "Beta", False, mc="1.30"))
    assert any("changes nothing" in p for p in problems(text))


def test_dependency_checked_at_version_minus_one_for_a_spec_without_min_compat():
    # D is default-on at 1.34 only with mc >= 1.34; F (default-on at 1.34, no mc) is checked at mc 1.33
    text = gate("D", spec("1.34", "Beta"), spec("1.34", "Beta", True, mc="1.34")) + gate("F", spec("1.34", "Beta", True), deps=["D"])
    assert any("default-enabled feature F cannot depend on default-disabled feature D at version 1.34" in p for p in problems(text))
