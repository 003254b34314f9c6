"""Gate search (issue 19): what people type finds the gate, on the real bundled descriptions,
KEP links and gate names; the CLI's --search and the pages use the same function."""

import json

import pytest

from kcompat.cli.main import main as kcompat
from kcompat.core.search import (
    GateText,
    kep_number,
    matches,
    name_words,
    search_gates,
    search_matches,
)


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


@pytest.fixture(scope="module")
def every_name(catalog):
    return sorted({f.name for d in catalog.all() if d.manifest is not None for f in d.manifest.features})


def _has_dra(name, text):
    """DRA in the gate's name as a word, as the initials of consecutive words, or as a word of its
    description (the issue's "name, abbreviation, KEP or description words")."""
    import re

    words = name_words(name)
    initials = "".join(w[0] for w in words).casefold()
    description = (text.description if text else None) or ""
    described = {t.casefold() for w in re.findall(r"[A-Za-z0-9]+", description) for t in name_words(w)}
    return "DRA" in words or "dra" in initials or "dra" in described


def test_dra_finds_no_gate_without_dra(every_name, texts):
    """Issue 28: "DRA" matched EtcdRangeStream (etc-dRa-nge) and the start of "Draining"."""
    found = search_matches("DRA", every_name, texts)
    assert "EtcdRangeStream" in every_name and "EtcdRangeStream" not in found
    assert "KubeProxyDrainingTerminatingNodes" in every_name and "KubeProxyDrainingTerminatingNodes" not in found
    assert {"DynamicResourceAllocation", "DRAAdminAccess"} <= set(found)
    for name, where in found.items():
        words = name_words(name)
        if where == "name":
            assert "DRA" in words, name
        elif where == "abbreviation":
            assert any("".join(w[0] for w in words[i:i + 3]).casefold() == "dra" for i in range(len(words))), name
        else:
            assert where == "description" and _has_dra(name, texts.get(name)), (name, where)


def test_cli_dra_lists_no_gate_without_dra(capsys, texts):
    for binary in ("1.36", "1.37", "1.38"):
        assert kcompat(["gates", "--binary", binary, "--search", "DRA", "--format", "json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert doc["features"], binary
        for feature in doc["features"]:
            assert _has_dra(feature["name"], texts.get(feature["name"])), feature


def test_where_each_gate_matched(every_name, texts):
    found = search_matches("sidecar", every_name, texts)
    assert found["SidecarContainers"] == "name"
    # its description says "sidecar containers": no word of the name
    assert found["InPlacePodVerticalScalingInitContainers"] == "description"
    assert "sidecar" in texts["InPlacePodVerticalScalingInitContainers"].description.lower()
    assert search_matches("KEP-753", every_name, texts) == {"SidecarContainers": "KEP"}
    assert search_matches("HPA", every_name, texts)["HPAScaleToZero"] == "name"
    assert search_matches("horizontal pod autoscaler", ["HPAScaleToZero"], texts) == {"HPAScaleToZero": "abbreviation"}


def test_words_are_matched_from_their_start():
    assert matches("jobmana", "JobManagedBy")  # four letters or more may end inside a word
    assert not matches("anaged", "JobManagedBy")  # never start inside one
    assert not matches("Dra", "KubeProxyDrainingTerminatingNodes")  # three letters: a whole word only ...
    assert matches("job", "MutableSchedulingDirectivesForSuspendedJobs") and matches("pod", "PodsAPI")  # ... or its plural
    assert matches("Drain", "KubeProxyDrainingTerminatingNodes")
    assert matches("range stream", "EtcdRangeStream") and not matches("dra", "EtcdRangeStream")
    assert matches("sidecar", "X", GateText("Supports sidecars in init containers.")) and not matches("car", "X", GateText("sidecars"))


def test_cli_prints_where_each_gate_matched(capsys):
    assert kcompat(["gates", "--binary", "1.36", "--search", "sidecar"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[-1] == "matched"
    rows = {line.split()[0]: line.split()[-1] for line in lines[2:]}
    assert rows["SidecarContainers"] == "name" and rows["InPlacePodVerticalScalingInitContainers"] == "description"
    assert kcompat(["matrix", "--search", "KEP-753", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(g["name"], g["matched"]) for g in doc["gates"]] == [("SidecarContainers", "KEP")]
