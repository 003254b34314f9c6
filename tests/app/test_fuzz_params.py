"""Fuzzing the URL: any query parameters resolve to a selection the pages answer or one shown as
refused (the binary's startup errors, or no bundled data), and every replaced value is named in
a message; a sample also runs through the real app (AppTest) without an exception."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dashboard.state.selection import missing_data, resolve_selection, startup_errors
from kcompat.core.compat import parse_binary_version, select_versions

USABLE = ("1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37")
values = st.one_of(
    st.none(),
    st.text(max_size=20),
    st.sampled_from(["1.36", "1.33", "v1.35.2", "1.30", "9.99", "1.3x", "kube=1.34", "1.34,1.35", "", " ", "1.37.0-rc.1"]),
)
params = st.fixed_dictionaries({k: values for k in ("binary", "emulated", "min_compat", "feature_gates")})


@settings(max_examples=1000, suppress_health_check=[HealthCheck.too_slow])
@given(params)
def test_any_url_is_answered_or_refused_never_silently_replaced(raw):
    resolved = resolve_selection(raw, USABLE, "1.36", {})
    sel = resolved.selection
    refused = startup_errors(sel) or missing_data(sel, USABLE)
    if not refused:  # the pages answer: for a selection the binary accepts, with bundled data
        assert sel.binary in USABLE
        assert select_versions(parse_binary_version(sel.binary), sel.emulated, sel.min_compat).valid
    for key in ("binary", "emulated"):
        value = raw.get(key)
        if value not in (None, "") and key + "=" not in " ".join(resolved.problems):
            # a value that was kept must be what the selection shows
            assert value.strip().lstrip("v").startswith(getattr(sel, key)) or "kube=" in value


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(params)
def test_the_app_never_shows_a_traceback_for_any_url(raw):
    from streamlit.testing.v1 import AppTest

    from tests.app.conftest import APP

    at = AppTest.from_file(str(APP), default_timeout=60)
    for key, value in raw.items():
        if value is not None:
            at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
