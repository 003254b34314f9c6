"""One URL-state mechanism: every page keeps its own view in the URL through
``dashboard.state.view_state.ViewState`` (the selection through ``dashboard/frame/selection_bar.py``). A link with
a full set of a page's keys opens that view, and the keys survive a rerun and a trip through the
navigation menu (which drops the query string) to another page and back."""

import re
from pathlib import Path

import pytest
from conftest import ROOT, open_app, rerun, texts

SEL = {"binary": "1.36", "emulated": "1.33"}

#: The modules that may read or write ``st.query_params``.
URL_MODULES = {"dashboard/state/view_state.py", "dashboard/frame/selection_bar.py"}
_QUERY_PARAMS = re.compile(r"\bst\.query_params\b|\bquery_params\s*\[")


def _touching() -> set[str]:
    out = set()
    for path in sorted((ROOT / "dashboard").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if _QUERY_PARAMS.search(text):
            out.add(path.relative_to(ROOT).as_posix())
    return out


def test_only_the_url_modules_touch_the_query_string():
    touching = _touching()
    assert touching >= URL_MODULES  # the grep finds real uses
    assert touching - URL_MODULES == set()
    for moved in ("dashboard/app_pages/apis.py", "dashboard/app_pages/plan.py", "dashboard/app_pages/gate_detail.py"):
        assert moved not in touching


def _about_section() -> str:
    text = (ROOT / "data" / "SOURCES.md").read_text(encoding="utf-8")
    return re.findall(r"^## (.*)$", text, re.M)[0].strip()


#: page -> a full set of its own URL keys, each with a value other than its default.
VIEWS = {
    "gates": {"gates_quick": "Beta,changed", "gates_text": "Job", "gates_sort": "stage"},
    "timeline": {"timeline_stages": "Alpha,Beta", "timeline_text": "pod", "timeline_sort": "name", "timeline_from": "30"},
    "changes": {"changes_tab": "other", "changes_other": "1.34.12", "changes_other_show": "all differences"},
    "matrix": {"matrix_text": "pod", "matrix_changed": "true", "matrix_removable": "1.39"},
    "apis": {
        "runtime_config": "networking.k8s.io/v1beta1=true",
        "emulation_forward_compatible": "true",
        "runtime_config_emulation_forward_compatible": "true",
        "apis_tab": "storage",
        "apis_served": "served",
        "apis_stages": "beta",
        "apis_groups": "core,networking.k8s.io",
        "apis_text": "cidr",
    },
    "plan": {"to": "1.36", "plan_jumps": "true"},
    "cluster": {"cluster_snippet": "kubeadm"},
    "manifests": {"manifests_runtime_config": "networking.k8s.io/v1beta1=true", "manifests_efc": "true", "manifests_all": "true"},
    "gate_detail": {"gate": "JobManagedBy", "gate_from": "25"},
    "about": {"about_section": None},  # filled in from data/SOURCES.md
}


def _view(page: str) -> dict[str, str]:
    view = dict(VIEWS[page])
    if page == "about":
        view["about_section"] = _about_section()
    return view


def _own(at, view) -> dict[str, str]:
    return {k: at.query_params.get(k) for k in view}


def _url_warnings(at) -> list[str]:
    return [w for w in texts(at.warning) if "in the URL" in w]


@pytest.mark.parametrize("page", list(VIEWS))
def test_a_full_view_survives_a_rerun_and_a_trip_to_another_page(page):
    view = _view(page)
    at = open_app(page, **SEL, **view)
    assert _url_warnings(at) == []
    assert _own(at, view) == view
    rerun(at)
    assert _own(at, view) == view and _url_warnings(at) == []

    other = "about" if page != "about" else "gates"
    at.query_params.clear()  # what the navigation menu does on a page switch
    at.switch_page(f"app_pages/{other}.py")
    rerun(at)
    assert not set(view) & set(at.query_params)  # another page does not carry this page's view
    assert at.query_params["binary"] == "1.36"

    at.query_params.clear()
    at.switch_page(f"app_pages/{page}.py" if page != "gates" else "app_pages/gates.py")
    rerun(at)
    assert _own(at, view) == view
    assert {k: at.query_params[k] for k in SEL} == SEL


def test_the_view_state_module_is_what_pages_use():
    pages = sorted(Path(ROOT / "dashboard" / "app_pages").glob("*.py"))
    for path in pages:
        text = path.read_text(encoding="utf-8")
        uses = "ViewState(" in text or "filter_controls(" in text or "gates_panel(" in text
        assert uses, f"{path.name} keeps no view in the URL through ViewState"


#: page -> a URL key whose value must be one of the control's options.
OPTION_KEYS = {
    "about": "about_section",
    "gates": "gates_sort",
    "timeline": "timeline_sort",
    "changes": "changes_tab",
    "apis": "apis_tab",
    "cluster": "cluster_snippet",
}


@pytest.mark.parametrize("page", list(OPTION_KEYS))
def test_a_url_value_that_is_not_an_option_is_named_on_every_page(page):
    key = OPTION_KEYS[page]
    at = open_app(page, **SEL, **{key: "no-such-option"})
    assert any(w.startswith(f"{key}='no-such-option' in the URL is not one of") for w in _url_warnings(at)), _url_warnings(at)
    assert key not in at.query_params  # dropped from the link too


def test_every_page_with_a_view_state_names_its_bad_url_values():
    for path in sorted(Path(ROOT / "dashboard" / "app_pages").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "ViewState(" in text:
            assert ".show_problems()" in text, f"{path.name} reads URL values through ViewState but never shows their problems"
