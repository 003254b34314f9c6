"""Gate search (issue 19): what people type finds the gate, on the real bundled descriptions,
KEP links and gate names; the CLI's --search and the pages use the same function."""

import json

import pytest

from kcompat.cli.main import main as kcompat
from kcompat.core.search import GateText, kep_number, matches, name_words, search_gates


@pytest.fixture(scope="module")
def texts(catalog):
    return {name: GateText(info.description, info.kep) for name, info in catalog.gate_info.items()}


@pytest.fixture(scope="module")
def names(catalog):
    return [f.name for f in catalog.manifest("1.36").features]


def test_abbreviation_finds_the_spelled_out_gate(names, texts):
    found = search_gates("DRA", names, texts)
    assert "DynamicResourceAllocation" in found  # D-R-A: the initials of its words
    assert "DRAPrioritizedList" in found  # and the gates named with the abbreviation
    assert all(n.startswith("DRA") or n == "DynamicResourceAllocation" for n in found)
    assert search_gates("dra", names, texts) == found  # as typed in lower case


def test_spelled_out_words_find_the_abbreviated_gates(names, texts):
    found = search_gates("dynamic resource allocation", names, texts)
    assert {"DynamicResourceAllocation", "DRAAdminAccess", "DRAPrioritizedList"} <= set(found)


def test_kep_number_in_every_spelling(names, texts, catalog):
    assert kep_number(catalog.gate_info["DynamicResourceAllocation"].kep) == "4381"
    for query in ("4381", "KEP-4381", "kep 4381", "#4381"):
        found = search_gates(query, names, texts)
        assert "DynamicResourceAllocation" in found, query
        assert all(kep_number(texts[n].kep) == "4381" for n in found)


def test_description_words(names, texts):
    found = search_gates("scaling to zero", names, texts)
    assert "HPAScaleToZero" in found  # "Enables support of HPA scaling to zero pods ..."
    assert all("scaling" in (texts[n].description or "").lower() for n in found)


def test_name_substring_still_works_and_nonsense_finds_nothing(names, texts):
    assert search_gates("jobmanaged", names, texts) == ("JobManagedBy",)
    assert search_gates("Job Managed By", names, texts) == ("JobManagedBy",)
    assert search_gates("NoSuchGateAnywhere", names, texts) == ()
    assert search_gates("x" * 100_000, names, texts) == ()  # bounded, no error


def test_name_words_keep_acronym_runs():
    assert name_words("DRAAdminAccess") == ["DRA", "Admin", "Access"]
    assert name_words("CPUManagerPolicyOptions") == ["CPU", "Manager", "Policy", "Options"]
    assert not matches("PMP", "CPUManagerPolicyOptions")  # initials must be consecutive words from a word start
    assert matches("MPO", "CPUManagerPolicyOptions")


def test_cli_search(capsys):
    assert kcompat(["gates", "--binary", "1.36", "--search", "DRA", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    names = [f["name"] for f in doc["features"]]
    assert "DynamicResourceAllocation" in names and "JobManagedBy" not in names
    assert kcompat(["gates", "--binary", "1.36", "--search", "KEP-4381"]) == 0
    rows = [line.split()[0] for line in capsys.readouterr().out.splitlines()[2:]]
    assert "DynamicResourceAllocation" in rows
