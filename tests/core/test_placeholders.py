"""Where a gate's own history starts when the data dates its first spec to a placeholder (0.0/1.0)."""

from kcompat.core.manifest import FeatureSpec
from kcompat.core.placeholders import first_real_version, real_history_start
from kcompat.core.stages import Stage
from kcompat.core.versions import parse_version as V


def spec(version: str, stage: Stage = Stage.GA, default: bool = True) -> FeatureSpec:
    return FeatureSpec(V(version), default, False, stage)


def test_the_first_real_spec_starts_the_history():
    specs = [spec("1.0"), spec("1.31", Stage.DEPRECATED, False)]  # AllowDNSOnlyNodeCSR's
    assert str(first_real_version(specs)) == "1.31"
    start = real_history_start("AllowDNSOnlyNodeCSR", specs, V("1.31"), V("1.31"))
    assert (str(start.placeholder), str(start.start)) == ("1.0", "1.31")
    assert start.reason == "its first spec at a real version"
    assert start.text().startswith("dated 1.0 in the data (a placeholder: behaviour older than the gate); history from 1.31")


def test_a_gate_without_a_real_spec_starts_where_a_release_first_lists_it():
    specs = [spec("1.0", Stage.BETA)]  # StatefulSetSemanticRevisionComparison's
    assert first_real_version(specs) is None
    start = real_history_start("StatefulSetSemanticRevisionComparison", specs, V("1.35"), V("1.31"))
    assert str(start.start) == "1.35" and "first bundled release that lists it is 1.35" in start.reason
    # Listed by the oldest bundled release: the data cannot tell how much older the gate is.
    unversioned = real_history_start("APIListChunking", [spec("0.0")], V("1.31"), V("1.31"))
    assert str(unversioned.placeholder) == "0.0" and "may be older" in unversioned.reason
    assert real_history_start("X", specs, None) is None  # nothing dates it


def test_nothing_predates_a_gate_whose_first_spec_is_real():
    assert real_history_start("JobManagedBy", [spec("1.30", Stage.ALPHA, False), spec("1.32", Stage.BETA)], V("1.31")) is None
    assert real_history_start("Empty", [], V("1.31")) is None


def test_the_real_data(catalog):
    feature = catalog.manifest("1.36").by_name["StatefulSetSemanticRevisionComparison"]
    first = next(r for r in catalog.usable_releases() if feature.name in catalog.manifest(r).by_name)
    start = real_history_start(feature.name, feature.specs, V(first), V(catalog.usable_releases()[0]))
    # a gate a 1.34 patch added (v1.34.12 registers it, v1.33.13 does not)
    assert [str(s.version) for s in feature.specs] == ["1.0"] and str(start.start) == first == "1.34"


def test_recorded_segments_start_where_the_history_starts():
    from kcompat.core.gate_history import GateStatus, Segment, recorded_segments

    ga, dep = GateStatus(Stage.GA, True, False), GateStatus(Stage.DEPRECATED, False, False)
    segments = (Segment("G", V("1.0"), V("1.29"), ga), Segment("G", V("1.29"), V("1.32"), dep))
    assert recorded_segments(segments, None) == segments
    # the placeholder stretch ends at the start: dropped; the next one starts there already
    assert recorded_segments(segments, V("1.29")) == segments[1:]
    # a stretch across the start begins at it
    across = recorded_segments(segments, V("1.20"))
    assert [(str(s.start), str(s.end)) for s in across] == [("1.20", "1.29"), ("1.29", "1.32")]
    assert recorded_segments((Segment("G", V("1.0"), V("1.38"), ga),), V("1.36"))[0].start == V("1.36")
