"""What the tests of tests/oracle share: reading the recordings of data/oracle/ and the binary's
lines, and the agreement table of docs/agreement.md counted from them."""

from __future__ import annotations

import json
import re
from pathlib import Path

from kcompat import DATA_DIR
from kcompat.core.components import KUBE_APISERVER, OTHER_COMPONENTS

ORACLE = DATA_DIR / "oracle"
#: /metrics labels -> kcompat's stage names
STAGES = {"": "GA", "ALPHA": "Alpha", "BETA": "Beta", "DEPRECATED": "Deprecated"}
META_GATES = {"AllAlpha", "AllBeta"}


def flags_of(args: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for arg in args:
        key, _, value = arg[2:].partition("=")
        out.setdefault(key, []).append(value)
    return out


def binary_error(line: str) -> str:
    """The message of a component's ``"command failed" err="..."`` line."""
    match = re.search(r'err="(.*)"$', line)
    assert match, line
    return match.group(1).replace('\\"', '"')


def aggregate(errors: list[str]) -> str:
    """``utilerrors.NewAggregate(errs).Error()``: one message alone, several in brackets."""
    return errors[0] if len(errors) == 1 else "[" + ", ".join(errors) + "]"


def verdict(case: dict) -> str:
    """A refusal case's verdict (recordings before verdicts existed: every case exited with 1, refused)."""
    return case.get("verdict") or ("refused" if case.get("exitStatus") == 1 else "exited")


def discovered(record: dict) -> dict[tuple[str, str, str], dict]:
    """Every resource a live run's discovery served, with its subresources."""
    out = {}
    for gv, resources in record["discovery"].items():
        group, _, version = gv.rpartition("/")
        for r in resources:
            if "/" not in r["name"]:
                subs = sorted(x["name"].split("/", 1)[1] for x in resources if x["name"].startswith(r["name"] + "/"))
                out[(group, version, r["name"])] = dict(r, subresources=subs)
    return out


def _release_key(folder: Path) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", folder.name))


def _read(path: Path) -> dict:
    return json.loads(path.read_text())


def _refusals(path: Path) -> int:
    """The refusal cases the tests compare: those the binary refused or started with."""
    return sum(verdict(c) in ("refused", "ready") for c in _read(path).values()) if path.is_file() else 0


def agreement_rows() -> list[str]:
    """The agreement table of docs/agreement.md, counted from the recordings: one row per recorded release and
    component (every answer the tests compare)."""
    rows = []
    for folder in sorted({p.parent.parent for p in ORACLE.glob("v*/live/*.json")}, key=_release_key):
        runs = [_read(p) for p in sorted((folder / "live").glob("*.json"))]
        gates = sum(len(set(r["gates"]) - META_GATES) for r in runs)
        found = [discovered(r) for r in runs]
        resources = sum(len(d) for d in found)
        subresources = sum(len(v["subresources"]) for d in found for v in d.values())
        hashes = sum(1 for d in found for v in d.values() if v.get("storageVersionHash"))
        refusals = _refusals(folder / "refusals.json")
        total = gates + resources + subresources + hashes + refusals + len(runs)
        rows.append(f"| {folder.name} | {KUBE_APISERVER} | {len(runs)} | {gates:,} | {resources:,} | {subresources:,} | {hashes:,} | "
                    f"{refusals} | {total:,} of {total:,} |")
        for component in OTHER_COMPONENTS:
            live = sorted((folder / component / "live").glob("*.json"))
            if not live:
                continue
            c_runs = [_read(p) for p in live]
            c_gates = sum(len(set(r["gates"]) - META_GATES) for r in c_runs)
            c_refusals = _refusals(folder / component / "refusals.json")
            c_total = c_gates + c_refusals + len(c_runs)
            rows.append(f"| {folder.name} | {component} | {len(c_runs)} | {c_gates:,} | - | - | - | {c_refusals} | {c_total:,} of {c_total:,} |")
    return rows


AGREEMENT_HEADER = (
    "| release | component | runs | gate states (`/metrics`) | served resources (discovery) | subresources | "
    "storage versions (hash) | refusals (binary's line) | answers that agree |\n|---|---|---|---|---|---|---|---|---|"
)


def agreement_total() -> int:
    """Every answer the table counts, all releases and components together."""
    return sum(int(row.rsplit("|", 2)[1].split(" of ")[0].strip().replace(",", "")) for row in agreement_rows())


if __name__ == "__main__":  # docs/agreement.md's table: python tests/oracle/oracle_support.py
    print(AGREEMENT_HEADER)
    print("\n".join(agreement_rows()))
    print(f"\n{agreement_total():,} answers in all")
