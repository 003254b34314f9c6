"""Hostile input to the core: every value of any length is answered in linear time with a short
message (versions, flags, manifests), and the limits name themselves."""

from __future__ import annotations

import time

import pytest
import yaml

from kcompat.core import safe_yaml
from kcompat.core.compat import (
    parse_binary_version,
    parse_version_flag,
    select_versions,
)
from kcompat.core.errors import ECHO_LIMIT, KcompatError, cut, shown
from kcompat.core.flags import parse_feature_gates
from kcompat.core.gates import evaluate_gates
from kcompat.core.gates import spec_at as spec_at_from_gates
from kcompat.core.manifest import spec_at
from kcompat.core.registration import (
    MAX_GATES,
    ManifestError,
    first_cycle_root,
    load_manifest_bytes,
)
from kcompat.core.safe_yaml import read_yaml_text
from kcompat.core.versions import MAX_VERSION_LENGTH, parse_version

LONG_WITH_NEWLINE = "1" * 100_000 + "\n"
HUGE_COMPONENT = "1." + "9" * 5_000
HOSTILE_VERSIONS = [
    LONG_WITH_NEWLINE,
    "1.36" + "x" * 100_000 + "\n",
    "\n" * 50_000 + "1.36",
    HUGE_COMPONENT,
    "9" * 5_000 + ".1",
    "1.36.0-" + "a." * 50_000 + "\n",
    "v" + "1." * 50_000,
]


def _cpu(fn, *args):
    start = time.process_time()
    try:
        fn(*args)
    except KcompatError as exc:
        return time.process_time() - start, str(exc)
    return time.process_time() - start, None


@pytest.mark.parametrize("text", HOSTILE_VERSIONS, ids=lambda t: f"{len(t)}chars")
def test_hostile_versions_are_refused_fast_with_a_short_message(text):
    for parse in (parse_version, parse_binary_version, lambda t: parse_version_flag(t, "emulated-version")):
        cpu, message = _cpu(parse, text)
        assert cpu < 0.1
        assert message is not None and len(message) < 600, message
        assert "characters" in message


def test_a_5000_digit_component_gets_the_binarys_own_error_cut():
    with pytest.raises(KcompatError) as err:
        parse_version("1." + "9" * 5_000)
    text = str(err.value)
    assert text.startswith('illegal non-numeric version component "999')
    assert "strconv.ParseUint: parsing" in text and "value out of range" in text and "(5,000 characters)" in text


def test_short_versions_parse_as_go_does():
    # uint64's largest value and leading zeros after the first component (generic parsing)
    assert parse_version("1." + str(2**64 - 1)).minor == 2**64 - 1
    with pytest.raises(KcompatError, match="value out of range"):
        parse_version("1." + str(2**64))
    assert parse_version("1." + "0" * 40 + "36").minor == 36
    assert str(parse_version("  v1.36.2-alpha.1+abc  ")) == "1.36.2-alpha.1+abc"
    assert str(parse_version("1.36junk")) == "1.36"  # generic parsing ignores what follows
    with pytest.raises(KcompatError, match="could not parse"):
        parse_version("1.36\n")  # Go's "." does not match a newline


def test_the_length_cap_is_stated():
    ok = "1.36" + " " * (MAX_VERSION_LENGTH - 4)
    assert parse_version(ok).minor == 36
    with pytest.raises(KcompatError, match=f"longer than the {MAX_VERSION_LENGTH} characters"):
        parse_version(ok + " ")


def test_long_flag_values_are_answered_uncached_and_cut():
    sel = select_versions(parse_binary_version("1.36"), "1.33" + "x" * 100_000)
    assert not sel.valid and all(len(e) < 600 for e in sel.errors)
    with pytest.raises(KcompatError) as err:
        parse_feature_gates("A" * 90_000 + "=maybe")
    assert len(str(err.value)) < 600


def test_unknown_gate_names_are_cut(catalog):
    sel = select_versions(parse_binary_version("1.36"))
    evaluation = evaluate_gates(catalog.manifest("1.36"), sel, "Z" * 50_000 + "=true")
    assert evaluation.errors and all(len(e) < 200 for e in evaluation.errors)


def test_messages_are_cut_and_listed_twenty_at_a_time():
    assert cut("x" * 100_000) == "x" * ECHO_LIMIT + "… (100,000 characters)"
    lines = shown([f"problem {i}" for i in range(9_000)])
    assert len(lines) == 21 and lines[-1] == "… and 8,980 more"


# --- manifests ------------------------------------------------------------------------------


def _gate(name, deps=()):
    dep = f"  dependencies: [{', '.join(deps)}]\n" if deps else ""
    return f"- name: {name}\n{dep}  versionedSpecs:\n  - {{version: \"1.30\", default: false, lockToDefault: false, preRelease: Alpha}}\n"


def test_duplicate_keys_are_refused_naming_the_key_and_line():
    text = "- name: A\n  name: B\n  versionedSpecs: []\n"
    with pytest.raises(KcompatError, match=r"duplicate key 'name' \(line 2, column 3; first at line 1\)"):
        load_manifest_bytes(text, "dup.yaml")
    with pytest.raises(KcompatError, match="duplicate key 'version'"):
        read_yaml_text('{version: "1.30", version: "1.31"}', "flow.yaml")


def test_more_gates_than_any_release_is_refused_before_the_full_parse():
    text = "".join(_gate(f"G{i}") for i in range(MAX_GATES + 1))
    start = time.process_time()
    with pytest.raises(KcompatError, match=f"more than {MAX_GATES:,} gates"):
        load_manifest_bytes(text, "many.yaml")
    assert time.process_time() - start < 1


def test_a_3000_deep_dependency_chain_gets_a_clear_message():
    text = "".join(_gate(f"G{i}", [f"G{i + 1}"] if i < 2_999 else []) for i in range(3_000))
    with pytest.raises(KcompatError, match="gates"):
        load_manifest_bytes(text, "chain.yaml")


def test_a_chain_as_long_as_the_limit_is_checked_without_recursion():
    n = MAX_GATES
    text = "".join(_gate(f"G{i:04}", [f"G{i + 1:04}"] if i < n - 1 else []) for i in range(n))
    features = load_manifest_bytes(text, "chain.yaml")
    assert len(features) == n
    cyclic = text.replace("- name: G0999\n", "- name: G0999\n  dependencies: [G0000]\n")
    with pytest.raises(ManifestError, match="cycle detected with feature G0000"):
        load_manifest_bytes(cyclic, "cycle.yaml")


def test_cycle_search_is_iterative_on_long_chains():
    from kcompat.core.manifest import Feature, FeatureSpec
    from kcompat.core.stages import Stage

    spec = (FeatureSpec(parse_version("1.30"), False, False, Stage.ALPHA),)
    chain = [Feature(f"G{i}", spec, (f"G{i + 1}",) if i < 9_999 else ("G0",)) for i in range(10_000)]
    assert first_cycle_root(chain, {f.name: f for f in chain}) == "G0"
    chain[-1] = Feature("G9999", spec)
    assert first_cycle_root(chain, {f.name: f for f in chain}) is None


def test_spec_at_lives_with_the_manifest_and_stays_importable_from_gates(catalog):
    assert spec_at is spec_at_from_gates
    feature = catalog.manifest("1.36").by_name["JobManagedBy"]
    assert spec_at(feature, parse_version("1.36"), None, False).stage.value == "GA"
    assert spec_at(feature, parse_version("1.32"), None, False).stage.value == "Beta"


def test_the_c_loader_is_used_and_the_python_fallback_agrees(catalog, monkeypatch):
    raw = (catalog.data_dir / "features" / "v1.36.yaml").read_bytes()
    assert safe_yaml._LOADER is getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    # the kube gates alone: their edges to client-go gates are checked on the merged set
    fast = load_manifest_bytes(raw, "v1.36.yaml", check_dependencies=False)
    monkeypatch.setattr(safe_yaml, "_LOADER", yaml.SafeLoader)
    assert load_manifest_bytes(raw, "v1.36.yaml", check_dependencies=False) == fast
    with pytest.raises(KcompatError, match="duplicate key"):
        read_yaml_text("a: 1\na: 2\n", "py.yaml")
    with pytest.raises(KcompatError, match="anchors and aliases"):
        read_yaml_text("a: &x 1\nb: *x\n", "py.yaml")
