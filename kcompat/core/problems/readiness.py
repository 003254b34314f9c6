"""Readiness: kube-apiserver starts, then exits or never reports ready (:mod:`kcompat.core.readiness`)."""

from __future__ import annotations

from dataclasses import dataclass

from ..versions import Version
from .base import Problem, Verdict


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def _start(recorded: str, ended: str, seconds: int, line: str, failing: tuple[str, ...], waits: tuple[str, ...]) -> str:
    """How the recorded start ended: exited after N s with its fatal line, or never ready with its
    failing checks; and what its informers kept failing to list."""
    if ended == "exited":
        text = f"{recorded} exited after about {seconds} s" + (f": {line}" if line else "")
    else:
        text = f"{recorded}'s /readyz never reported ok in {seconds} s" + (f" (failing: {', '.join(failing)})" if failing else "")
    if waits:
        text += "; it kept failing to list " + ", ".join(f"*{w}" for w in waits)
    return text


@dataclass(frozen=True, slots=True)
class GatesNotReady(Problem):
    """Gates on at an emulated version where the real binary starts but never gets ready: without
    the group/versions ``missing`` (``kinds`` their kinds), or with no --runtime-config that fixes
    it (``missing`` empty; ``fixed_by_all_apis``: --runtime-config=api/all=true does, no smaller
    set was found). How the recorded start of ``recorded`` ended: ``ended`` ("exited" after
    ``seconds`` with its fatal ``line``, or "not-ready" with the ``failing`` /readyz checks)."""

    verdict = Verdict.NOT_READY
    gates: tuple[str, ...]
    emulated: Version
    missing: tuple[str, ...]
    kinds: tuple[str, ...]
    recorded: str
    ended: str
    seconds: int
    line: str = ""
    failing: tuple[str, ...] = ()
    waits_for: tuple[str, ...] = ()
    fixed_by_all_apis: bool = False
    #: a recorded start of these gates alone: which --runtime-config fixes it was not searched for
    unsearched: bool = False

    @property
    def gate(self) -> str:
        return self.gates[0]

    @property
    def message(self) -> str:
        on = f"{_names(self.gates)} on at emulated version {self.emulated}"
        if self.missing:
            kinds = f" ({', '.join(self.kinds)})" if self.kinds else ""
            why = f"{on} needs {_names(self.missing)}{kinds}, which is not served"
        elif self.fixed_by_all_apis:
            why = f"{on} needs APIs that are off (with --runtime-config=api/all=true it gets ready)"
        elif self.unsearched:
            why = f"{on} (no --runtime-config that fixes it was searched for)"
        else:
            why = f"{on}, whatever --runtime-config enables"
        started = _start(self.recorded, self.ended, self.seconds, self.line, self.failing, self.waits_for)
        return f"kube-apiserver starts but does not become ready: {why} ({started})"


@dataclass(frozen=True, slots=True)
class ReadinessNotSearched(Problem):
    """Gates of ``stage`` turned on at an emulated version where the recorded starts of
    ``recorded`` could not narrow that stage's gates down (``--feature-gates=AllAlpha=true``, or
    AllBeta, is refused there): whether they keep kube-apiserver from getting ready is not known.
    kcompat's note beside the binary's lines (shown with the warnings), not a line of the binary."""

    verdict = Verdict.WARNS
    gates: tuple[str, ...]
    emulated: Version
    stage: str
    recorded: str

    @property
    def gate(self) -> str:
        return self.gates[0]

    @property
    def message(self) -> str:
        meta = "AllAlpha" if self.stage == "Alpha" else "AllBeta"
        shown = self.gates if len(self.gates) <= 4 else (*self.gates[:3], f"{len(self.gates) - 3} other {self.stage} gates")
        return (f"whether kube-apiserver becomes ready with {_names(shown)} on at emulated version {self.emulated} is not known: "
                f"the recorded starts of {self.recorded} could not search its {self.stage} gates there "
                f"(--feature-gates={meta}=true is refused at {self.emulated})")


@dataclass(frozen=True, slots=True)
class ApiOffNotReady(Problem):
    """A group/version (or one ``resource`` of it) that a default start serves and the real binary
    cannot get ready without, turned off by --runtime-config; the recorded start as in
    :class:`GatesNotReady`."""

    verdict = Verdict.NOT_READY
    group_version: str
    resource: str | None
    recorded: str
    ended: str
    seconds: int
    line: str = ""
    failing: tuple[str, ...] = ()
    waits_for: tuple[str, ...] = ()

    @property
    def api(self) -> str:
        return f"{self.group_version}/{self.resource}" if self.resource else self.group_version

    @property
    def message(self) -> str:
        started = _start(self.recorded, self.ended, self.seconds, self.line, self.failing, self.waits_for)
        return f"kube-apiserver starts but does not become ready: --runtime-config turns off {self.api}, which it needs ({started})"


#: The kinds whose verdict is Verdict.NOT_READY.
NOT_READY_KINDS = (GatesNotReady, ApiOffNotReady)
