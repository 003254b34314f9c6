"""Stage history across releases (kcompat.core.gate_history, matrix, matrix_filter) on the bundled data."""

import itertools

import pytest

from kcompat.core.gate_history import (
    GateStatus,
    gate_segments,
    status_at_release,
    timeline_segments,
)
from kcompat.core.matrix import TRANSITION_KINDS, release_matrix, release_transitions
from kcompat.core.registration import parse_manifest
from kcompat.core.stages import Stage
from kcompat.core.versions import parse_version as V


def spans(segments):
    return [(str(s.start), str(s.end), str(s.status)) for s in segments]


@pytest.fixture(scope="module")
def matrix(catalog):
    return release_matrix([(r, catalog.manifest(r)) for r in catalog.usable_releases()])


def test_job_managed_by_in_the_1_36_manifest(catalog):
    feature = catalog.manifest("1.36").by_name["JobManagedBy"]
    assert spans(gate_segments(feature, V("1.37"))) == [
        ("1.30", "1.32", "Alpha (off)"),
        ("1.32", "1.35", "Beta (on)"),
        ("1.35", "1.37", "GA (on, locked)"),
    ]


def test_segments_stop_at_the_exclusive_end(catalog):
    feature = catalog.manifest("1.36").by_name["JobManagedBy"]
    assert spans(gate_segments(feature, V("1.34"))) == [("1.30", "1.32", "Alpha (off)"), ("1.32", "1.34", "Beta (on)")]
    assert gate_segments(feature, V("1.30")) == ()


def test_kmsv1_starts_before_versioning_and_flips_its_default(catalog):
    feature = catalog.manifest("1.36").by_name["KMSv1"]
    assert spans(gate_segments(feature, V("1.37"))) == [
        ("1.0", "1.28", "GA (on)"),
        ("1.28", "1.29", "Deprecated (on)"),
        ("1.29", "1.37", "Deprecated (off)"),
    ]


def test_unversioned_1_31_gate_is_one_segment_from_0_0(catalog):
    feature = catalog.manifest("1.31").by_name["APIListChunking"]
    assert spans(gate_segments(feature, V("1.32"))) == [("0.0", "1.32", "GA (on, locked)")]


def test_timeline_covers_every_gate_of_the_binary_in_name_order(catalog):
    manifest = catalog.manifest("1.36")
    segments = timeline_segments(manifest, V("1.37"))
    gates = list(dict.fromkeys(s.gate for s in segments))
    assert gates == [f.name for f in manifest.features]
    for a, b in itertools.pairwise(segments):
        if a.gate == b.gate:
            assert a.end == b.start and a.status != b.status


def test_status_at_release_matches_the_spec_in_effect(catalog):
    feature = catalog.manifest("1.36").by_name["JobManagedBy"]
    assert status_at_release(feature, V("1.33"), True) == GateStatus(Stage.BETA, True, False)
    assert status_at_release(feature, V("1.29"), True).stage is Stage.PRE_ALPHA


def test_compatibility_gated_spec_starts_the_release_after_its_min_compatibility():
    # SPEC §3.3's example: [1.28 Beta off, 1.28 Beta on if mc >= 1.28, 1.30 GA locked (inherits mc 1.28)].
    (feature,) = parse_manifest(
        [
            {
                "name": "Gated",
                "versionedSpecs": [
                    {"version": "1.28", "default": False, "lockToDefault": False, "preRelease": "Beta"},
                    {"version": "1.28", "default": True, "lockToDefault": False, "preRelease": "Beta", "minCompatibilityVersion": "1.28"},
                    {"version": "1.30", "default": True, "lockToDefault": True, "preRelease": "GA"},
                ],
            }
        ],
        "test",
    )
    assert spans(gate_segments(feature, V("1.32"))) == [
        ("1.28", "1.29", "Beta (off)"),
        ("1.29", "1.30", "Beta (on)"),
        ("1.30", "1.32", "GA (on, locked)"),
    ]
    # Releases before 1.35 ignore min compatibility: the 1.28 gated spec applies at once.
    assert spans(gate_segments(feature, V("1.32"), use_min_compat=False))[0] == ("1.28", "1.30", "Beta (on)")


def test_matrix_rows_are_the_union_of_all_releases(catalog, matrix):
    names = set()
    for release in catalog.usable_releases():
        names |= set(catalog.manifest(release).by_name)
    assert [r.gate for r in matrix.rows] == sorted(names)
    assert matrix.releases == catalog.usable_releases()


def test_matrix_job_managed_by_per_release(matrix):
    cells = [str(c) for c in matrix.row("JobManagedBy").cells]
    assert cells[:5] == ["Alpha (off)", "Beta (on)", "Beta (on)", "Beta (on)", "GA (on, locked)"]


def test_matrix_api_list_chunking_removed_after_1_32(matrix):
    row = matrix.row("APIListChunking")
    assert str(row.cells[0]) == "GA (on, locked)" and str(row.cells[1]) == "GA (on, locked)"
    assert row.cells[2:] == (None,) * (len(matrix.releases) - 2)
    assert matrix.column("1.33").get("APIListChunking") is None


def test_transitions_name_real_gates(matrix):
    by_release = {t.release: t for t in release_transitions(matrix)}
    assert "1.31" not in by_release  # the oldest bundled release has no baseline
    assert "JobManagedBy" in by_release["1.32"].to_beta
    assert "JobManagedBy" in by_release["1.35"].to_ga
    assert "ContainerStopSignals" in by_release["1.33"].new_alpha
    assert "APIListChunking" in by_release["1.33"].removed
    assert "AllowServiceLBStatusOnNonLB" in by_release["1.35"].removed
    # first listed in v1.34 already Deprecated: new there, not deprecated there
    assert "KubeletPodResourcesListUseActivePods" in by_release["1.34"].new
    assert "KubeletPodResourcesListUseActivePods" not in by_release["1.34"].deprecated
    assert "StorageNamespaceIndex" in by_release["1.33"].deprecated  # Beta in 1.32, Deprecated in 1.33
    assert "SidecarContainers" in by_release["1.33"].to_ga
    # A gate that stays Beta is not counted again.
    assert "JobManagedBy" not in by_release["1.33"].to_beta


def test_transition_counts_match_the_lists(matrix):
    for t in release_transitions(matrix):
        counts = t.counts()
        assert list(counts) == list(TRANSITION_KINDS)
        for kind in TRANSITION_KINDS:
            assert counts[kind] == len(t.gates(kind))
            assert list(t.gates(kind)) == sorted(t.gates(kind))


def test_every_transition_kind_equals_an_independent_reading_of_the_release_tables(catalog, matrix, gates):
    """From each release's own gate table (kcompat gates --binary R): a kind lists exactly the gates
    at that stage in R and not at it (or not available) in the previous release."""
    from kcompat.answers.queries import gate_lineage

    def stages(release):
        return {g.name: g.stage for g in gates(release).gates if g.stage is not Stage.PRE_ALPHA}

    lineage = gate_lineage(catalog)
    earlier: set[str] = set(catalog.manifest(matrix.releases[0]).by_name)
    for t in release_transitions(matrix):
        now, before = stages(t.release), stages(t.previous)
        for stage, kind in ((Stage.BETA, "to beta"), (Stage.GA, "to GA"), (Stage.DEPRECATED, "deprecated")):
            expected = sorted(n for n, s in now.items() if s is stage and before.get(n) is not stage and n in earlier)
            assert list(t.gates(kind)) == expected, (t.release, kind)
        new = sorted(n for n, s in now.items() if s is not Stage.ALPHA and n not in earlier)
        assert list(t.new) == new, t.release
        earlier |= set(catalog.manifest(t.release).by_name)
        assert list(t.new_alpha) == sorted(n for n, s in now.items() if s is Stage.ALPHA and n not in before)
        assert list(t.removed) == sorted(set(before) - set(catalog.manifest(t.release).by_name))
        # and the removals the comparisons use are the same gates
        assert {g.name for g in lineage.removed_in(t.release)} >= set(t.removed)
    graduated = next(t for t in release_transitions(matrix) if t.release == "1.35").to_ga
    assert "JobManagedBy" in graduated and "APIServerTracing" not in graduated


def test_spec_changes_on_real_data(catalog):
    """Issue 19: what each release changed for one gate, and the removal from the lineage."""
    from kcompat.answers.queries import gate_lineage
    from kcompat.core.gate_history import spec_changes
    from kcompat.core.placeholders import introduced_text, placeholder_start

    feature = catalog.manifest("1.34").by_name["AllowServiceLBStatusOnNonLB"]
    removal = gate_lineage(catalog).by_name["AllowServiceLBStatusOnNonLB"][-1]
    changes = spec_changes(feature, removal)
    assert [(str(c.release), c.kind, c.after) for c in changes] == [
        ("1.0", "appeared", "GA on"), ("1.29", "stage", "Deprecated"), ("1.29", "default", "off"),
        ("1.32", "locked", "off"), ("1.35", "removed", "always off"),
    ]
    assert changes[0].placeholder and not changes[1].placeholder
    assert str(placeholder_start(feature)) == "1.0" and introduced_text(feature) == "not recorded (dated 1.0, a placeholder)"
    dra = catalog.manifest("1.36").by_name["DRAPrioritizedList"]
    assert placeholder_start(dra) is None and introduced_text(dra) == "1.33"
    assert [c.text() for c in spec_changes(dra)][:2] == ["appeared in 1.33 as Alpha off", "stage Alpha -> Beta in 1.34"]


# ---------------------------------------------------------------------------------------------
# The new transition kinds and the matrix filter, on the bundled data.


def _by_release(matrix):
    return {t.release: t for t in release_transitions(matrix)}


def test_default_flipped_and_locked_checked_by_hand(matrix):
    """Read in data/features: DisableNodeKubeProxyVersion is Deprecated off in v1.32.yaml and gets a
    1.33 spec Deprecated on; MultiCIDRServiceAllocator is GA on in 1.33 and gets a 1.34 spec GA on
    locked; ProbeHostPodSecurityStandards first appears in v1.34.yaml as GA on locked; JobManagedBy's
    1.35 spec is GA on locked after Beta on; client-go's InformerResourceVersion goes from Alpha off
    (v1.34) to GA on, not locked (client-go-v1.35.yaml)."""
    t = _by_release(matrix)
    assert "DisableNodeKubeProxyVersion" in t["1.33"].default_flipped
    assert "DisableNodeKubeProxyVersion" not in t["1.33"].deprecated  # Deprecated already
    assert "DisableNodeKubeProxyVersion" not in t["1.33"].locked
    assert "MultiCIDRServiceAllocator" in t["1.34"].locked
    assert "MultiCIDRServiceAllocator" not in t["1.34"].to_ga + t["1.34"].default_flipped
    # first listed in v1.34, already GA locked: new in 1.34 (at GA, locked), not a move to GA nor a lock
    assert "ProbeHostPodSecurityStandards" in t["1.34"].new
    assert "ProbeHostPodSecurityStandards" not in t["1.34"].locked + t["1.34"].to_ga
    assert "ProbeHostPodSecurityStandards" not in t["1.34"].default_flipped  # nothing to flip from
    assert "JobManagedBy" in t["1.35"].locked and "JobManagedBy" not in t["1.35"].default_flipped  # on before and after
    assert "InformerResourceVersion" in t["1.35"].default_flipped and "InformerResourceVersion" in t["1.35"].to_ga
    assert "InformerResourceVersion" not in t["1.35"].locked


def test_default_flipped_and_locked_equal_an_independent_reading_of_the_release_tables(matrix, gates):
    """From each release's own gate table: default flipped = listed in both with another default;
    locked = locked now, not locked (or not listed) before, and not new (listed by an earlier
    release, or new at Alpha)."""
    def table(release):
        return {g.name: g for g in gates(release).gates if g.stage is not Stage.PRE_ALPHA}

    for t in release_transitions(matrix):
        now, before = table(t.release), table(t.previous)
        flipped = sorted(n for n, g in now.items() if n in before and before[n].default != g.default)
        locked = sorted(n for n, g in now.items() if g.locked and not (n in before and before[n].locked) and n not in t.new)
        assert list(t.default_flipped) == flipped, t.release
        assert list(t.locked) == locked, t.release
        assert flipped and locked, t.release  # every bundled release has some of both


def test_counts_default_to_the_stage_moves_and_name_every_kind_on_request(matrix):
    from kcompat.core.matrix import ALL_TRANSITION_KINDS

    t = _by_release(matrix)["1.35"]
    assert list(t.counts()) == list(TRANSITION_KINDS)  # the chart's kinds
    assert t.counts(ALL_TRANSITION_KINDS)["locked"] == len(t.locked) > 0


def _names(answer):
    return [r.gate for r in answer.matrix.rows]


def test_filter_by_a_transition_is_exactly_its_gates(matrix):
    from kcompat.core.matrix_filter import MatrixFilter, Transition, filter_matrix

    t = _by_release(matrix)
    answer = filter_matrix(matrix, MatrixFilter(changed=(Transition("1.35", "to GA"),)))
    assert _names(answer) == list(t["1.35"].to_ga)
    assert answer.matrix.releases == matrix.releases and answer.total == len(matrix.rows)
    both = filter_matrix(matrix, MatrixFilter(changed=(Transition("1.35", "to GA"), Transition("1.33", "removed"))))
    assert _names(both) == sorted(set(t["1.35"].to_ga) | set(t["1.33"].removed))  # several: any of them
    # the answer's transitions name only the gates shown, each release against its real previous one
    only = next(x for x in answer.transitions if x.release == "1.35")
    assert only.to_ga == t["1.35"].to_ga and only.new_alpha == ()


def test_filter_stage_origin_search_changed_only_and_columns(matrix):
    from kcompat.core.matrix_filter import MatrixFilter, filter_matrix
    from kcompat.core.search import GateText

    beta_1_33 = filter_matrix(matrix, MatrixFilter(stages=(Stage.BETA,), stage_release="1.33"))
    i = matrix.releases.index("1.33")
    assert _names(beta_1_33) == [r.gate for r in matrix.rows if r.cells[i] is not None and r.cells[i].stage is Stage.BETA]
    newest = filter_matrix(matrix, MatrixFilter(stages=(Stage.ALPHA,)))  # no release: the newest
    assert all(r.cells[-1].stage is Stage.ALPHA for r in newest.matrix.rows) and newest.matrix.rows
    client_go = filter_matrix(matrix, MatrixFilter(origins=("client-go",)))
    assert _names(client_go) and {r.origin for r in client_go.matrix.rows} == {"client-go"}
    assert "InformerResourceVersion" in _names(client_go) and "JobManagedBy" not in _names(client_go)
    texts = {"HPAScaleToZero": GateText("Enables scaling to zero of the HorizontalPodAutoscaler.")}
    assert "HPAScaleToZero" in _names(filter_matrix(matrix, MatrixFilter(search="scaling to zero"), texts))
    dra = filter_matrix(matrix, MatrixFilter(search="DRA", origins=("kube",), stages=(Stage.BETA,), stage_release="1.36"))
    assert _names(dra) and all(n.startswith("DRA") or "DynamicResource" in n for n in _names(dra))
    columns = filter_matrix(matrix, MatrixFilter(releases=("1.33", "1.35"), changed_only=True))
    assert columns.matrix.releases == ("1.33", "1.35")
    assert "KMSv1" not in _names(columns)  # Deprecated off in both
    assert "JobManagedBy" in _names(columns)  # Beta (on) -> GA (on, locked)
    assert all(len(set(r.cells)) > 1 for r in columns.matrix.rows)
    assert [x.release for x in columns.transitions] == ["1.33", "1.35"]  # 1.35 still against 1.34


def test_parsing_a_filter_names_the_bad_value(matrix):
    from kcompat.core.errors import KcompatError
    from kcompat.core.matrix_filter import (
        MatrixFilter,
        Transition,
        filter_matrix,
        parse_origin,
        parse_stage,
        parse_transition,
    )

    releases = matrix.releases
    assert parse_transition("1.35:toga", releases) == Transition("1.35", "to GA")
    assert parse_transition("v1.36:defaultFlipped", releases) == Transition("1.36", "default flipped")
    assert str(parse_transition("1.34:LOCKED", releases)) == "1.34:locked"
    assert parse_stage("beta") is Stage.BETA and parse_origin("Client-Go") == "client-go"
    bad = {
        "1.35:toGAA": '"toGAA" is not one of newAlpha, new, toBeta, toGA',
        "1.35": "expected RELEASE:KIND",
        "1.20:toGA": '"1.20" is not a bundled release',
        f"{releases[0]}:toGA": "the oldest bundled release",
    }
    for text, message in bad.items():
        with pytest.raises(KcompatError, match=message.replace("(", r"\(")) as err:
            parse_transition(text, releases, "--changed")
        assert str(err.value).startswith(f'--changed "{text}"')
    with pytest.raises(KcompatError, match='stage "PreAlpha": not one of Alpha, Beta, GA, Deprecated'):
        parse_stage("PreAlpha")
    with pytest.raises(KcompatError, match='origin "k8s": not one of kube, client-go'):
        parse_origin("k8s")
    with pytest.raises(KcompatError, match=r'"0\.9": not a bundled release'):
        filter_matrix(matrix, MatrixFilter(releases=("0.9",)))
