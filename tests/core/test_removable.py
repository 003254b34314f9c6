"""Which gates a release can remove (kcompat/core/removable.py): locked past the emulation window.

The rule (KEP-4330 "Feature Gate Lifecycles"; kubernetes/community feature-gates.md): a gate locked
to its default since release L can be removed in release R when R's emulation floor, max(R-3, 1.31),
is later than L-1 (the last release where it could still be set), and the gate is locked to that
value at every (emulated, min compatibility) pair a binary of R accepts. Each concrete gate below
is checked against the rule by hand in its comment, from its specs in the bundled data."""

import json

import pytest

from kcompat.cli.main import main as kcompat
from kcompat.core.errors import KcompatError
from kcompat.core.manifest import Feature, FeatureSpec, Manifest
from kcompat.core.removable import (
    RULE,
    SOURCES,
    locked_since,
    parse_removal_release,
    removable_gates,
    removal_of,
    removals,
)
from kcompat.core.stages import Stage
from kcompat.core.versions import parse_version as V


@pytest.fixture(scope="module")
def manifests(catalog):
    return [(d.info.release, d.manifest) for d in catalog.all() if d.manifest is not None]


@pytest.fixture(scope="module")
def in_139(manifests):
    return removable_gates(manifests, V("1.39"))


def test_the_gates_1_39_can_remove(in_139, catalog):
    by_name = in_139.by_name()
    assert (str(in_139.base), str(in_139.floor), in_139.removed, in_139.note) == ("1.38", "1.36", None, None)
    # CPUManagerPolicyOptions: Alpha 1.22, Beta on 1.23, GA locked on 1.33 -> L = 1.33, last settable 1.32;
    # floor(1.39) = max(1.36, 1.31) = 1.36 > 1.32: removable (three releases overdue).
    g = by_name["CPUManagerPolicyOptions"]
    assert (g.removable, str(g.locked_since), str(g.last_settable), g.state) == (True, "1.33", "1.32", "GA locked on")
    # GitRepoVolumeDriver: GA on 1.0 (settable), Deprecated off 1.33 (settable), Deprecated off locked 1.36 ->
    # L = 1.36, last settable 1.35; 1.36 > 1.35: removable, a Deprecated gate that is off and locked.
    g = by_name["GitRepoVolumeDriver"]
    assert (g.removable, str(g.locked_since), g.state) == (True, "1.36", "Deprecated locked off")
    # DRAPrioritizedList: GA on 1.36 but settable, GA locked 1.37 -> L = 1.37, last settable 1.36;
    # 1.36 is not after 1.36: kept (a 1.39 binary emulating 1.36 lets --feature-gates turn it off).
    g = by_name["DRAPrioritizedList"]
    assert (g.removable, str(g.locked_since)) == (False, "1.37")
    assert g.blocked_by == "1.36 is not after 1.36, the last release where it could still be set (GA on, settable there)"
    # a gate that is not locked is no candidate at all: DRAConsumableCapacity is Beta in 1.38
    assert "DRAConsumableCapacity" in catalog.manifest("1.38").by_name and "DRAConsumableCapacity" not in by_name
    # every removable gate passes the rule as stated, every kept one fails it or the engine's check
    for g in in_139.gates:
        assert g.removable == (g.last_settable is None or in_139.floor > g.last_settable) or not g.removable


def test_one_release_later_the_next_ones_follow(manifests):
    # DRAPrioritizedList (L = 1.37): floor(1.40) = 1.37 > 1.36: removable in 1.40
    assert removable_gates(manifests, V("1.40")).by_name()["DRAPrioritizedList"].removable
    # GitRepoVolumeDriver (L = 1.36) in 1.38: floor(1.38) = 1.35, not after 1.35: kept
    g = removable_gates(manifests, V("1.38")).by_name()["GitRepoVolumeDriver"]
    assert (g.removable, str(g.floor)) == (False, "1.35")


def test_a_bundled_release_says_which_it_really_dropped(manifests):
    # 1.36 (gates of 1.35): CSIMigrationPortworx GA locked on since 1.33, floor(1.36) = 1.33 = L: removable,
    # and v1.36.5 no longer registers it; CPUManagerPolicyOptions (L = 1.33) was removable too but kept.
    in_136 = removable_gates(manifests, V("1.36"))
    by_name = in_136.by_name()
    assert by_name["CSIMigrationPortworx"].removable and "CSIMigrationPortworx" in in_136.removed
    assert by_name["CPUManagerPolicyOptions"].removable and "CPUManagerPolicyOptions" not in in_136.removed
    # every locked gate Kubernetes dropped in 1.36 was removable by the rule
    locked_and_dropped = {g.name for g in in_136.gates} & in_136.removed
    assert locked_and_dropped and all(by_name[n].removable for n in locked_and_dropped)


def test_a_min_compatibility_spec_keeps_the_gate_until_no_accepted_pair_reaches_it():
    # Made up: Beta on 1.36 (settable), from 1.37 GA locked on when min compatibility is 1.37 (else still the
    # settable Beta spec, as the registration rules require). A 1.37 binary (min compat 1.36) has Beta: L = 1.38. In 1.40 (floor 1.37) every accepted pair has
    # min compat >= 1.37, so the engine finds it locked everywhere, but 1.37 is not after 1.37: kept (the
    # answer is never earlier than X+3). In 1.41 (floor 1.38): removable.
    # (built directly, as the odd one below: the registration rules ask for more specs than the point needs)
    feature = Feature("Made", (
        FeatureSpec(V("1.36"), True, False, Stage.BETA),
        FeatureSpec(V("1.37"), True, True, Stage.GA, V("1.37"), V("1.37")),
    ))
    assert str(locked_since(feature, V("1.38"))) == "1.38"
    assert not removal_of(feature, V("1.40"), V("1.38")).removable
    assert removal_of(feature, V("1.41"), V("1.38")).removable
    # the engine's own check guards what the rule cannot see (on manifests the registration rules accept it never
    # disagrees): made up, GA locked on 1.30, then GA settable from 1.33 for min compatibility 1.37. A 1.34 binary
    # ignores min compatibility (honoured from 1.35) and has the settable spec; 1.35-1.37 binaries (min compat
    # 1.34-1.36) have the locked one: L = 1.35, and floor(1.40) = 1.37 passes the rule; but a 1.40 binary accepts
    # --emulated-version=1.37 --min-compatibility-version=1.37, where it is settable.
    odd = Feature("Odd", (
        FeatureSpec(V("1.30"), True, True, Stage.GA),
        FeatureSpec(V("1.33"), True, False, Stage.GA, V("1.37"), V("1.37")),
    ))
    removal = removal_of(odd, V("1.40"), V("1.37"))
    assert str(removal.locked_since) == "1.35" and not removal.removable
    assert removal.blocked_by == "at --emulated-version=1.37 --min-compatibility-version=1.37 it is GA on, settable"
    assert [r.name for r in removals(Manifest((feature, odd)), V("1.41"), V("1.38")) if r.removable] == ["Made"]


def test_releases_that_cannot_be_asked():
    releases = ("1.31", "1.32", "1.38")
    assert str(parse_removal_release("v1.39", releases)) == "1.39"
    for text, why in (("1.31", "ask about 1.32 or later"), ("banana", "not a release"), ("1.39.2", "major.minor")):
        with pytest.raises(KcompatError, match=why):
            parse_removal_release(text, releases)


def test_cli_matrix_removable_in(capsys, in_139):
    assert kcompat(["matrix", "--removable-in", "1.39", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [g["name"] for g in doc["gates"]] == [g.name for g in in_139.removable()] == [g["name"] for g in doc["removable"]["gates"]]
    assert doc["filter"]["removableIn"] == "1.39" and doc["removable"]["rule"] == RULE and doc["removable"]["sources"] == list(SOURCES)
    assert doc["removable"]["lockedGates"] == len(in_139.gates)
    cpu = next(g for g in doc["removable"]["gates"] if g["name"] == "CPUManagerPolicyOptions")
    assert cpu == {"name": "CPUManagerPolicyOptions", "origin": "kube", "state": "GA locked on", "lockedSince": "1.33",
                   "lastSettable": "1.32", "removedInRelease": None}
    # the table cites the rule beside it, on stderr; CSV stays a table
    assert kcompat(["matrix", "--removable-in", "1.39", "--format", "csv", "--since", "1.37"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == "gate,origin,1.37,1.38 (pre-release),locked,locked since,last settable"
    assert err.startswith(f"# {len(in_139.removable())} gates removable in 1.39\nremovable in 1.39 (gates of 1.38; a 1.39 binary emulates down to 1.36): ")
    assert "KEP-4330" in err and "feature-gates.md" in err
    assert kcompat(["matrix", "--removable-in", "1.39", "--format", "markdown"]) == 0
    assert capsys.readouterr().out.startswith("removable in 1.39 (gates of 1.38")
    # a bundled release adds whether it really dropped each gate
    assert kcompat(["matrix", "--removable-in", "1.36", "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith(",locked,locked since,last settable,removed in 1.36")
    assert kcompat(["matrix", "--removable-in", "1.31"]) == 2
    assert "ask about 1.32 or later" in capsys.readouterr().err
