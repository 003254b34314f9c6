"""Issue 19, item 5: the plan lists storage-version changes only for resources served at that
step; ``versions`` on a release without bundled data says so. Real bundled data."""

import json

from kcompat.answers.plan import PlanQuery, plan_for
from kcompat.cli.main import main as kcompat
from kcompat.core.storage import storage_versions
from kcompat.core.versions import parse_version


def test_plan_storage_changes_only_for_served_resources(catalog):
    plan = plan_for(catalog, PlanQuery("1.33@1.32", "1.36"))
    step = plan.steps[0]  # 1.33 -> 1.34 binaries, still emulating 1.32
    assert (str(step.after.binary), str(step.after.emulated)) == ("1.34", "1.32")
    # a 1.34 binary emulating 1.32 does not serve PodCertificateRequest: its storage version is no change
    choices = {c.kind: c for c in storage_versions(parse_version("1.34"), parse_version("1.32"), None, api_data=catalog.api_data).choices}
    assert not choices["PodCertificateRequest"].served
    assert all("PodCertificateRequest" not in c.group_kind for c in step.storage_changes)
    for step in plan.steps:
        served = {
            f"{c.group or 'core'}/{c.kind}"
            for c in storage_versions(step.after.binary, step.after.emulated, step.after.min_compat, api_data=catalog.api_data).choices
            if c.served
        }
        assert {c.group_kind for c in step.storage_changes} <= served, step.title


def test_plan_text_says_which_resources_it_lists(capsys):
    assert kcompat(["plan", "--from", "1.33@1.32", "--to", "1.36"]) == 0
    out = capsys.readouterr().out
    assert "Storage versions that change, of the resources served after this step (0; - = not served before):" in out
    assert "PodCertificateRequest: - -> certificates.k8s.io/v1alpha1" not in out


def test_versions_of_a_release_without_bundled_data_says_so(capsys, catalog):
    usable = catalog.usable_releases()
    newest = usable[-1]
    beyond = f"1.{int(newest.split('.')[1]) + 1}"
    assert kcompat(["versions", "--binary", beyond]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == f"binary {beyond} (release {beyond}, no bundled data)"
    assert f"warning: release {beyond} has no bundled data (bundled: {', '.join(usable)})" in err
    assert kcompat(["versions", "--binary", beyond, "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["bundled"] is False and doc["warnings"][0].startswith(f"release {beyond} has no bundled data")
    assert kcompat(["versions", "--binary", newest, "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["bundled"] is True and doc["warnings"] == []
