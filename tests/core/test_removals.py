"""Removed gates as behaviour (kcompat.core.removals) on the bundled manifests."""

import pytest

from kcompat.answers.queries import gate_lineage
from kcompat.core.removals import GateLineage
from kcompat.core.stages import Stage
from kcompat.core.versions import parse_version as V


@pytest.fixture(scope="module")
def lineage(catalog):
    return gate_lineage(catalog)


def test_api_list_chunking_removed_in_1_33_after_ga_locked_on(lineage, catalog):
    [removal] = lineage.by_name["APIListChunking"]
    assert (str(removal.last_release), str(removal.removed_in)) == ("1.32", "1.33")
    assert removal.last_spec.stage is Stage.GA and removal.last_spec.lock_to_default
    assert removal.enabled and removal.behaviour == "always on"
    assert "APIListChunking" in catalog.manifest("1.32") and "APIListChunking" not in catalog.manifest("1.33")


def test_a_removed_gate_stays_in_its_last_state_at_every_emulated_version(lineage):
    for emulated in ("1.31", "1.32", "1.33"):
        absent = lineage.absent("APIListChunking", V("1.33"), V(emulated))
        assert (absent.kind, absent.enabled) == ("removed", True)


def test_gate_removed_while_off_is_always_off(lineage):
    # DRAControlPlaneController: Alpha (off) in 1.31, no longer registered by 1.32
    [removal] = lineage.by_name["DRAControlPlaneController"]
    assert str(removal.removed_in) == "1.32" and removal.last_spec.stage is Stage.ALPHA
    assert lineage.absent("DRAControlPlaneController", V("1.33"), V("1.31")).enabled is False


def test_every_removal_is_listed_before_and_missing_after(lineage, catalog):
    for removal in lineage.removals:
        before = catalog.manifest(str(removal.last_release)).by_name[removal.name]
        assert removal.last_spec == before.specs[-1]
        assert removal.name not in catalog.manifest(str(removal.removed_in))
        assert removal.enabled == removal.last_spec.default


def test_a_gate_no_release_listed_yet_is_off(lineage):
    # ContainerStopSignals starts in 1.33: a 1.31 binary does not have it
    absent = lineage.absent("ContainerStopSignals", V("1.31"))
    assert (absent.kind, absent.enabled) == ("not-introduced", False)


def test_lineage_from_explicit_pairs_is_order_independent(catalog):
    pairs = [(r, catalog.manifest(r)) for r in ("1.33", "1.31", "1.32")]
    lineage = GateLineage.from_manifests(pairs)
    assert [str(r) for r in lineage.releases] == ["1.31", "1.32", "1.33"]
    assert {g.name for g in lineage.removed_in("1.33")} == set(catalog.manifest("1.32").by_name) - set(catalog.manifest("1.33").by_name)
