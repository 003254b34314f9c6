"""Laws of the engine, checked with Hypothesis."""

from hypothesis import given, settings
from hypothesis import strategies as st

from kcompat.core.compat import select_versions
from kcompat.core.errors import KcompatError
from kcompat.core.flags import parse_feature_gates
from kcompat.core.gates import evaluate_gates
from kcompat.core.versions import major_minor, parse_version

RELEASES = ["1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37"]


@settings(deadline=None)  # the first example loads a manifest from disk
@given(st.sampled_from(RELEASES), st.sampled_from(["", ".0", ".3", ".0-rc.1"]))
def test_emulated_equal_binary_reproduces_each_gates_newest_spec(catalog, release, suffix):
    manifest = catalog.manifest(release)
    binary = parse_version(release + suffix)
    ev = evaluate_gates(manifest, select_versions(binary))
    top = (binary.major, binary.minor)
    for feature, gate in zip(manifest.features, ev.gates):
        newest = [s for s in feature.specs if (s.version.major, s.version.minor) <= top]
        if release >= "1.35":  # the default min compat (binary-1) may hold back a compatibility-gated spec
            default_mc = major_minor(binary.major, binary.minor - 1)
            newest = [s for s in newest if s.effective_min_compatibility is None or s.effective_min_compatibility <= default_mc]
        spec = newest[-1]
        assert (gate.stage, gate.default, gate.locked, gate.enabled) == (spec.stage, spec.default, spec.lock_to_default, spec.default)


flag_alphabet = st.sampled_from(list("=,: \t\nTtFf01") + ["JobManagedBy", "AllAlpha", "AllBeta", "kube", "true", "false", "KMSv1", "\u00a0", "\x85", "x"])
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
