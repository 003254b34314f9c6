"""The request value every answer about a selection takes (kcompat.core.request)."""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest

from kcompat.core.components import KUBE_APISERVER, KUBE_SCHEDULER
from kcompat.core.request import Request, flag, joined, values


def test_a_flag_is_the_tuple_of_its_values_or_none():
    assert flag(None) is None
    assert flag("") is None
    assert flag([]) is None
    assert flag("AllAlpha=true") == ("AllAlpha=true",)
    assert flag(["A=true", "B=false"]) == ("A=true", "B=false")
    assert flag([""]) == ("",)  # a flag given empty is given
    assert values(("A=true",)) == ["A=true"] and values(None) is None
    assert joined(("A=true", "B=false")) == "A=true,B=false" and joined(None) is None


def test_the_same_selection_is_the_same_hashable_value_however_it_is_given():
    given = Request.of("1.36", "1.34", None, "A=true", ["x/v1=true"])
    assert given == Request("1.36", ("1.34",), None, ("A=true",), ("x/v1=true",))
    assert given == Request("1.36", "1.34", None, "A=true", ["x/v1=true"])  # (normalised at run time too)
    assert hash(given) == hash(Request.of("1.36", ["1.34"], "", ["A=true"], "x/v1=true"))
    assert {given: 1}[Request.of("1.36", "1.34", feature_gates="A=true", runtime_config="x/v1=true")] == 1
    assert given.component == KUBE_APISERVER and given.options is None and not given.forward_compatible


def test_it_is_frozen_and_changed_by_copy():
    request = Request.of("1.36")
    with pytest.raises(AttributeError):
        request.binary = "1.35"  # type: ignore[misc]
    other = request.with_(component=KUBE_SCHEDULER, emulated="1.35")
    assert (other.component, other.emulated, request.component) == (KUBE_SCHEDULER, ("1.35",), KUBE_APISERVER)
    assert pickle.loads(pickle.dumps(other)) == other  # sent to the upload worker as it is


def test_it_is_cheap_to_import():
    code = "import sys, kcompat.core.request; print(sorted(m for m in sys.modules if m.startswith('kcompat')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "kcompat.core.startup" not in loaded and "kcompat.answers" not in loaded and "kcompat.data" not in loaded
