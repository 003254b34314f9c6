"""The shared selection bar and the URL (AppTest on dashboard/app.py)."""

import pytest

from conftest import current_page, metric, open_app, rerun, texts


def test_default_load_writes_the_default_selection_into_the_url():
    at = open_app()
    assert current_page(at) == "gates"
    assert at.query_params == {"binary": "1.36", "emulated": "1.36"}
    assert at.selectbox(key="sel_binary").value == "1.36"
    assert at.selectbox(key="sel_emulated").value == "1.36"
    assert at.selectbox(key="sel_min_compat").value == "1.35"
    assert at.text_input(key="sel_feature_gates").value == ""
    assert not at.warning and not at.error


def test_binary_choices_are_the_usable_bundled_releases():
    at = open_app()
    assert at.selectbox(key="sel_binary").options == ["1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37 (development snapshot)"]


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


def test_invalid_binary_is_explained_and_defaulted():
    at = open_app(binary="9.99", emulated="1.33")
    (warning,) = texts(at.warning)
    assert "binary='9.99'" in warning and "no bundled release 9.99" in warning
    # 1.33 is not in the range of the default 1.36 binary? It is: kept.
    assert at.query_params == {"binary": "1.36", "emulated": "1.33"}


def test_invalid_emulated_is_explained_and_defaulted():
    at = open_app(binary="1.36", emulated="abc")
    (warning,) = texts(at.warning)
    assert warning.startswith("emulated='abc' in the URL is not a valid emulated version")
    assert at.query_params == {"binary": "1.36", "emulated": "1.36"}
    assert at.selectbox(key="sel_emulated").value == "1.36"


def test_emulated_out_of_range_is_explained_and_defaulted():
    at = open_app(binary="1.36", emulated="1.31")
    (warning,) = texts(at.warning)
    assert "emulated='1.31'" in warning and "1.33–1.36" in warning
    assert "emulation version 1.31 is not between [1.33, 1.36.0]" in warning
    assert at.query_params["emulated"] == "1.36"


def test_min_compat_without_the_flag_is_explained():
    at = open_app(binary="1.33", emulated="1.31", min_compat="1.31")
    (warning,) = texts(at.warning)
    assert "min_compat='1.31'" in warning and "no --min-compatibility-version flag" in warning
    assert "min_compat" not in at.query_params


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
    at.selectbox(key="sel_emulated").set_value("1.34")
    rerun(at)
    assert at.query_params == {"binary": "1.36", "emulated": "1.34"}
    assert at.selectbox(key="sel_min_compat").options == ["1.34", "1.33 (default)"]


def test_changing_the_binary_keeps_an_accepted_emulated_version():
    at = open_app(binary="1.36", emulated="1.34")
    at.selectbox(key="sel_binary").set_value("1.35")
    rerun(at)
    assert at.query_params == {"binary": "1.35", "emulated": "1.34"}
    at.selectbox(key="sel_binary").set_value("1.32")
    rerun(at)
    assert at.query_params == {"binary": "1.32", "emulated": "1.32"}
    assert not at.warning


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
        assert at.selectbox(key="sel_emulated").value == "1.33"


def test_selection_is_restored_when_the_menu_drops_the_query_string():
    at = open_app(binary="1.35", emulated="1.33")
    at.query_params.clear()  # what the navigation menu does on a page switch
    at.switch_page("app_pages/timeline.py")
    rerun(at)
    assert at.query_params == {"binary": "1.35", "emulated": "1.33"}


PAGES = ["gates", "changes", "timeline", "matrix", "gate_detail", "about"]


@pytest.mark.parametrize("page", PAGES)
def test_every_page_follows_a_deep_link(page):
    at = open_app(page, binary="1.35", emulated="1.33", feature_gates="KMSv1=true")
    assert current_page(at) == page
    assert at.query_params == {"binary": "1.35", "emulated": "1.33", "feature_gates": "KMSv1=true"}
    assert (at.selectbox(key="sel_binary").value, at.selectbox(key="sel_emulated").value) == ("1.35", "1.33")
    assert at.text_input(key="sel_feature_gates").value == "KMSv1=true"
    assert not at.error


@pytest.mark.parametrize("page", PAGES)
def test_every_page_explains_and_defaults_invalid_values(page):
    at = open_app(page, binary="9.99", emulated="abc", feature_gates="JobManagedBy")
    assert current_page(at) == page
    warnings = texts(at.warning)
    assert any(w.startswith("binary='9.99'") for w in warnings)
    assert any(w.startswith("emulated='abc'") for w in warnings)
    assert "missing bool value for JobManagedBy" in texts(at.error)
    assert at.query_params == {"binary": "1.36", "emulated": "1.36", "feature_gates": "JobManagedBy"}


@pytest.mark.parametrize("page", PAGES)
def test_every_page_explains_an_emulated_version_out_of_range(page):
    at = open_app(page, binary="1.36", emulated="1.30", feature_gates="Nope=true")
    assert any(w.startswith("emulated='1.30'") and "1.33–1.36" in w for w in texts(at.warning))
    assert "unrecognized feature gate: Nope" in texts(at.error)
    assert at.selectbox(key="sel_emulated").value == "1.36"
