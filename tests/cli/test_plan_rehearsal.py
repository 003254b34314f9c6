"""``kcompat plan`` against the recorded rollback rehearsals (data/rehearsals/, recorded on the
real binaries by oracle/rehearse.py): every rollback of every adjacent bundled pair cites the
pair's rehearsal where one was recorded, says "not rehearsed" where none was, and a rehearsal that
broke the promise wins over the rule."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from kcompat.cli.main import main
from kcompat.core.plan import cite_rehearsals
from kcompat.core.rehearsal import PHASES, judge
from kcompat.data.catalog import Catalog
from kcompat.data.rehearsals import rehearsals

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
RECORDED = rehearsals(DATA)
PAIRS = [(f"1.{m}", f"1.{m + 1}") for m in range(31, 38)]


def _plan(capsys, start: str, target: str) -> dict:
    assert main(["plan", "--from", start, "--to", target, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_every_adjacent_pair_of_bundled_releases_was_rehearsed_at_its_recorded_patches():
    catalog = Catalog(DATA)
    bundled = [r.release for r in catalog.releases]
    pairs = list(itertools.pairwise(bundled))
    assert pairs == PAIRS and sorted(RECORDED) == PAIRS
    for start, target in pairs:
        doc = RECORDED[(start, target)]
        # the newest recorded patch of each release (the one the other recordings answer for)
        assert [doc["from"], doc["to"]] == [catalog.patches(r).levels[-1].kubernetes for r in (start, target)], (start, target)
        assert judge(doc).held and judge(doc).total > 0


@pytest.mark.parametrize(("start", "target"), PAIRS, ids=lambda v: v)
def test_every_rollback_of_an_adjacent_pair_cites_its_rehearsal_or_says_not_rehearsed(capsys, start, target):
    doc = _plan(capsys, start, target)
    judgement = judge(RECORDED[(start, target)]) if (start, target) in RECORDED else None
    for step in doc["steps"]:
        rollback = step["rollback"]
        cited = step["kind"] == "binary" and judgement is not None and judgement.from_emulated == step["rollback"]["to"]["emulated"]
        if cited:
            assert judgement is not None
            assert rollback["rehearsal"] == judgement.summary
            assert rollback["rehearsalHeld"] is judgement.held
            assert judgement.total > 0
            if not judgement.held:  # the rehearsal wins
                assert rollback["supported"] is False and "the rehearsal on the real binaries wins" in rollback["text"]
        else:
            assert rollback["rehearsal"] == "not rehearsed" and rollback["rehearsalHeld"] is None


def test_the_recorded_pair_is_cited_in_json_and_markdown(capsys):
    if ("1.35", "1.36") not in RECORDED:
        pytest.skip("no rehearsal of 1.35 -> 1.36 recorded (oracle/rehearse.py v1.35.8 v1.36.5)")
    doc = _plan(capsys, "1.35", "1.36")
    binary = next(s for s in doc["steps"] if s["kind"] == "binary")
    assert binary["rollback"]["rehearsal"].startswith("rehearsed on v1.36.5 -> v1.35.8: ")
    assert main(["plan", "--from", "1.35", "--to", "1.36"]) == 0
    assert f"Rehearsal: {binary['rollback']['rehearsal']}" in capsys.readouterr().out


@pytest.mark.parametrize("key", sorted(RECORDED), ids=lambda k: f"{k[0]}-{k[1]}")
def test_each_recording_ran_every_phase_on_the_pair_it_names(key):
    doc = RECORDED[key]
    assert [p["name"] for p in doc["phases"]] == [name for name, _, _ in PHASES]
    assert doc["from"].startswith(f"v{key[0]}.") and doc["to"].startswith(f"v{key[1]}.")
    assert (DATA / "oracle" / doc["to"] / "rehearsal.json").is_file()  # the full recording it was carried from
    corpus = doc["corpus"]
    written = {r.split(" ")[0].rsplit("/", 1)[0] for r in corpus["resources"]}
    assert len(corpus["resources"]) > 40 and "storage.k8s.io" in written
    assert json.loads((DATA / "oracle" / doc["to"] / "rehearsal.json").read_text())["phases"] == doc["phases"]


def test_plan_cites_the_rehearsal_and_a_broken_one_wins_over_the_rule():
    from kcompat.answers.queries import gate_lineage
    from kcompat.core.plan import plan_upgrade
    from kcompat.core.versions import mm, parse_version

    catalog = Catalog(DATA)
    # the plan from the rules alone, before any recording is cited
    plan = plan_upgrade(mm(parse_version("1.35")), None, mm(parse_version("1.36")), catalog.manifest, catalog.api_data,
                        lineage=gate_lineage(catalog))
    cited = cite_rehearsals(plan, {("1.35", "1.36"): judge(_recording([OK]))})
    binary = next(s for s in cited.steps if s.kind == "binary")
    assert binary.rollback is not None and binary.rollback.supported and binary.rollback.rehearsal_held is True
    assert binary.rollback.rehearsal.startswith("rehearsed on v1.36.5 -> v1.35.8: 1 of 1")
    assert all(s.rollback is not None and s.rollback.rehearsal == "not rehearsed" for s in cited.steps if s.kind != "binary")
    broken = cite_rehearsals(plan, {("1.35", "1.36"): judge(_recording([BAD]))})
    step = next(s for s in broken.steps if s.kind == "binary")
    assert step.rollback is not None and not step.rollback.supported and step.rollback.rehearsal_held is False
    assert "NOT SUPPORTED (the rehearsal on the real binaries wins over the rule)" in step.rollback.text
    # a rehearsal held at another emulated version is not this step's
    other = judge(dict(_recording([OK]), fromEmulated="1.34"))
    step = next(s for s in cite_rehearsals(plan, {("1.35", "1.36"): other}).steps if s.kind == "binary")
    assert step.rollback is not None and step.rollback.rehearsal == "not rehearsed"


def _recording(rollback_results):
    phases = [{"name": name, "started": True, "results": []} for name, _, _ in PHASES]
    phases[2]["results"] = rollback_results
    return {"from": "v1.35.8", "to": "v1.36.5", "fromMinor": "1.35", "toMinor": "1.36", "fromEmulated": "1.35", "phases": phases}


OK = {"resource": "v1 configmaps", "object": "a", "read": True, "decoded": True, "updated": True}
BAD = {"resource": "v1 secrets", "object": "b", "read": True, "decoded": False, "updated": False, "error": "decode: the answer is not the object"}


def test_the_refresh_carries_each_recording_over_unchanged(tmp_path):
    import shutil

    from kcompat.refresh.rehearsal import refresh_rehearsals

    for recording in sorted((DATA / "oracle").glob("*/rehearsal.json")):
        (tmp_path / "oracle" / recording.parent.name).mkdir(parents=True)
        shutil.copy(recording, tmp_path / "oracle" / recording.parent.name / "rehearsal.json")
    written = refresh_rehearsals(tmp_path)
    bundled = sorted(p.relative_to(DATA).as_posix() for p in (DATA / "rehearsals").glob("*.json"))
    assert sorted(written) == bundled
    for name in bundled:
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes()
    assert refresh_rehearsals(tmp_path, [31]) == []  # only the pairs to the minors asked for
