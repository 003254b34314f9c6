"""Will it start, and will it become ready? kcompat's verdict against every recorded start of the
real kube-apiserver (oracle/readiness.py, oracle/record.py), without Go.

``data/oracle/<vX.Y.Z>/startup.json`` holds the option cases, the findings (gate sets and APIs
that keep it from getting ready, with the runs that are their evidence) and every run;
``refusals.json`` the classic refusal cases. Each start has a verdict: refused, exited, not-ready or
ready. kcompat's verdict for the same flags (:func:`kcompat.answers.startup.apiserver_startup`)
must be the same: "refuses" for refused, with the binary's own line byte for byte; "not-ready" for
exited and not-ready; "starts" for ready. The few runs where a short probe did not get ready and a
longer start of the same flags did are listed (:func:`refuted_probes`): the recording itself
shows they were slow, not stuck. The agreement table of docs/agreement.md ("Will it start and become ready") is counted
here (:func:`startup_agreement_rows`).
"""

from __future__ import annotations

from kcompat.core.request import Request

import json
import re
from functools import cache, lru_cache
from pathlib import Path

import pytest

from kcompat import DATA_DIR
from kcompat.answers.gates import gate_evaluation
from kcompat.answers.startup import StartupAnswer, apiserver_startup
from kcompat.core.startup import OPTION_FLAG_NAMES, read_options
from kcompat.data.catalog import DEFAULT_CATALOG as CATALOG
from kcompat.data.startup import readiness_rules
from kcompat.refresh.startup import STARTUP_DIR, readiness_document

ORACLE = DATA_DIR / "oracle"
STARTUPS = sorted(ORACLE.glob("v*/startup.json"))
REFUSALS = sorted(ORACLE.glob("v*/refusals.json"))
#: a recorded verdict -> kcompat's
VERDICTS = {"refused": "refuses", "exited": "not-ready", "not-ready": "not-ready", "ready": "starts"}
_VERSION_FLAGS = {"emulated-version", "min-compatibility-version", "feature-gates", "runtime-config",
                  "emulation-forward-compatible", "runtime-config-emulation-forward-compatible"}


def _version_key(name: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", name))


@cache
def _document(path: Path) -> dict:
    return json.loads(path.read_text())


def _split(flags: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for arg in flags:
        name, _, value = arg[2:].partition("=")
        assert name in _VERSION_FLAGS or name in OPTION_FLAG_NAMES, f"a recorded flag kcompat does not read: {arg}"
        out.setdefault(name, []).append(value)
    return out


#: The option flags every recorded start had besides its own (oracle/servers.py starts each
#: kube-apiserver with its service-account issuer and key files): the checks read them too.
HARNESS_OPTIONS = {
    "service-account-issuer": ["https://kubernetes.default.svc"],
    "service-account-key-file": ["sa.pub"],
    "service-account-signing-key-file": ["sa.key"],
}


@lru_cache(maxsize=4096)
def _startup(release: str, flags: tuple[str, ...]) -> StartupAnswer:
    """kcompat's start-up of the release's kube-apiserver with the recorded flags (and those every
    recorded start had, :data:`HARNESS_OPTIONS`)."""
    given = {**HARNESS_OPTIONS, **_split(list(flags))}
    emulated, min_compat = given.get("emulated-version"), given.get("min-compatibility-version")
    feature_gates, runtime_config = given.get("feature-gates"), given.get("runtime-config")
    options = read_options([(name, value) for name in OPTION_FLAG_NAMES for value in given.get(name, [])])
    evaluation = gate_evaluation(CATALOG, Request(release, emulated, min_compat, feature_gates))
    return apiserver_startup(CATALOG, evaluation, Request(release, emulated=emulated, min_compat=min_compat, feature_gates=feature_gates, runtime_config=runtime_config, emulation_forward_compatible=given.get("emulation-forward-compatible", ["false"])[-1] == "true", runtime_config_emulation_forward_compatible=given.get("runtime-config-emulation-forward-compatible", ["false"])[-1] == "true", options=options))


def binary_line(lines: list[str]) -> str | None:
    """What the binary said: the ``err="..."`` of its ``"command failed"`` line, or a Go panic's
    line; None when the recording kept neither (a panic recorded by its last stack lines only)."""
    for line in lines:
        if line.startswith("panic: "):
            return line
        match = re.search(r'"command failed" err="(.*)"$', line)
        if match:
            return match.group(1).replace('\\"', '"').replace("\\\\", "\\")
    return None


def aggregate(errors: tuple[str, ...]) -> str:
    """``utilerrors.NewAggregate(errs).Error()``: one message alone, several in brackets."""
    return errors[0] if len(errors) == 1 else "[" + ", ".join(errors) + "]"


def harness_fault(record: dict) -> str | None:
    """Why a recorded start says nothing about its flags, or None: the binary stopped on a file of
    the recording's own work folder (its service-account key, written by another start at the
    same moment), which every start has."""
    for line in record.get("errorLines") or []:
        if "/kcompat-oracle-" in line and "command failed" in line:
            return f"the recording's own files failed, not the flags: {line[:160]}"
    return None


@cache
def registered(release: str) -> frozenset[str]:
    """The gates the recorded patch release registers (data/oracle/<release>/gates.json)."""
    path = ORACLE / release / "gates.json"
    return frozenset(g["name"] for g in json.loads(path.read_text())) if path.is_file() else frozenset()


def missing_gates(release: str, answer: StartupAnswer) -> tuple[str, ...]:
    """The gates kcompat calls unknown although the recorded release registers them: the bundled
    gates of the release are another patch's (data/features), not a start-up rule."""
    unknown = tuple(p.name for p in answer.problems if type(p).__name__ == "UnknownGate")
    refusals = [p for p in answer.problems if p.refuses]
    if unknown and len(unknown) == len(refusals) and all(name in registered(release) for name in unknown):
        return unknown
    return ()


def check(release: str, record: dict) -> None:
    """One recorded start against kcompat's verdict (and, refused, its line). A start the
    recording harness broke, or whose gates the bundled data of the release does not register yet,
    is an expected failure that names why (it turns into a pass when the data is rebuilt)."""
    fault = harness_fault(record)
    if fault:
        pytest.xfail(fault)
    answer = _startup(release, tuple(record["flags"]))
    missing = missing_gates(release, answer)
    if missing:
        pytest.xfail(f"the bundled {release[1:5]} gates lack {', '.join(missing)}, which {release} registers (data/features)")
    expected = VERDICTS[record.get("verdict", "refused")]
    assert answer.verdict == expected, (record["flags"], record.get("errorLines"), record.get("failingChecks"), answer.problems)
    if expected == "refuses":
        said = binary_line(record["errorLines"])
        if said is None:  # a Go panic (exit status 2) whose recording kept only the stack's last lines
            assert record["exitStatus"] == 2 and any("/cli/run.go" in line for line in record["errorLines"]), record
            assert [e for e in answer.errors if e.startswith("panic: ")] == list(answer.errors), answer.errors
        elif said.startswith("[") and len(answer.errors) > 1:
            # several errors: the binary's dependency check walks a Go map, whose order varies from
            # start to start; the same errors, in any order
            assert len(said) == len(aggregate(answer.errors)) and all(e in said for e in answer.errors), (said, answer.errors)
        else:
            assert aggregate(answer.errors) == said


def refuted_probes(document: dict) -> set[str]:
    """The ids of short probes that did not get ready although a start of the same flags with the
    long limit (oracle/readiness.py CONFIRM_WAIT) got ready: slow under load while narrowing down,
    not stuck (the recording's own confirmation says so)."""
    ready_long = {tuple(r["flags"]) for r in document["runs"] if r["verdict"] == "ready" and r.get("wait", 0) >= document.get("confirmWait", 100)}
    return {r["id"] for r in document["runs"]
            if r["verdict"] in ("not-ready", "exited") and r.get("wait", 0) < document.get("confirmWait", 100) and tuple(r["flags"]) in ready_long}


# ---------------------------------------------------------------------------------------------
# The data file is what the refresh step writes from the recordings.


@pytest.mark.parametrize("path", STARTUPS, ids=lambda p: p.parent.name)
def test_the_bundled_readiness_rules_are_the_recordings(path):
    release = ".".join(path.parent.name[1:].split(".")[:2])
    newest = max((p for p in STARTUPS if p.parent.name.startswith(f"v{release}.")), key=lambda p: _version_key(p.parent.name))
    if path != newest:
        pytest.skip(f"{newest.parent.name} gives the rules of {release}")
    bundled = json.loads((DATA_DIR / STARTUP_DIR / f"v{release}.json").read_text())
    assert bundled == readiness_document(path.parent), "data/startup is stale: kcompat data refresh --oracle"
    assert readiness_rules(DATA_DIR, release).recorded == path.parent.name


@pytest.mark.parametrize("path", STARTUPS, ids=lambda p: p.parent.name)
def test_a_stage_is_unsearched_only_where_its_meta_gate_and_its_gates_were_refused(path):
    runs = {r["id"]: r for r in _document(path)["runs"]}
    for entry in readiness_document(path.parent)["unsearched"]:
        meta = f"All{entry['stage']} at {entry['emulated']}"
        (evidence,) = entry["evidence"]
        assert runs[evidence]["purpose"] == meta and runs[evidence]["verdict"] == "refused"
        assert not [r for r in runs.values() if r["purpose"] == f"All{entry['stage']} gates at {entry['emulated']}" and r["verdict"] != "refused"]


def test_gates_of_an_unsearched_stage_say_their_readiness_is_not_known():
    from kcompat.answers.gates import gates

    found = [(r, u) for r in CATALOG.usable_releases() if (rules := readiness_rules(DATA_DIR, r)) is not None for u in rules.unsearched]
    if not found:
        pytest.skip("every recorded release searched every stage")
    release, (emulated, stage) = found[0]
    rules = readiness_rules(DATA_DIR, release)
    named = {g for rule in rules.gate_rules_at(emulated) for g in rule.gates}
    answer = gates(CATALOG, Request(release, str(emulated)))
    gate = next(r.name for r in answer.rows if r.stage == stage and not r.default and not r.locked and r.name not in named
                and not r.name.startswith("All"))
    answer = gates(CATALOG, Request(release, str(emulated), feature_gates=f"{gate}=true"))
    assert answer.valid and not answer.not_ready
    assert any(w.startswith(f"whether kube-apiserver becomes ready with {gate} on at emulated version {emulated} is not known")
               for w in answer.warnings)


#: The line of docs/agreement.md naming the bundled releases whose starts are not recorded yet.
NOT_RECORDED = re.compile(r"^Readiness not recorded yet: (.*)\.$", re.M)


def test_a_release_without_recorded_starts_is_named_and_says_so():
    """Every bundled release has its starts recorded, or is named in docs/agreement.md as not recorded
    yet, and ``kcompat gates`` then says its readiness is not checked (never a silent "starts")."""
    from kcompat.answers.gates import gates

    recorded = {".".join(p.parent.name[1:].split(".")[:2]) for p in STARTUPS}
    missing = [r for r in CATALOG.usable_releases() if r not in recorded]
    readme = (Path(__file__).resolve().parents[2] / "docs" / "agreement.md").read_text()
    named = NOT_RECORDED.search(readme)
    assert (named.group(1).split(", ") if named else []) == missing
    for release in missing:
        answer = gates(CATALOG, Request(release))
        assert answer.startup_checked and answer.readiness_recorded is None
    for release in recorded & set(CATALOG.usable_releases()):
        assert gates(CATALOG, Request(release)).readiness_recorded is not None


# ---------------------------------------------------------------------------------------------
# Every case, finding and run.


def _cases():
    for path in STARTUPS:
        for name, case in sorted(_document(path)["cases"].items()):
            yield pytest.param(path.parent.name, case, id=f"{path.parent.name}:{name}")


def _findings():
    for path in STARTUPS:
        for i, finding in enumerate(_document(path)["findings"]):
            what = "+".join(finding.get("gates") or [finding.get("api", "")])
            yield pytest.param(path.parent.name, finding, id=f"{path.parent.name}:{finding['kind']}:{what}@{finding['emulated']}:{i}")


def _runs():
    for path in STARTUPS:
        document = _document(path)
        refuted = refuted_probes(document)
        for run in document["runs"]:
            yield pytest.param(path.parent.name, run, run["id"] in refuted, id=f"{path.parent.name}:{run['id']}")


def _refusals():
    for path in REFUSALS:
        for name, case in sorted(_document(path).items()):
            yield pytest.param(path.parent.name, case, id=f"{path.parent.name}:{name}")


@pytest.mark.parametrize("release, case", list(_cases()))
def test_every_option_case_agrees(release, case):
    check(release, case)


@pytest.mark.parametrize("release, finding", list(_findings()))
def test_every_finding_is_not_ready_and_its_fix_makes_it_ready(release, finding):
    check(release, finding)
    answer = _startup(release, tuple(finding["flags"]))
    if finding["kind"] == "gates" and finding.get("needs"):
        fixed = _startup(release, (*finding["flags"], "--runtime-config=" + ",".join(f"{gv}=true" for gv in finding["needs"])))
        assert fixed.verdict == "starts", fixed.problems
        (hint,) = [h for h in answer.hints if h.kind.value == "readiness"]
        assert set(hint.names) == set(finding["needs"])


@pytest.mark.parametrize("release, run, refuted", list(_runs()))
def test_every_recorded_run_agrees(release, run, refuted):
    if refuted:
        # a short probe that a long start of the same flags refutes: kcompat must say it starts
        assert _startup(release, tuple(run["flags"])).verdict == "starts"
        return
    check(release, run)


@pytest.mark.parametrize("release, case", list(_refusals()))
def test_every_refusal_case_agrees(release, case):
    check(release, case)


# ---------------------------------------------------------------------------------------------
# What docs/agreement.md states.


def startup_agreement_rows() -> list[str]:
    """The readiness agreement table of docs/agreement.md, counted from the recordings (what the tests above
    compare): per release the option cases, the findings, every run (the cases are runs too) by
    recorded verdict, the refusal cases, the short probes a longer start refuted, the verdicts that
    agree, and those not compared (:func:`harness_fault`, :func:`missing_gates`)."""
    rows = []
    for path in sorted(STARTUPS, key=lambda p: _version_key(p.parent.name)):
        folder, release = path.parent, path.parent.name
        document = _document(path)
        refusals = _document(folder / "refusals.json") if (folder / "refusals.json").is_file() else {}
        verdicts = [VERDICTS[r["verdict"]] for r in document["runs"]]
        records = [*document["cases"].values(), *document["findings"], *document["runs"], *refusals.values()]
        faults = sum(1 for r in records if harness_fault(r))
        lacking = sum(1 for r in records if not harness_fault(r) and missing_gates(release, _startup(release, tuple(r["flags"]))))
        total = len(records)
        agree = total - faults - lacking
        rows.append(
            f"| {release} | {len(document['cases'])} | {len(document['findings'])} | {len(document['runs'])} "
            f"({verdicts.count('starts')} / {verdicts.count('not-ready')} / {verdicts.count('refuses')}) | {len(refusals)} | "
            f"{len(refuted_probes(document))} | {agree:,} of {agree:,} | {faults} / {lacking} |"
        )
    return rows


def test_the_agreement_page_states_the_startup_agreement_the_recordings_give():
    readme = (Path(__file__).resolve().parents[2] / "docs" / "agreement.md").read_text()
    for row in startup_agreement_rows():
        assert row in readme, f"docs/agreement.md lacks the row: {row}"


def test_the_gates_the_oracle_starts_where_allalpha_is_refused_are_ones_the_binary_takes():
    """oracle/readiness.py: where AllAlpha=true is refused, it starts the Alpha gates that can be set
    with the gates they depend on; kcompat (which agrees with every recorded refusal) takes them."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "oracle"))
    import readiness as oracle_readiness

    gates_json = json.loads((ORACLE / "v1.37.2" / "gates.json").read_text())
    by_name = {g["name"]: g for g in gates_json}
    for emulated in ("1.34", "1.35", "1.37"):
        candidates = oracle_readiness.meta_candidates(gates_json, emulated, "Alpha")
        chosen = oracle_readiness.settable(candidates, by_name, emulated)
        assert chosen and len(chosen) <= len(candidates)
        flags = oracle_readiness.gate_flags(chosen, by_name, emulated, [])
        evaluation = gate_evaluation(CATALOG, Request("1.37.2", emulated, None, flags[0].removeprefix("--feature-gates=")))
        assert evaluation.valid, (emulated, evaluation.errors)
