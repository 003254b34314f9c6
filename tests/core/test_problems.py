"""The problems the core reports are typed values (kcompat/core/problems/): each kind is frozen,
renders the binary's line from its fields, and has one verdict; the evaluations keep them in
order and their ``errors``/``warnings`` are the rendered lines."""

import dataclasses
import pickle

import pytest

from kcompat.answers.gates import gate_evaluation
from kcompat.core import problems
from kcompat.core.compat import parse_binary_version, select_versions
from kcompat.core.problems import (
    DependencyDisabled,
    EmulationOutOfRange,
    LockedGate,
    Note,
    PreAlphaGate,
    Problem,
    UnknownFlag,
    UnknownGate,
    Verdict,
)
from kcompat.core.remedies import apis as api_family
from kcompat.core.remedies import gates as gate_family
from kcompat.core.remedies import versions as version_family
from kcompat.core.request import Request
from kcompat.core.versions import parse_version

KINDS = [k for k in vars(problems).values() if isinstance(k, type) and issubclass(k, Problem) and k is not Problem]


def test_every_kind_is_a_frozen_value_with_a_verdict():
    assert len(KINDS) >= 20
    for kind in KINDS:
        assert dataclasses.is_dataclass(kind) and kind.__dataclass_params__.frozen, kind
        assert isinstance(kind.verdict, Verdict), kind
        assert "verdict" not in {f.name for f in dataclasses.fields(kind)}, kind  # a class attribute, not a field


def test_the_not_ready_kinds_are_the_readiness_kinds():
    """Verdict.NOT_READY (starts, never ready) belongs to the kinds found from the recorded starts."""
    assert {k for k in KINDS if k.verdict is Verdict.NOT_READY} == set(problems.NOT_READY_KINDS)
    assert all(k.verdict is Verdict.REFUSES for k in problems.OPTION_KINDS)


@pytest.mark.parametrize(
    "problem, line",
    [
        (UnknownGate("JobManagdBy"), "unrecognized feature gate: JobManagdBy"),
        (LockedGate("G", True, False), "cannot set feature gate G to true, feature is locked to false"),
        (PreAlphaGate("G", True, parse_version("1.34"), parse_version("1.33")),
         "cannot set feature gate G to true, feature is PreAlpha at emulated version 1.34, min compatibility version 1.33"),
        (DependencyDisabled("A", ("B", "C")), "A is enabled, but depends on features that are disabled: [B C]"),
        (EmulationOutOfRange(parse_version("1.30"), parse_version("1.33"), parse_version("1.36.0"), parse_version("1.36")),
         "emulation version 1.30 is not between [1.33, 1.36.0]"),
        (UnknownFlag("min-compatibility-version"), "unknown flag: --min-compatibility-version"),
    ],
)
def test_the_line_is_rendered_from_the_values(problem, line):
    assert problem.message == str(problem) == line
    assert pickle.loads(pickle.dumps(problem)) == problem and hash(problem) == hash(pickle.loads(pickle.dumps(problem)))


def test_an_echo_of_input_is_cut():
    assert len(UnknownGate("Z" * 50_000).message) < 200 and UnknownGate("Z" * 50_000).gate.endswith("(50,000 characters)")


def test_evaluations_keep_typed_problems_and_render_their_lines(catalog):
    ev = gate_evaluation(catalog, Request("1.36", "1.34", None, "JobManagdBy=true,DRAAdminAccess=true"))
    assert ev.problems[0] == UnknownGate("JobManagdBy")
    assert ev.errors == tuple(p.message for p in ev.problems if p.verdict is Verdict.REFUSES)
    assert ev.flag_problems == ev.problems and ev.flag_errors == ev.errors and not ev.valid
    sel = select_versions(parse_binary_version("1.36"), "1.30")
    assert isinstance(sel.problems[0], EmulationOutOfRange) and sel.errors[0] == "emulation version 1.30 is not between [1.33, 1.36.0]"


def test_warnings_and_notes_are_problems_with_the_warning_verdict(catalog):
    ev = gate_evaluation(catalog, Request("1.36", None, None, "JobManagedBy=true"))
    assert ev.valid and ev.warnings and all(p.verdict is Verdict.WARNS for p in ev.problems)
    assert Note("data note").warns and not Note("data note").refuses


def test_a_patch_that_is_not_recorded_is_a_typed_warning_naming_the_patch_answering(catalog):
    """1.36.7 is not recorded: the evaluation keeps the typed note, the nearest recorded patch in it."""
    ev = gate_evaluation(catalog, Request("1.36.7"))
    (note,) = [p for p in ev.problems if isinstance(p, problems.PatchNotRecorded)]
    recorded = catalog.patches("1.36").names()
    assert note == problems.PatchNotRecorded("1.36.7", recorded, recorded[-1]) and note.warns and ev.valid
    assert note.message == (f"1.36.7 is not a recorded patch release (recorded: {', '.join(recorded)}); "
                            f"answered as {recorded[-1]}, the nearest recorded patch")
    assert pickle.loads(pickle.dumps(note)) == note


def test_a_component_whose_gate_set_is_not_recorded_is_its_own_kind_of_error():
    """Callers answer with kube-apiserver's gate set by catching the kind, not by reading the text."""
    from kcompat.core.errors import ComponentNotRecorded, KcompatError

    exc = ComponentNotRecorded("kube-scheduler", "1.36", ("1.35", "1.37"))
    assert isinstance(exc, KcompatError)
    assert exc.reason == "kube-scheduler's gate set is not recorded for 1.36 (recorded for: 1.35, 1.37)"
    assert str(exc) == f"{exc.reason}; kube-apiserver's is"
    again = pickle.loads(pickle.dumps(exc))  # sent back whole from the upload worker's process
    assert type(again) is ComponentNotRecorded and (again.component, again.release, again.recorded_for, str(again)) == (
        "kube-scheduler", "1.36", ("1.35", "1.37"), str(exc))
    assert ComponentNotRecorded("kube-scheduler", "1.36", ()).reason.endswith("(recorded for: none)")


def test_every_refusal_kind_a_remedy_explained_before_has_one_now():
    """The remedies' tables cover the kinds the binary refuses for with something to change."""
    covered = set(version_family.REMEDIES) | set(gate_family.REMEDIES) | set(api_family.REMEDIES)
    expected = {
        "UnknownGate", "DependencyDisabled", "PreAlphaGate", "LockedGate", "EmulationOutOfRange", "MinCompatOutOfRange",
        "EmulationMustEqualBinary", "ApiVersionIntroducedLater", "ApiResourceIntroducedLater", "GroupVersionNotRegistered",
        "UnknownApiGroups", "ForwardCompatSameVersion", "UnknownFlag", "AlphaApiWhileEmulating",
    }
    assert {k.__name__ for k in covered} == expected
