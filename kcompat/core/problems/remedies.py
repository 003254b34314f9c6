"""Remedies: what to change so that the binary accepts its input, beside the problem it explains."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .base import Problem

#: At most this many remedies beside one answer (one per problem): a flood of unknown names
#: costs 20 searches, not thousands.
MAX_REMEDIES = 20


class RemedyKind(StrEnum):
    """What a remedy explains (the ``kind`` of a hint in the JSON documents, docs/cli.md)."""

    UNKNOWN_GATE = "unknown-gate"
    REMOVED_GATE = "removed-gate"
    LATER_GATE = "later-gate"
    NOT_INTRODUCED = "not-introduced"
    LOCKED = "locked"
    DEPENDENCY = "dependency"
    VERSION_RANGE = "version-range"
    RUNTIME_CONFIG = "runtime-config"
    OPTION = "option"
    READINESS = "readiness"
    FLAG_SYNTAX = "flag-syntax"


@dataclass(frozen=True, slots=True)
class Remedy:
    """What to change so that the binary accepts its input (or stops warning), beside the problem
    it explains: computed from the data by :mod:`kcompat.core.remedies`, never canned."""

    kind: RemedyKind
    problem: Problem
    text: str
    #: the names suggested for an unknown gate; the disabled dependencies; the release or
    #: min compatibility a gate needs; the flag (version-range) or group/version (runtime-config)
    names: tuple[str, ...] = ()

    @property
    def error(self) -> str:
        """The binary's line the remedy explains."""
        return self.problem.message

    @property
    def gate(self) -> str | None:
        return self.problem.gate

    @property
    def line(self) -> str:
        """The remedy as one line of text (the gate named first when the text does not)."""
        return f"{self.gate}: {self.text}" if self.kind is RemedyKind.UNKNOWN_GATE else self.text
