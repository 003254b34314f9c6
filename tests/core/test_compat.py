"""SPEC §2: defaults, flag values and per-release ranges of emulation and min compatibility."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kcompat.core.compat import (
    allowed_versions,
    parse_version_flag,
    rules_for,
    select_versions,
)
from kcompat.core.errors import KcompatError
from kcompat.core.versions import parse_version


def sel(binary, emulated=None, min_compat=None):
    return select_versions(parse_version(binary) if binary else None, emulated, min_compat)


@pytest.mark.parametrize(
    "binary, low, high",
    [("1.31", "1.31", "1.31"), ("1.32", "1.31", "1.32"), ("1.33", "1.31", "1.33"), ("1.34", "1.31", "1.34"),
     ("1.35", "1.32", "1.35"), ("1.36", "1.33", "1.36"), ("1.37", "1.34", "1.37"), ("1.36.2", "1.33", "1.36")],
)
def test_emulation_range_per_release(binary, low, high):
    assert allowed_versions(parse_version(binary)).emulated_range == (low, high)


def test_floor_is_binary_minus_three_but_never_below_1_31():
    assert str(rules_for(parse_version("1.33")).floor) == "1.31"
    assert str(rules_for(parse_version("1.34")).floor) == "1.31"
    assert str(rules_for(parse_version("1.36")).floor) == "1.33"


def test_min_compat_flag_only_from_1_35():
    assert not allowed_versions(parse_version("1.34")).min_compat_flag
    assert allowed_versions(parse_version("1.35")).min_compat_flag
    s = sel("1.34", "1.33", "1.32")
    assert not s.valid and "unknown flag: --min-compatibility-version" in s.errors[0]


def test_defaults_follow_the_binary():
    s = sel("1.36")
    assert (str(s.emulated), str(s.min_compat)) == ("1.36", "1.35")
    assert s.valid and not s.is_emulating


def test_min_compat_default_is_emu_minus_one_but_not_below_the_floor():
    assert str(sel("1.36", "1.34").min_compat) == "1.33"
    assert str(sel("1.36", "1.33").min_compat) == "1.33"  # floor 1.33
    assert str(sel("1.33", "1.31").min_compat) == "1.31"  # the 1.31 minimum dominates
    assert str(sel("1.35", "1.33", "1.33").min_compat) == "1.33"


def test_1_31_binary_must_not_emulate():
    s = sel("1.31")
    assert s.valid and str(s.min_compat) == "1.30"
    s = sel("1.31", "1.30")
    assert s.errors == (
        "emulation version needs to be equal to binary version(1.31) in compatibility-version alpha, got 1.30",
    )


def test_1_32_may_emulate_1_31_with_mc_fixed():
    s = sel("1.32", "1.31")
    assert s.valid and str(s.min_compat) == "1.31"
    s = sel("1.32", "1.30")
    assert s.errors == ("emulation version 1.30 is not between [1.31, 1.32.0]",)


def test_below_the_floor_gives_both_errors():
    # SPEC §8 example 7
    assert sel("1.33", "1.30").errors == (
        "emulation version 1.30 is not between [1.31, 1.33.0]",
        "minCompatibilityVersion version 1.31 is not between [1.31, 1.30]",
    )
    assert sel("1.36", "1.33").valid
    assert sel("1.35", "1.31").errors[0] == "emulation version 1.31 is not between [1.32, 1.35.0]"


def test_emulation_above_the_binary_is_rejected_with_patch_zero_bound():
    assert sel("1.36.2", "1.37").errors == ("emulation version 1.37 is not between [1.33, 1.36.0]",)


def test_min_compat_above_emulated_is_rejected():
    assert sel("1.36", "1.34", "1.35").errors == ("minCompatibilityVersion version 1.35 is not between [1.33, 1.34]",)
    assert sel("1.36", "1.34", "1.32").errors == ("minCompatibilityVersion version 1.32 is not between [1.33, 1.34]",)


@pytest.mark.parametrize(
    "value, message",
    [
        ("1.30.2", "patch version not allowed, got: kube=1.30.2"),
        ("kube=1.30,kube=1.32", "duplicate version flag, kube=1.30 and kube=1.32"),
        ("wardle=1.2", "component not registered: wardle"),
        ("1.foo", 'illegal version string "1.foo"'),
    ],
)
def test_version_flag_errors(value, message):
    with pytest.raises(KcompatError) as err:
        parse_version_flag(value, "emulated-version")
    assert message in str(err.value)


@pytest.mark.parametrize("value", ["1.30", "v1.30", "1.30.0", "1.30.0-beta.0", "kube=1.30", " kube = 1.30"])
def test_version_flag_accepts_and_reduces_to_major_minor(value):
    assert str(parse_version_flag(value, "emulated-version")) == "1.30"


def test_rejected_version_flag_keeps_the_defaults():
    s = sel("1.36", "1.foo")
    assert s.flags_rejected and not s.valid
    assert str(s.emulated) == "1.36"


def test_without_binary_no_range_applies():
    s = sel(None, "1.10")
    assert s.valid and str(s.emulated) == "1.10" and str(s.min_compat) == "1.9"
    with pytest.raises(KcompatError, match="emulated version is required"):
        sel(None)


def test_binary_before_1_31_is_rejected():
    with pytest.raises(KcompatError, match="predates compatibility versions"):
        rules_for(parse_version("1.30"))


def test_version_flag_errors_are_the_binarys_own_text():
    assert sel("1.36", "1.foo").errors == ('illegal version string "1.foo"',)
    assert sel("1.36", "wardle=1.2").errors == ("component not registered: wardle",)
    assert sel("1.34", "1.33", "1.32").errors == ("unknown flag: --min-compatibility-version",)


def test_version_flags_are_read_as_csv_like_pflag_string_slices():
    assert str(parse_version_flag('"1.33"', "emulated-version")) == "1.33"
    assert str(parse_version_flag("1.33\r\n", "emulated-version")) == "1.33"
    assert str(parse_version_flag(["1.33", ""], "emulated-version")) == "1.33"


@given(st.text(alphabet=st.sampled_from('1.3,"\r\n\x00 a\té'), max_size=12) | st.text(max_size=12))
def test_a_flag_value_reads_as_the_csv_reader_reads_it(value):
    """The values a CSV reader returns whole are returned without it, the others read by it: the
    same record or the same refusal."""
    import csv
    import io

    from kcompat.core.compat import read_flag_csv

    try:
        expected = [] if value == "" else next((row for row in csv.reader(io.StringIO(value), strict=True) if row), "error")
    except csv.Error:
        expected = "error"
    try:
        got = read_flag_csv(value)
    except KcompatError:
        got = "error"
    assert got == expected


def test_selection_cache_tells_pre_release_binaries_apart():
    assert sel("1.36", "1.30").errors[0] == "emulation version 1.30 is not between [1.33, 1.36.0]"
    assert sel("v1.36.0-alpha.1", "1.30").errors[0] == "emulation version 1.30 is not between [1.33, 1.36.0-alpha.1]"
    # from 1.33 the emulation version is the bare major.minor (the real v1.38.0-beta.0 prints "1.35");
    # 1.31/1.32 added the binary's pre-release
    assert str(sel("v1.36.0-alpha.1", "1.33").emulated_display) == "1.33"
    assert str(sel("v1.32.0-alpha.1", "1.31").emulated_display) == "1.31.0-alpha.1"


def test_range_bound_keeps_major_minor_patch_only():
    assert sel("1.36.2.1", "1.30").errors[0] == "emulation version 1.30 is not between [1.33, 1.36.0]"
