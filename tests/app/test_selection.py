"""The shared selection bar and the URL (AppTest on dashboard/app.py)."""

import pytest
from conftest import current_page, metric, open_app, rerun, texts


def test_default_load_writes_the_default_selection_into_the_url():
    # The landing selection: the newest release at its own release, as the binary starts without flags.
    at = open_app()
    assert current_page(at) == "gates"
    assert at.query_params == {"binary": "1.37", "emulated": "1.37"}
    assert at.selectbox(key="sel_binary").value == "1.37"
    assert at.selectbox(key="sel_emulated").value == "1.37"  # its option reads "1.37 (not emulating)"
    assert at.selectbox(key="sel_min_compat").value == "1.36"
    assert at.text_input(key="sel_feature_gates").value == ""
    assert not at.warning and not at.error


def test_binary_choices_are_the_usable_bundled_releases():
    at = open_app()
    # each release named with the patch its data is read from; a pre-release named as one
    assert at.selectbox(key="sel_binary").options == [
        "1.31 (v1.31.14)", "1.32 (v1.32.13)", "1.33 (v1.33.13)", "1.34 (v1.34.12)", "1.35 (v1.35.8)", "1.36 (v1.36.5)",
        "1.37 (v1.37.2)", "1.38 (v1.38.0-beta.0, pre-release)",
    ]


def test_emulated_choices_are_the_allowed_range_of_the_binary():
    assert open_app(binary="1.36").selectbox(key="sel_emulated").options == [
        "1.36 (not emulating)", "1.35", "1.34", "1.33",
    ]
    assert open_app(binary="1.32").selectbox(key="sel_emulated").options == ["1.32 (not emulating)", "1.31"]
    assert open_app(binary="1.31").selectbox(key="sel_emulated").options == ["1.31 (not emulating)"]


def test_deep_link_reproduces_the_view():
    at = open_app(binary="1.35", emulated="1.33", min_compat="1.33", feature_gates="AllBeta=false")
    assert at.query_params == {"binary": "1.35", "emulated": "1.33", "min_compat": "1.33", "feature_gates": "AllBeta=false"}
    assert at.selectbox(key="sel_binary").value == "1.35"
    assert at.selectbox(key="sel_emulated").value == "1.33"
    assert at.selectbox(key="sel_min_compat").value == "1.33"
    assert at.text_input(key="sel_feature_gates").value == "AllBeta=false"
    assert not at.warning


def test_min_compat_is_read_only_before_1_35():
    at = open_app(binary="1.34", emulated="1.32")
    fixed = at.selectbox(key="sel_min_compat_fixed")
    assert fixed.disabled and fixed.value == "1.31"
    assert "no `--min-compatibility-version` flag" in fixed.help


def test_binary_without_data_is_kept_and_shown_in_red():
    at = open_app(binary="9.99", emulated="1.33")
    assert not at.warning
    errors = texts(at.error)
    assert any("**Nothing to show**: there is no bundled data for release 9.99" in e for e in errors), errors
    assert at.query_params == {"binary": "9.99", "emulated": "1.33"}
    assert at.selectbox(key="sel_binary").value == "9.99"
    assert not at.dataframe  # no table of some other binary


def test_invalid_emulated_is_explained_and_defaulted():
    at = open_app(binary="1.36", emulated="abc")
    (warning,) = texts(at.warning)
    assert warning.startswith("emulated='abc' in the URL is not a valid emulated version")
    assert at.query_params == {"binary": "1.36", "emulated": "1.36"}
    assert at.selectbox(key="sel_emulated").value == "1.36"


def test_emulated_out_of_range_is_kept_and_refused_like_the_binary():
    at = open_app(binary="1.36", emulated="1.31")
    assert not at.warning
    (error,) = texts(at.error)
    assert error.startswith("**A 1.36 binary would refuse to start** with `--emulated-version=1.31`")
    assert "`error: emulation version 1.31 is not between [1.33, 1.36.0]`" in error
    assert at.query_params == {"binary": "1.36", "emulated": "1.31"}
    assert at.selectbox(key="sel_emulated").value == "1.31"
    assert "1.31 (out of range)" in at.selectbox(key="sel_emulated").options
    assert not at.dataframe and not at.metric  # no answer for a binary that does not start


def test_min_compat_without_the_flag_is_refused_like_the_binary():
    at = open_app(binary="1.33", emulated="1.31", min_compat="1.31")
    assert not at.warning
    (error,) = texts(at.error)
    assert "`error: unknown flag: --min-compatibility-version`" in error
    assert at.query_params["min_compat"] == "1.31"


def test_malformed_feature_gates_show_the_error_and_change_nothing():
    at = open_app(binary="1.36", emulated="1.33", feature_gates="AllAlpha=true,JobManagedBy")
    assert texts(at.error) == ["missing bool value for JobManagedBy"]
    assert any("nothing is applied" in c for c in texts(at.caption))
    # The table shows the defaults: AllAlpha was not applied.
    default = open_app(binary="1.36", emulated="1.33")
    assert metric(at, "Enabled") == metric(default, "Enabled")
    # The value stays in the box and in the URL so it can be fixed.
    assert at.query_params["feature_gates"] == "AllAlpha=true,JobManagedBy"


def test_rejected_flag_string_shows_the_binarys_error():
    at = open_app(binary="1.36", emulated="1.33", feature_gates="ContainerStopSignals=true,Nope=true")
    errors = texts(at.error)
    assert "unrecognized feature gate: Nope" in errors
    at = open_app(binary="1.36", emulated="1.33", feature_gates="AuthorizePodWebsocketUpgradeCreatePermission=true")
    assert texts(at.error) == [
        "cannot set feature gate AuthorizePodWebsocketUpgradeCreatePermission to true, feature is PreAlpha at "
        "emulated version 1.33, min compatibility version 1.33"
    ]


def test_accepted_flags_show_their_warnings():
    at = open_app(binary="1.36", emulated="1.33", feature_gates="KMSv1=true,ContainerStopSignals=true")
    assert not at.error
    warnings = texts(at.warning)
    assert any("KMSv1" in w for w in warnings)  # setting a Deprecated gate
    assert any(w.startswith("component has alpha features enabled in emulated version") for w in warnings)


def test_changing_the_emulated_version_updates_the_url():
    at = open_app()
    at.selectbox(key="sel_emulated").set_value("1.35")
    rerun(at)
    assert at.query_params == {"binary": "1.37", "emulated": "1.35"}
    assert at.selectbox(key="sel_min_compat").options == ["1.35", "1.34 (default)"]


def test_changing_the_binary_keeps_an_accepted_emulated_version():
    at = open_app(binary="1.36", emulated="1.34")
    at.selectbox(key="sel_binary").set_value("1.35")
    rerun(at)
    assert at.query_params == {"binary": "1.35", "emulated": "1.34"}
    assert not at.info
    at.selectbox(key="sel_binary").set_value("1.32")
    rerun(at)
    assert at.query_params == {"binary": "1.32", "emulated": "1.32"}
    assert not at.warning
    # Not silently: the page says why the emulated version changed, once (beside the Gates page's component notes).
    def notes():
        return [i for i in texts(at.info) if " differs from kube-apiserver here: " not in i]

    assert notes() == [
        "A 1.32 binary does not accept --emulated-version=1.34 (it accepts 1.31–1.32): the emulated version is now 1.32."
    ]
    rerun(at)
    assert not notes()


def test_min_compat_and_feature_gates_controls_update_the_url():
    at = open_app(binary="1.36", emulated="1.35")
    at.selectbox(key="sel_min_compat").set_value("1.33")
    rerun(at)
    assert at.query_params["min_compat"] == "1.33"
    at.text_input(key="sel_feature_gates").set_value("AllBeta=false")
    rerun(at)
    assert at.query_params == {"binary": "1.36", "emulated": "1.35", "min_compat": "1.33", "feature_gates": "AllBeta=false"}
    at.selectbox(key="sel_min_compat").set_value("1.34")  # the default: dropped from the URL
    rerun(at)
    assert "min_compat" not in at.query_params


def test_switching_pages_keeps_the_selection():
    at = open_app(binary="1.35", emulated="1.33", feature_gates="AllBeta=false")
    for page in ("changes", "timeline", "matrix", "gate_detail", "about", "gates"):
        at.switch_page(f"app_pages/{page}.py")
        rerun(at)
        assert at.query_params == {"binary": "1.35", "emulated": "1.33", "feature_gates": "AllBeta=false"}, page
        if page in ("matrix", "about"):  # the selection does not change these pages: no bar
            assert not [s for s in at.selectbox if s.key == "sel_emulated"]
        else:
            assert at.selectbox(key="sel_emulated").value == "1.33"


def test_selection_is_restored_when_the_menu_drops_the_query_string():
    at = open_app(binary="1.35", emulated="1.33")
    at.query_params.clear()  # what the navigation menu does on a page switch
    at.switch_page("app_pages/timeline.py")
    rerun(at)
    assert at.query_params == {"binary": "1.35", "emulated": "1.33"}


PAGES = ["gates", "changes", "timeline", "gate_detail"]


@pytest.mark.parametrize("page", PAGES)
def test_every_page_follows_a_deep_link(page):
    at = open_app(page, binary="1.35", emulated="1.33", feature_gates="KMSv1=true")
    assert current_page(at) == page
    assert at.query_params == {"binary": "1.35", "emulated": "1.33", "feature_gates": "KMSv1=true"}
    assert (at.selectbox(key="sel_binary").value, at.selectbox(key="sel_emulated").value) == ("1.35", "1.33")
    assert at.text_input(key="sel_feature_gates").value == "KMSv1=true"
    assert not at.error


@pytest.mark.parametrize("page", PAGES)
def test_every_page_explains_and_defaults_values_that_are_not_versions(page):
    at = open_app(page, binary="abc", emulated="x.y", feature_gates="JobManagedBy")
    assert current_page(at) == page
    warnings = texts(at.warning)
    assert any(w.startswith("binary='abc'") for w in warnings)
    assert any(w.startswith("emulated='x.y'") for w in warnings)
    assert "missing bool value for JobManagedBy" in texts(at.error)
    assert at.query_params == {"binary": "1.37", "emulated": "1.37", "feature_gates": "JobManagedBy"}


@pytest.mark.parametrize("page", PAGES)
def test_every_page_refuses_an_emulated_version_out_of_range(page):
    at = open_app(page, binary="1.36", emulated="1.30", feature_gates="Nope=true")
    assert current_page(at) == page
    (error,) = texts(at.error)
    assert "A 1.36 binary would refuse to start" in error and "emulation version 1.30 is not between [1.33, 1.36.0]" in error
    assert at.selectbox(key="sel_emulated").value == "1.30"
    assert not at.dataframe


@pytest.mark.parametrize("page", ["matrix", "about"])
def test_pages_without_the_selection_keep_it_in_the_url(page):
    at = open_app(page, binary="1.36", emulated="1.30")
    assert at.query_params == {"binary": "1.36", "emulated": "1.30"}
    assert not at.error and not [s for s in at.selectbox if s.key == "sel_binary"]


def test_what_else_a_binary_change_changed_is_said():
    from dashboard.frame.selection_bar import adjustment_notes
    from dashboard.state.selection import Selection, after_change

    old = Selection("1.36", "1.33")
    new = after_change(old, "binary", "1.37")
    assert new == Selection("1.37", "1.37")
    assert adjustment_notes(old, new, "binary") == (
        "A 1.37 binary does not accept --emulated-version=1.33 (it accepts 1.34–1.37): the emulated version is now 1.37.",
    )
    old = Selection("1.36", "1.35", "1.33")
    new = after_change(old, "binary", "1.37")
    assert new == Selection("1.37", "1.35")
    assert adjustment_notes(old, new, "binary") == (
        "--min-compatibility-version=1.33 does not fit a 1.37 binary emulating 1.35: the default is used now.",
    )
    assert adjustment_notes(old, after_change(old, "binary", "1.36"), "binary") == ()
