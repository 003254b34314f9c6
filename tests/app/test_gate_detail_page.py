"""The Gate detail page: spec history, state per release, description, owners, KEP."""

from conftest import current_page, metric, open_app, rerun, texts


def frames(at):
    return [d.value for d in at.dataframe]


def test_job_managed_by(catalog):
    at = open_app("gate_detail", binary="1.36", emulated="1.33", gate="JobManagedBy")
    assert current_page(at) == "gate_detail"
    assert at.subheader[0].value == "JobManagedBy"
    info = catalog.gate_info["JobManagedBy"]
    assert info.description in [t.value for t in at.text]
    assert "@mimowo" in [t.value for t in at.text]
    (link,) = at.get("link_button")
    assert link.proto.url == info.kep == "https://kep.k8s.io/4368"
    assert (metric(at, "Enabled at 1.33"), metric(at, "Stage at 1.33"), metric(at, "Stage in 1.36"), metric(at, "Locked")) == (
        "on", "Beta", "GA", "no",
    )


def test_spec_history_is_the_binarys_manifest(catalog):
    at = open_app("gate_detail", binary="1.36", emulated="1.33", gate="JobManagedBy")
    specs, _releases = frames(at)[:2]  # then "What changed, release by release" (issue 19)
    feature = catalog.manifest("1.36").by_name["JobManagedBy"]
    assert specs[["version", "stage", "default", "locked"]].values.tolist() == [
        [str(s.version), s.stage.value, s.default, s.lock_to_default] for s in feature.specs
    ]
    assert at.get("vega_lite_chart")  # the gate's own timeline


def test_state_in_every_release_with_the_patch_its_data_is(catalog):
    at = open_app("gate_detail", binary="1.36", emulated="1.33", gate="JobManagedBy")
    releases = frames(at)[1]
    assert list(releases["release"]) == list(catalog.usable_releases())
    expected_data = [catalog.info(r).source_text for r in catalog.usable_releases()]
    assert expected_data[-1] == "v1.38.0-beta.0, pre-release" and "v1.36.5" in expected_data
    assert list(releases["data"]) == expected_data
    assert list(releases["stage"])[:5] == ["Alpha", "Beta", "Beta", "Beta", "GA"]
    # listed by every release up to 1.37; v1.38.0-beta.0 no longer registers it (removed after GA)
    assert list(releases["listed"]) == [r != "1.38" for r in catalog.usable_releases()]


def test_gate_removed_from_the_binary_still_has_its_release_history():
    at = open_app("gate_detail", binary="1.36", emulated="1.33", gate="AllowServiceLBStatusOnNonLB")
    assert any("does not register" in i for i in texts(at.info))
    assert "Not in the 1.36 manifest." in texts(at.caption)
    releases = frames(at)[0]
    assert list(releases["listed"]) == [True, True, True, True, False, False, False, False]


def test_missing_description_and_kep_are_said_so():
    at = open_app("gate_detail", binary="1.33", gate="AppArmor")
    captions = texts(at.caption)
    assert "No description in the data." in captions
    assert "No KEP link in the data." in captions


def test_a_kep_written_with_http_is_a_kep_link(catalog):
    """Issue 28: SidecarContainers' comment writes its KEP as http://kep.k8s.io/753, and the page
    said "No KEP link in the data". Every spelling of a kep.k8s.io link is now its https form."""
    from kcompat.core.keps import kep_link

    assert catalog.gate_info["SidecarContainers"].kep == "https://kep.k8s.io/753"
    at = open_app("gate_detail", binary="1.36", gate="SidecarContainers")
    assert "No KEP link in the data." not in texts(at.caption)
    (button,) = [b for b in at.get("link_button") if b.proto.label == "KEP"]
    assert button.proto.url == "https://kep.k8s.io/753"
    changes = frames(at)[-1]
    assert set(changes["KEP"]) == {"https://kep.k8s.io/753"}
    # the 68 http links of the data, and nothing that is not a link, become https links or none
    assert kep_link("http://kep.k8s.io/753") == kep_link("HTTPS://KEP.K8S.IO/0753/") == kep_link("kep.k8s.io/753") == "https://kep.k8s.io/753"
    assert kep_link("https://github.com/kubernetes/enhancements/issues/753") == "https://github.com/kubernetes/enhancements/issues/753"
    assert kep_link("http://example.com/x") is None and kep_link("javascript:alert(1)") is None and kep_link("") is None
    assert all(info.kep is None or info.kep.startswith("https://") for info in catalog.gate_info.values())


def test_markdown_in_a_description_stays_text(catalog):
    name = "CPUManagerPolicyAlphaOptions"
    at = open_app("gate_detail", binary="1.36", gate=name)
    assert catalog.gate_info[name].description in [t.value for t in at.text]


def test_unknown_gate_in_the_url_is_explained():
    at = open_app("gate_detail", binary="1.36", gate="jobManagedBy")
    (warning,) = texts(at.warning)
    assert warning == (
        "gate='jobManagedBy' in the URL names no feature gate of any bundled release (names are case-sensitive); pick one below."
    )
    assert "gate" not in at.query_params
    assert any("Pick a feature gate" in i for i in texts(at.info))


def test_without_a_gate_the_page_asks_for_one():
    at = open_app("gate_detail")
    assert at.selectbox(key="gate_name").value is None
    assert any("Pick a feature gate" in i for i in texts(at.info))


def test_picking_a_gate_updates_the_url():
    at = open_app("gate_detail", binary="1.35", emulated="1.34")
    at.selectbox(key="gate_name").set_value("KMSv1")
    rerun(at)
    assert at.query_params == {"binary": "1.35", "emulated": "1.34", "gate": "KMSv1"}
    assert at.subheader[0].value == "KMSv1"


def changes_frame(at):
    return next(f for f in frames(at) if "what" in f.columns)


def test_what_changed_release_by_release_with_the_kep(catalog):
    """Issue 19: the release it appeared in, each stage/default/lock change, each with the KEP link."""
    at = open_app("gate_detail", binary="1.36", emulated="1.33", gate="JobManagedBy")
    changes = changes_frame(at)
    feature = catalog.manifest("1.36").by_name["JobManagedBy"]
    assert changes["what"].iloc[0] == f"appeared in {feature.specs[0].version} as Alpha off"
    assert list(changes["change"]) == ["appeared", "stage", "default", "stage", "locked", "removed"]
    assert list(changes["release"]) == ["1.30", "1.32", "1.32", "1.35", "1.35", "1.38"]
    assert set(changes["KEP"]) == {catalog.gate_info["JobManagedBy"].kep}


def test_removed_gate_lists_its_removal_and_its_placeholder_start():
    at = open_app("gate_detail", binary="1.36", gate="AllowServiceLBStatusOnNonLB")
    changes = changes_frame(at)
    assert list(changes["what"]) == [
        "appeared in 1.0 (a placeholder: older than the gate) as GA on",
        "stage GA -> Deprecated in 1.29",
        "default on -> off in 1.29",
        "locked off in 1.32",
        "removed in 1.35: always off",
    ]
    assert changes["release"].iloc[0] == "1.0 (placeholder)"
    assert any(c.startswith("The data dates this gate to 1.0, a placeholder") for c in texts(at.caption))


def test_the_placeholder_is_said_on_the_gates_table_too():
    at = open_app(binary="1.36", emulated="1.33")
    table = at.dataframe[0].value
    history = dict(zip(table["gate"], table["history_from"], strict=True))
    assert history["JobManagedBy"] == "1.30"
    assert history["AllowServiceExternalIPs"] == "not recorded (dated 1.0, a placeholder)"


def test_the_patch_that_changed_the_gate_is_named():
    at = open_app("gate_detail", binary="1.36", emulated="1.36", gate="SchedulerAsyncAPICalls")
    assert any("patch releases that changed SchedulerAsyncAPICalls" in c and "1.35.1 default flipped (at 1.35)" in c
               for c in texts(at.caption))


def test_a_1_33_binary_shows_the_ga_step_of_a_later_release(catalog):
    """JobManagedBy for a 1.33 binary: its manifest stops at Beta (1.32); the GA and lock of 1.35
    come from the newest manifest that lists it (1.37), before the removal in 1.38: no jump from
    Beta to "removed, before: GA on locked"."""
    at = open_app("gate_detail", binary="1.33", gate="JobManagedBy")
    changes = next(f for f in frames(at) if "change" in f.columns)
    rows = changes[["release", "change", "after"]].values.tolist()
    assert rows == [
        ["1.30", "appeared", "Alpha off"], ["1.32", "stage", "Beta"], ["1.32", "default", "on"],
        ["1.35", "stage", "GA"], ["1.35", "locked", "on"], ["1.38", "removed", "always on"],
    ]
    assert any("then the 1\\.37 manifest's for the later releases" in m.value for m in at.markdown)  # (md escapes the dot)
