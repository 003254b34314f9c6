"""The one check of a selection that every answer taking one shares: ``gate``, ``timeline`` and
``skew`` refuse exactly what ``gates`` refuses (the same lines, in the same order) when asked to
refuse, and answer with what the binary keeps otherwise (the pages); ``scan`` holds ``apis``'
verdict. Problems in documents are bounded (:func:`kcompat.core.errors.bounded`)."""

from __future__ import annotations

import pickle

import pytest

from kcompat.answers.apis import apis, apis_startup
from kcompat.answers.gate import gate_detail
from kcompat.answers.gates import gates, require_accepted
from kcompat.answers.scan import scan
from kcompat.answers.skew import skew
from kcompat.answers.startup import SelectionRefused
from kcompat.answers.timeline import TimelineQuery, timeline
from kcompat.core.compat import parse_binary_version, select_versions
from kcompat.core.errors import MAX_SHOWN, bounded
from kcompat.core.request import Request
from kcompat.documents.formats import bounded_field

REFUSED = [
    {"emulated": "1e2"},
    {"emulated": "1.39"},
    {"min_compat": "1.20"},
    {"emulated": "1.30"},
    {"feature_gates": "JobManagedBy=false"},
    {"feature_gates": "Nope=true,AlsoNope=false"},
]


@pytest.mark.parametrize("flags", REFUSED)
def test_gate_and_timeline_refuse_what_gates_refuses(catalog, flags):
    answer = gates(catalog, Request("1.36", flags.get("emulated"), flags.get("min_compat"), flags.get("feature_gates")))
    assert answer.errors
    with pytest.raises(SelectionRefused) as caught:
        require_accepted(answer)
    assert caught.value.errors == answer.errors and caught.value.hints == tuple(h.line for h in answer.hints)
    with pytest.raises(SelectionRefused) as detail:
        gate_detail(catalog, "JobManagedBy", Request("1.36", flags.get("emulated"), flags.get("min_compat"), flags.get("feature_gates")), refuse=True)
    assert detail.value.errors == answer.errors
    if "feature_gates" not in flags:
        with pytest.raises(SelectionRefused) as rows:
            timeline(catalog, Request("1.36", flags.get("emulated"), flags.get("min_compat")), TimelineQuery(refuse=True))
        assert rows.value.errors == answer.errors
        with pytest.raises(SelectionRefused) as ranges:
            skew("1.36", flags.get("emulated"), flags.get("min_compat"), refuse=True)
        assert ranges.value.errors == answer.errors


def test_without_refuse_the_pages_get_what_the_binary_keeps(catalog):
    assert gate_detail(catalog, "JobManagedBy", Request("1.36", "1e2")).emulated == "1.36"  # the default the gate keeps
    assert skew("1.36", "1.30").emulated == select_versions(parse_binary_version("1.36"), "1.30").emulated
    assert timeline(catalog, Request("1.36", "1.39")).emulated == "1.39"


def test_an_accepted_selection_is_answered(catalog):
    assert require_accepted(gates(catalog, Request("1.36", "1.34"))).valid
    assert gate_detail(catalog, "JobManagedBy", Request("1.36", "1.34"), refuse=True).emulated == "1.34"
    assert str(skew("1.36", "1.34", refuse=True).min_compat) == "1.33"


def test_the_refusal_says_its_first_error_and_how_many_more_and_pickles():
    refusal = SelectionRefused("1.36", "1.36", "1.35", ("first", "second", "third"), ("hint",))
    assert str(refusal) == "first (and 2 more)"
    again = pickle.loads(pickle.dumps(refusal))
    assert (again.errors, again.hints, again.binary, str(again)) == (refusal.errors, refusal.hints, "1.36", str(refusal))


@pytest.mark.parametrize("flags", [{"feature_gates": "Nope=true"}, {"runtime_config": "v1=false"},
                                   {"feature_gates": "JobManagedBy=false"}, {"emulated": "1.39"}])
def test_scan_holds_the_verdict_of_apis(catalog, flags):
    result = apis(catalog, Request("1.36", flags.get("emulated"), None, flags.get("feature_gates"), flags.get("runtime_config")))
    startup = apis_startup(catalog, result, Request(None, flags.get("emulated"), None, flags.get("feature_gates")))
    answer = scan(catalog, Request("1.36", flags.get("emulated"), None, flags.get("feature_gates"), flags.get("runtime_config")), [("x.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")])
    assert startup.errors and answer.errors == startup.errors and answer.exit_status == 2


def test_bounded_keeps_the_first_and_counts_the_rest():
    assert bounded(["a", "b"]) == (["a", "b"], 0)
    first, omitted = bounded(f"e{i}" for i in range(MAX_SHOWN + 7))
    assert first == [f"e{i}" for i in range(MAX_SHOWN)] and omitted == 7
    assert bounded(["x" * 20_000], each=100)[0][0].endswith("(20,000 characters)")
    assert bounded_field("errors", ["a"]) == {"errors": ["a"]}
    assert bounded_field("errors", map(str, range(25))) == {"errors": [str(i) for i in range(20)], "errorsOmitted": 5}
