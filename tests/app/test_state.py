"""The selection's pure parts: URL values -> selection, control changes, escaping."""

import pytest

from dashboard.state.selection import (
    PARAM_KEYS,
    Selection,
    after_change,
    binary_choices,
    landing_selection,
    missing_data,
    resolve_selection,
    startup_errors,
)
from dashboard.text import code, md
from kcompat.core.compat import allowed_versions
from kcompat.core.versions import parse_version

USABLE = ("1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37")


def resolve(**raw):
    return resolve_selection(raw, USABLE, "1.36", {"1.30": "broken file"})


def test_empty_url_gives_the_newest_binary_at_its_own_release():
    # as the binary starts without --emulated-version and as the CLI answers without --emulated
    r = resolve()
    assert r.selection == Selection("1.36", "1.36", None, "")
    assert r.selection == landing_selection("1.36")
    assert r.problems == ()
    assert r.selection.params() == {"binary": "1.36", "emulated": "1.36"}


def test_a_binary_alone_is_not_emulating():
    assert resolve(binary="1.36").selection == Selection("1.36", "1.36", None, "")


def test_deep_link_is_kept_and_canonicalised():
    r = resolve(binary="v1.36.2", emulated="v1.33", feature_gates="AllAlpha=true")
    assert r.selection == Selection("1.36", "1.33", None, "AllAlpha=true", patch="2")  # the binary keeps its patch (v1.36.2)
    assert r.problems == ()


@pytest.mark.parametrize(
    ("raw", "named", "shown"),
    [
        ({"binary": "abc"}, "binary='abc'", Selection("1.36", "1.36")),
        ({"binary": "1.36", "emulated": "abc"}, "emulated='abc'", Selection("1.36", "1.36")),
        ({"binary": "1.36", "emulated": "1.33.2"}, "emulated='1.33.2'", Selection("1.36", "1.36")),
    ],
)
def test_values_that_are_not_versions_are_named_and_defaulted(raw, named, shown):
    r = resolve(**raw)
    assert r.selection == shown
    (problem,) = r.problems
    assert problem.startswith(named)
    assert "showing" in problem


@pytest.mark.parametrize(
    ("raw", "selection", "errors", "no_data"),
    [
        ({"binary": "1.36", "emulated": "1.30"}, Selection("1.36", "1.30"),
         ("emulation version 1.30 is not between [1.33, 1.36.0]",
          "minCompatibilityVersion version 1.33 is not between [1.33, 1.30]"), None),
        ({"binary": "1.36", "emulated": "1.37"}, Selection("1.36", "1.37"),
         ("emulation version 1.37 is not between [1.33, 1.36.0]",), None),
        ({"binary": "1.34", "emulated": "1.32", "min_compat": "1.31"}, Selection("1.34", "1.32", "1.31"),
         ("unknown flag: --min-compatibility-version",), None),
        ({"binary": "1.36", "emulated": "1.34", "min_compat": "1.35"}, Selection("1.36", "1.34", "1.35"),
         ("minCompatibilityVersion version 1.35 is not between [1.33, 1.34]",), None),
        ({"binary": "1.30", "emulated": "1.30"}, Selection("1.30", "1.30"),
         ("binary version 1.30 predates compatibility versions: --emulated-version exists from 1.31",),
         "the bundled data of release 1.30 cannot be used (broken file)"),
        ({"binary": "9.99", "emulated": "9.99"}, Selection("9.99", "9.99"), (),
         "there is no bundled data for release 9.99 (bundled: 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37)"),
    ],
)
def test_versions_the_binary_refuses_are_kept_with_its_errors(raw, selection, errors, no_data):
    r = resolve(**raw)
    assert r.selection == selection and r.problems == ()
    assert startup_errors(r.selection) == errors
    assert missing_data(r.selection, USABLE, {"1.30": "broken file"}) == no_data


def test_min_compat_range_on_1_36():
    assert resolve(binary="1.36", emulated="1.35", min_compat="1.33").selection.min_compat == "1.33"
    # The default (emulated - 1) is stored as "no value".
    assert resolve(binary="1.36", emulated="1.35", min_compat="1.34").selection.min_compat is None


def test_every_value_that_is_not_a_version_at_once():
    r = resolve(binary="nine", emulated="abc", min_compat="x")
    assert len(r.problems) == 3
    assert r.selection == Selection("1.36", "1.36", None, "")


def test_choices_come_from_the_core_rules():
    for release in USABLE:
        info = allowed_versions(parse_version(release))
        c = binary_choices(release)
        assert c.emulated == tuple(e.emulated for e in info.emulated)
        assert c.min_compat_flag == info.min_compat_flag
    assert binary_choices("1.36").emulated == ("1.33", "1.34", "1.35", "1.36")
    assert binary_choices("1.31").emulated == ("1.31",)


def test_changing_the_binary_keeps_what_it_accepts():
    s = Selection("1.36", "1.33", "1.33", "Foo=true")
    assert after_change(s, "binary", "1.35") == Selection("1.35", "1.33", "1.33", "Foo=true")  # still in [1.32, 1.33]
    assert after_change(s, "binary", "1.37") == Selection("1.37", "1.37", None, "Foo=true")  # 1.33 < floor 1.34
    assert after_change(Selection("1.36", "1.34", "1.33"), "binary", "1.37") == Selection("1.37", "1.34", None)
    assert after_change(s, "binary", "1.32") == Selection("1.32", "1.32", None, "Foo=true")


def test_changing_the_emulated_version_drops_a_min_compat_out_of_range():
    s = Selection("1.36", "1.35", "1.34")
    assert after_change(Selection("1.36", "1.35", "1.33"), "emulated", "1.34") == Selection("1.36", "1.34", None)
    assert after_change(s, "emulated", "1.33") == Selection("1.36", "1.33", None)
    assert after_change(Selection("1.36", "1.36", "1.33"), "emulated", "1.35") == Selection("1.36", "1.35", "1.33")


def test_feature_gates_and_min_compat_changes():
    s = Selection("1.36", "1.35")
    assert after_change(s, "feature_gates", "A=true").feature_gates == "A=true"
    assert after_change(s, "min_compat", "1.33").min_compat == "1.33"
    assert after_change(s, "min_compat", "1.34").min_compat is None  # the default


def test_a_typed_version_the_binary_refuses_is_kept():
    s = Selection("1.36", "1.35")
    assert after_change(s, "emulated", "v1.30") == Selection("1.36", "1.30")
    assert after_change(s, "min_compat", "1.20") == Selection("1.36", "1.35", "1.20")
    assert after_change(s, "binary", "v1.38.1") == Selection("1.38", "1.35", patch="1")
    assert after_change(s, "emulated", "abc") == Selection("1.36", "abc")  # the next run explains it


def test_query_string_round_trip():
    s = Selection("1.36", "1.33", "1.33", "AllAlpha=true,Foo=false", "2", "kube-scheduler")
    assert Selection.from_query(s.query) == s
    assert Selection.from_query(Selection("1.36", "1.36").query) == Selection("1.36", "1.36")
    assert set(s.params()) == set(PARAM_KEYS)


def test_markdown_escaping_keeps_data_as_text():
    assert md("**bold** [x](http://e) <b>:red[x]</b> $x$") == (
        r"\*\*bold\*\* \[x\]\(http\:\/\/e\) \<b\>\:red\[x\]\<\/b\> \$x\$"
    )
    assert md("a\nb") == "a  \nb"
    assert code("a`b") == "``a`b``"
