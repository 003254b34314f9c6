"""The ``kcompat rehearse`` report (Markdown and JSON): a rollback rehearsal's recording
(:mod:`kcompat.core.rehearsal`) and its judgement.

JSON: the recording (``from``, ``to``, ``fromMinor``, ``toMinor``, ``fromEmulated``, ``flags``,
``corpus``, ``phases`` with each object's ``read``/``decoded``/``updated``/``error``, ``seconds``)
plus ``judgement``: {"held", "read", "total", "broken", "unsupportedRollback": {"ok", "total"} or
null, "summary"}."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kcompat.core.errors import printable, shown
from kcompat.core.rehearsal import PHASES, Judgement


def rehearsal_document(recording: Mapping[str, Any], judgement: Judgement) -> dict[str, Any]:
    unsupported = judgement.unsupported
    return {
        **recording,
        "judgement": {
            "held": judgement.held, "read": judgement.read, "total": judgement.total, "broken": list(judgement.broken),
            "unsupportedRollback": {"ok": unsupported[0], "total": unsupported[1]} if unsupported is not None else None,
            "summary": judgement.summary,
        },
    }


def _names(names: Any) -> str:
    return printable(", ".join(str(n) for n in names or ())) or "none"


def _ok(r: Mapping[str, Any]) -> bool:
    return bool(r.get("created") if "created" in r else (r.get("read") and r.get("decoded") and r.get("updated")))


def rehearsal_markdown(recording: Mapping[str, Any], judgement: Judgement) -> str:
    corpus = recording.get("corpus") or {}
    promised = {name for name, _, p in PHASES if p}
    lines = [
        f"# Rollback rehearsal: {printable(recording.get('from'))} -> {printable(recording.get('to'))} -> {printable(recording.get('from'))}",
        "",
        f"{'The promise held' if judgement.held else 'THE PROMISE BROKE'}: {printable(judgement.summary)}",
        "",
        f"Corpus: {len(corpus.get('resources') or [])} resources written, one object each per writing phase; "
        f"no template ({len(corpus.get('noTemplate') or [])}): {_names(corpus.get('noTemplate'))}; "
        f"not stored ({len(corpus.get('notStored') or [])}): {_names(corpus.get('notStored'))}; "
        f"storage version changes in the pair: {_names(corpus.get('required'))}",
        "",
        "| phase | kube-apiserver | flags | objects ok | seconds |",
        "|---|---|---|---|---|",
    ]
    for phase in recording.get("phases") or ():
        results = phase.get("results") or []
        ok = sum(1 for r in results if _ok(r))
        count = f"{ok} of {len(results)}" if phase.get("started") else f"did not start: {printable(phase.get('error'))}"
        name = f"{printable(phase.get('name'))}{' (promised)' if phase.get('name') in promised else ''}"
        lines.append(f"| {name} | {printable(phase.get('binary'))} | {printable(' '.join(phase.get('flags') or [])) or '-'} | {count} | {phase.get('seconds')} |")
    missing = [f"No template at {printable(phase.get('name'))} ({len(phase['noTemplate'])}, not written): {_names(phase['noTemplate'])}"
               for phase in recording.get("phases") or () if phase.get("noTemplate")]
    lines += ["", *missing] if missing else []
    failures = [f"{p.get('name')}: {r.get('resource')} {r.get('object')}: {r.get('error')}"
                for p in recording.get("phases") or () for r in p.get("results") or () if r.get("error")]
    lines += ["", f"Errors ({len(failures)}):", *[f"- {printable(f.rstrip())}" for f in shown(failures)]]
    if judgement.unsupported is not None:
        lines += ["", f"The rollback the plan calls unsupported ({printable(recording.get('to'))} with --min-compatibility-version raised, "
                      f"then {printable(recording.get('from'))}): {judgement.unsupported[0]} of {judgement.unsupported[1]} objects read back, "
                      "decoded and updated (no promise: recorded as the binaries answered)."]
    lines += ["", f"Time: {recording.get('seconds')} s."]
    return "\n".join(lines) + "\n"
