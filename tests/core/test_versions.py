"""SPEC §1: parsing, rendering, comparison and minor arithmetic of version strings."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kcompat.core.errors import KcompatError
from kcompat.core.versions import (
    major_minor,
    mm,
    parse_generic,
    parse_semantic,
    parse_version,
    subtract_minor,
    with_patch_zero,
)


@pytest.mark.parametrize(
    "text, rendered, semver",
    [
        ("1.31", "1.31", False),
        ("v1.31", "1.31", False),
        (" 1.31 ", "1.31", False),
        ("v1.31.2", "1.31.2", True),
        ("1.31.0-beta.0", "1.31.0-beta.0", True),
        ("v1.34.0-alpha.1+abc123", "1.34.0-alpha.1+abc123", True),
        ("1.02.3", "1.2.3", False),  # generic: only the first field may not have a leading zero
        ("1.2a.3", "1.2", False),  # generic: the extra part is ignored
        ("42.0.0-1", "42.0.0-1", True),
        ("1.2.3.4", "1.2.3.4", False),
    ],
)
def test_parse_accepts_what_version_parse_accepts(text, rendered, semver):
    v = parse_version(text)
    assert str(v) == rendered
    assert v.semver is semver


@pytest.mark.parametrize(
    "text, message",
    [
        ("1", 'illegal version string "1"'),
        ("1.foo", 'illegal version string "1.foo"'),
        ("1..3", 'illegal version string "1..3"'),
        ("vv1.2.3", 'could not parse "vv1.2.3" as version'),
        ("v 1.2.3", 'could not parse "v 1.2.3" as version'),
        ("", 'could not parse "" as version'),
        ("01.2", 'illegal zero-prefixed version component "01" in "01.2"'),
        ("1.31\n", 'could not parse "1.31\\n" as version'),
        ("99999999999999999999.1", "value out of range"),
    ],
)
def test_parse_rejects_with_a_message_quoting_the_input(text, message):
    with pytest.raises(KcompatError) as err:
        parse_version(text)
    assert message in str(err.value)


def test_semantic_requires_three_fields_and_valid_prerelease():
    with pytest.raises(KcompatError):
        parse_semantic("1.31")
    with pytest.raises(KcompatError, match="zero-prefixed"):
        parse_semantic("1.2.3-01")
    with pytest.raises(KcompatError, match="pre-release/metadata"):
        parse_semantic("1.2.3-beta_1")
    assert parse_generic("1.2.3-beta_1") == parse_generic("1.2.3")


def test_comparison_counts_extra_fields_only_when_non_zero():
    assert parse_version("1.31") == parse_version("1.31.0")
    assert parse_version("1.31.2") > parse_version("1.31")
    assert parse_version("1.9") < parse_version("1.10")
    assert hash(parse_version("1.31")) == hash(parse_version("1.31.0"))


def test_prerelease_ordering_only_between_two_semantic_versions():
    assert parse_version("1.31.0-beta.0") < parse_version("1.31.0")
    assert parse_version("1.31.0-alpha.2") < parse_version("1.31.0-alpha.10")
    assert parse_version("1.31.0-alpha.1") < parse_version("1.31.0-beta.0")
    # a major.minor value never looks at the pre-release
    assert parse_version("1.31") == parse_version("1.31.0-beta.0")


def test_subtract_minor_saturates_and_never_borrows_from_major():
    assert subtract_minor(major_minor(1, 0), 1) == major_minor(1, 0)
    assert str(subtract_minor(major_minor(1, 20), 5)) == "1.15"
    assert str(subtract_minor(parse_version("v2.1.7"), 3)) == "2.0"


def test_major_minor_and_patch_zero():
    v = parse_version("1.33.7")
    assert str(mm(v)) == "1.33"
    assert str(with_patch_zero(v)) == "1.33.0"
    assert str(with_patch_zero(parse_version("1.33"))) == "1.33.0"


versions = st.builds(
    lambda a, b, c, pre: f"{a}.{b}.{c}" + (f"-{pre}" if pre else ""),
    st.integers(0, 50), st.integers(0, 50), st.integers(0, 50),
    st.sampled_from(["", "alpha.0", "alpha.1", "beta.2", "rc.10", "x"]),
)


@given(versions)
def test_parse_render_round_trip(text):
    v = parse_version(text)
    assert parse_version(str(v)) == v
    assert str(parse_version(str(v))) == str(v)


@given(versions, versions, versions)
def test_ordering_of_semantic_versions_is_a_total_order(a, b, c):
    va, vb, vc = parse_version(a), parse_version(b), parse_version(c)
    assert (va < vb) + (va == vb) + (va > vb) == 1
    if va <= vb and vb <= vc:
        assert va <= vc


@given(st.text(max_size=40))
def test_any_string_parses_or_raises_the_project_error(text):
    try:
        parse_version(text)
    except KcompatError as exc:
        assert str(exc)


def test_messages_quote_like_go():
    from kcompat.core.versions import go_quote

    assert go_quote('a"b\\c\n\x07\x7f\xa0é') == '"a\\"b\\\\c\\n\\a\\x7f\\u00a0é"'
    with pytest.raises(KcompatError, match=r'strconv\.ParseUint: parsing "99999999999999999999": value out of range'):
        parse_version("1.99999999999999999999")
