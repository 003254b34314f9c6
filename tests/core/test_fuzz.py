"""Fuzzing (Hypothesis): hostile versions, flag strings and manifests never raise anything but
the project's error, and every rejection names what was wrong."""

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcompat.core.compat import parse_version_flag, select_versions
from kcompat.core.errors import KcompatError
from kcompat.core.flags import parse_feature_gates
from kcompat.core.registration import load_manifest_bytes
from kcompat.core.versions import parse_version

SETTINGS = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])

version_like = st.one_of(
    st.text(max_size=30),
    st.from_regex(r"\A\s?v?[0-9]{1,3}(\.[0-9]{0,3}){0,3}([-+][0-9A-Za-z.\-]{0,8}){0,2}\s?\Z"),
    st.from_regex(r"\A(kube|wardle|)=?[0-9.]{0,8}(,[a-z]*=?[0-9.]{0,6}){0,2}\Z"),
)


@SETTINGS
@given(version_like)
def test_versions_and_version_flags(text):
    for fn in (parse_version, lambda t: parse_version_flag(t, "emulated-version")):
        try:
            fn(text)
        except KcompatError as exc:
            assert str(exc)


@SETTINGS
@given(st.sampled_from([None, "1.31", "1.33", "1.36", "v1.37.0-alpha.1"]), version_like, version_like)
def test_version_selection(binary, emulated, min_compat):
    try:
        s = select_versions(parse_version(binary) if binary else None, emulated, min_compat)
    except KcompatError as exc:
        assert str(exc)
        return
    assert s.valid or all(s.errors)


gate_words = st.sampled_from(["JobManagedBy", "AllAlpha", "AllBeta", "KMSv1", "kube:", "wardle:", "=", ",", ":", " ", "\u3000", "true", "false", "1", "0", "T", "yes", "=="])
flag_text = st.one_of(st.text(max_size=80), st.lists(gate_words, max_size=30).map("".join))


@SETTINGS
@given(st.lists(flag_text, min_size=1, max_size=3))
def test_feature_gate_strings(values):
    try:
        parse_feature_gates(values)
    except KcompatError as exc:
        assert str(exc)


scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=False, width=16),
                    st.sampled_from(["", "1.30", "1.31.2", "Alpha", "Beta", "GA", "Deprecated", "PreAlpha", "x", "1.0"]))
spec_dicts = st.dictionaries(
    st.sampled_from(["version", "default", "lockToDefault", "preRelease", "minCompatibilityVersion", "extra"]), scalars, max_size=6
)
gate_dicts = st.fixed_dictionaries(
    {"name": st.one_of(st.sampled_from(["A", "B", "AllAlpha", "", "a b", "X=Y"]), st.text(max_size=5))},
    optional={"versionedSpecs": st.one_of(st.lists(spec_dicts, max_size=4), scalars),
              "dependencies": st.one_of(st.lists(st.sampled_from(["A", "B", "C"]), max_size=3), scalars)},
)
documents = st.one_of(st.lists(gate_dicts, max_size=5), scalars, st.dictionaries(st.text(max_size=3), scalars, max_size=3))


@SETTINGS
@given(documents)
def test_manifest_structures(document):
    text = yaml.safe_dump(document)
    try:
        load_manifest_bytes(text, "fuzz.yaml")
    except KcompatError as exc:
        assert "fuzz.yaml" in str(exc)


@SETTINGS
@given(st.binary(max_size=300))
def test_manifest_bytes(data):
    try:
        load_manifest_bytes(data, "fuzz.bin")
    except KcompatError as exc:
        assert "fuzz.bin" in str(exc)
