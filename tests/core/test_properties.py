"""Laws of the engine, checked with Hypothesis."""

from hypothesis import given, settings
from hypothesis import strategies as st

from kcompat.core.compat import select_versions
from kcompat.core.errors import KcompatError
from kcompat.core.flags import parse_feature_gates
from kcompat.core.gates import evaluate_gates, spec_at
from kcompat.core.manifest import Feature, FeatureSpec, Manifest
from kcompat.core.stages import MANIFEST_STAGES, Stage
from kcompat.core.versions import major_minor, parse_version

RELEASES = ["1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37"]


@settings(deadline=None)  # the first example loads a manifest from disk
@given(st.sampled_from(RELEASES), st.sampled_from(["", ".0", ".3", ".0-rc.1"]))
def test_emulated_equal_binary_reproduces_each_gates_newest_spec(catalog, release, suffix):
    manifest = catalog.manifest(release)
    binary = parse_version(release + suffix)
    ev = evaluate_gates(manifest, select_versions(binary))
    top = (binary.major, binary.minor)
    for feature, gate in zip(manifest.features, ev.gates, strict=True):
        newest = [s for s in feature.specs if (s.version.major, s.version.minor) <= top]
        if release >= "1.35":  # the default min compat (binary-1) may hold back a compatibility-gated spec
            default_mc = major_minor(binary.major, binary.minor - 1)
            newest = [s for s in newest if s.effective_min_compatibility is None or s.effective_min_compatibility <= default_mc]
        spec = newest[-1]
        assert (gate.stage, gate.default, gate.locked, gate.enabled) == (spec.stage, spec.default, spec.lock_to_default, spec.default)


flag_alphabet = st.sampled_from([*list("=,: \t\nTtFf01"), "JobManagedBy", "AllAlpha", "AllBeta", "kube", "true", "false", "KMSv1", "\xa0", "\x85", "x"])
flag_strings = st.lists(flag_alphabet, max_size=25).map("".join) | st.text(max_size=60)


@settings(max_examples=400, deadline=None)
@given(flag_strings)
def test_flag_parser_raises_only_the_project_error(text):
    try:
        parse_feature_gates(text)
    except KcompatError as exc:
        assert str(exc)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["1.33", "1.36", "1.37"]), flag_strings, st.one_of(st.none(), st.text(max_size=12), st.sampled_from(["1.33", "1.34", "v1.35.0", "kube=1.34"])))
def test_evaluation_never_raises_and_is_valid_or_explains(catalog, release, flags, emulated):
    ev = evaluate_gates(catalog.manifest(release), select_versions(parse_version(release), emulated or None), flags)
    assert ev.valid or all(isinstance(e, str) and e for e in ev.errors)
    assert len(ev.gates) == len(catalog.manifest(release))


# --- the gate table against the per-gate reference (spec_at) on made-up manifests ----------

_minor = st.integers(min_value=25, max_value=40)
_spec = st.builds(
    lambda minor, stage, default, lock, need: FeatureSpec(
        major_minor(1, minor), default, lock, stage, None if need is None else major_minor(1, need),
        None if need is None else major_minor(1, need),
    ),
    _minor, st.sampled_from(list(MANIFEST_STAGES)), st.booleans(), st.booleans(), st.none() | _minor,
)
# any order of specs (real manifests are ascending): the pick must not rely on it
_manifests = st.lists(st.lists(_spec, max_size=4), min_size=1, max_size=12).map(
    lambda gates: Manifest(tuple(Feature(f"G{i:02}", tuple(specs)) for i, specs in enumerate(gates)))
)


@settings(max_examples=300, deadline=None)
@given(_manifests, st.sampled_from(["1.33", "1.34", "1.35", "1.36", "1.37"]), _minor, _minor)
def test_gate_table_is_spec_at_of_every_gate(manifest, release, emulated, min_compat):
    sel = select_versions(parse_version(release), f"1.{emulated}", f"1.{min_compat}" if release >= "1.35" else None)
    ev = evaluate_gates(manifest, sel)
    for feature, gate in zip(manifest.features, ev.gates, strict=True):
        spec = spec_at(feature, sel.emulated, sel.min_compat, sel.rules.gates_use_min_compat)
        assert gate == (feature.name, spec.default, spec.stage, spec.default, spec.lock_to_default, False, "default")
    alpha_on = sorted(g.name for g in ev.gates if g.stage is Stage.ALPHA and g.enabled)
    expected = [] if not (alpha_on and release >= "1.34" and sel.is_emulating) else [
        f"component has alpha features enabled in emulated version, this is unsupported: features=[{' '.join(alpha_on)}]"
    ]
    assert list(ev.warnings) == expected
