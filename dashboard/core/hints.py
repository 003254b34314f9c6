"""Hints beside the binary's errors: "did you mean ...?" for unknown gates, and the fix for a
dependency error. They never alter the binary's own error text; each hint names the error it
explains.

* ``unrecognized feature gate: <name>`` (component-base ``featuregate.unsafeSetFromMap``): the
  closest known names of the binary's gate set (``difflib`` ratio, case-insensitive equality
  first), AllAlpha/AllBeta included.
* ``<gate> is enabled, but depends on features that are disabled: [<deps>]`` (component-base
  ``featuregate.validateDependencies``, 1.35+, SPEC §5.6): one line naming the fix, "enable
  <deps> or leave <gate> off", adjusted when a dependency is locked off or not yet introduced at
  the emulated version, or when the gate was turned on by AllAlpha/AllBeta or by its default.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .gates import GateEvaluation
from .manifest import META_GATES, GateState
from .stages import Stage

#: At most this many hints (one per error); a flood of unknown names gets no more.
MAX_HINTS = 20
#: Names longer than this get no suggestions (no gate name is near it; difflib is quadratic).
MAX_SUGGESTED_NAME_LENGTH = 128
MAX_SUGGESTIONS = 3
SIMILARITY_CUTOFF = 0.75

UNKNOWN_PREFIX = "unrecognized feature gate: "
DEPENDENCY_MIDDLE = " is enabled, but depends on features that are disabled: ["


@dataclass(frozen=True)
class Hint:
    """One explanation of one of the binary's errors."""

    kind: str  # "unknown-gate" | "dependency"
    error: str  # the binary's error text, unchanged
    gate: str
    text: str
    #: the known names suggested for an unknown gate; the disabled dependencies for a dependency error
    names: tuple[str, ...] = ()

    @property
    def line(self) -> str:
        """The hint as one line of text (the gate named first when the text does not)."""
        return self.text if self.kind == "dependency" else f"{self.gate}: {self.text}"

    def as_dict(self) -> dict:
        return {"kind": self.kind, "error": self.error, "gate": self.gate, "text": self.text, "names": list(self.names)}


def closest_names(name: str, known: Iterable[str], limit: int = MAX_SUGGESTIONS) -> tuple[str, ...]:
    """The known names closest to ``name``, best first; () when none is close."""
    if not name or len(name) > MAX_SUGGESTED_NAME_LENGTH:
        return ()
    known = tuple(known)
    folded = name.casefold()
    same_case = tuple(k for k in known if k.casefold() == folded and k != name)
    if same_case:
        return same_case[:limit]
    by_folded = {}
    for k in known:
        by_folded.setdefault(k.casefold(), k)
    matches = difflib.get_close_matches(folded, list(by_folded), n=limit, cutoff=SIMILARITY_CUTOFF)
    return tuple(by_folded[m] for m in matches)


def unknown_gate_name(error: str) -> str | None:
    """The gate an ``unrecognized feature gate`` error names, else None."""
    return error[len(UNKNOWN_PREFIX) :] if error.startswith(UNKNOWN_PREFIX) else None


def dependency_error_parts(error: str) -> tuple[str, tuple[str, ...]] | None:
    """(gate, disabled dependencies) of a dependency error, else None (plain string splitting)."""
    gate, found, rest = error.partition(DEPENDENCY_MIDDLE)
    if not found or not gate or not rest.endswith("]"):
        return None
    return gate, tuple(rest[:-1].split())


def _joined(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def unknown_gate_hint(error: str, known: Iterable[str]) -> Hint | None:
    name = unknown_gate_name(error)
    if name is None:
        return None
    names = closest_names(name, known)
    if not names:
        return None
    text = f"did you mean {' or '.join(names)}?"
    return Hint("unknown-gate", error, name, text, names)


def dependency_hint(error: str, states: dict[str, GateState], sources: dict[str, str], emulated: str) -> Hint | None:
    parts = dependency_error_parts(error)
    if parts is None:
        return None
    gate, deps = parts
    blocked = [d for d in deps if d in states and (states[d].stage is Stage.PRE_ALPHA or (states[d].locked and not states[d].default))]
    enable = [d for d in deps if d not in blocked]
    source = sources.get(gate, "")
    if source in ("AllAlpha", "AllBeta"):
        leave_off = f"set {gate}=false (turned on by {source}=true)"
    elif source == "default":
        leave_off = f"set {gate}=false (it is on by default at {emulated})"
    else:
        leave_off = f"leave {gate} off"
    if blocked:
        why = "; ".join(
            f"{d} is not yet introduced at {emulated}" if states[d].stage is Stage.PRE_ALPHA else f"{d} is locked off at {emulated}"
            for d in blocked
        )
        text = f"{gate} depends on {_joined(deps)}; {why}, so {leave_off}"
    else:
        text = f"{gate} depends on {_joined(deps)}: enable {_joined(enable)} or {leave_off}"
    return Hint("dependency", error, gate, text, deps)


def hints_for(evaluation: GateEvaluation) -> tuple[Hint, ...]:
    """The hints for an evaluation's errors, in the order of the errors (at most MAX_HINTS)."""
    errors = evaluation.errors
    if not errors:
        return ()
    known: tuple[str, ...] | None = None
    states: dict[str, GateState] | None = None
    sources: dict[str, str] = {}
    out: list[Hint] = []
    for error in errors[:MAX_HINTS]:  # the errors shown; a flood of unknown names costs 20 searches, not thousands
        hint = None
        if error.startswith(UNKNOWN_PREFIX):
            if known is None:
                known = tuple(g.name for g in evaluation.gates) + META_GATES
            hint = unknown_gate_hint(error, known)
        elif DEPENDENCY_MIDDLE in error:
            if states is None:
                states = {g.name: g for g in evaluation.gates}
                sources = _enabling_sources(evaluation)
            hint = dependency_hint(error, states, sources, str(evaluation.selection.emulated))
        if hint is not None:
            out.append(hint)
    return tuple(out)


def _enabling_sources(evaluation: GateEvaluation) -> dict[str, str]:
    """Why each gate would be on with the flags: "flag", "AllAlpha", "AllBeta" or "default".

    A dependency error means the flags were not applied (the binary refuses to start), so the
    sources are recomputed from the flag values the way ``unsafeSetFromMap`` resolves them."""
    values = dict(evaluation.flags.values) if evaluation.flags is not None else {}
    out: dict[str, str] = {}
    for g in evaluation.gates:
        if g.name in values:
            out[g.name] = "flag"
        elif g.stage is Stage.ALPHA and "AllAlpha" in values:
            out[g.name] = "AllAlpha"
        elif g.stage is Stage.BETA and "AllBeta" in values:
            out[g.name] = "AllBeta"
        else:
            out[g.name] = "default"
    return out


def hint_dicts(evaluation: GateEvaluation) -> list[dict]:
    """The ``"hints"`` list of the gates JSON document."""
    return [h.as_dict() for h in hints_for(evaluation)]
