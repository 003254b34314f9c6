"""The version flags (component-base ``compatibility``/``featuregate`` ``Validate``, pflag)."""

from __future__ import annotations

from dataclasses import dataclass

from ..versions import Version, mm
from .base import Problem


@dataclass(frozen=True, slots=True)
class FlagValueRejected(Problem):
    """A flag value the binary cannot read at all (``--emulated-version=1.3x``,
    ``--feature-gates=Foo``): the parser's own words, for the flag named."""

    flag: str
    text: str

    @property
    def message(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class OtherComponentRefuses(Problem):
    """A refusal of another control-plane component given the same flags (``kcompat config`` for
    every component): its own line, named ``kube-scheduler: ...``."""

    component: str
    problem: Problem

    @property
    def message(self) -> str:
        return f"{self.component}: {self.problem.message}"

    @property
    def gate(self) -> str | None:
        return self.problem.gate


@dataclass(frozen=True, slots=True)
class FlagSyntaxRefused(Problem):
    """A word of a command line the binary's flag parser (spf13/pflag) refuses before any other
    check: ``unknown shorthand flag: 'e' in -emulated-version=1.34``, ``flag needs an argument``
    (the text is :func:`kcompat.core.inspect.messages.pflag_error`'s, from pflag's ``errors.go``)."""

    word: str
    text: str

    @property
    def message(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class UnknownFlag(Problem):
    """pflag's ``unknown flag: --NAME``: the binary's release has no such flag. ``release`` and
    ``since`` (the release that adds it) or ``last`` (the last release that has it) say so beside
    pflag's words when given."""

    flag: str
    release: Version | None = None
    since: Version | None = None
    last: Version | None = None

    @property
    def message(self) -> str:
        text = f"unknown flag: --{self.flag}"
        if self.release is not None and self.since is not None:
            text += f" (a {self.release} binary has no such flag; it exists from {self.since})"
        elif self.release is not None and self.last is not None:
            text += f" (a {self.release} binary has no such flag; the last release with it is {self.last})"
        return text


@dataclass(frozen=True, slots=True)
class EmulationOutOfRange(Problem):
    """``emulation version E is not between [L, H]`` (``EffectiveVersion.Validate``)."""

    value: Version
    low: Version
    high: Version
    binary: Version

    @property
    def message(self) -> str:
        return f"emulation version {self.value} is not between [{self.low}, {self.high}]"


@dataclass(frozen=True, slots=True)
class MinCompatOutOfRange(Problem):
    """``minCompatibilityVersion version M is not between [L, H]`` (``EffectiveVersion.Validate``);
    ``binary`` is None for a component without one (the range is then [0.0, emulated])."""

    value: Version
    low: Version
    high: Version
    binary: Version | None
    emulated: Version

    @property
    def message(self) -> str:
        return f"minCompatibilityVersion version {self.value} is not between [{self.low}, {self.high}]"


@dataclass(frozen=True, slots=True)
class EmulationMustEqualBinary(Problem):
    """1.31's compatibility-version alpha: the emulation version must be the binary's
    (apiserver@v0.31 ``util/version`` ``Validate``); ``shown`` carries the binary's pre-release."""

    binary: Version
    shown: Version

    @property
    def message(self) -> str:
        return (
            f"emulation version needs to be equal to binary version({mm(self.binary)}) in compatibility-version alpha, "
            f"got {self.shown}"
        )


#: The kinds a version selection's check finds (each one's remedy is a "version-range" remedy).
VERSION_RANGE_KINDS = (EmulationOutOfRange, MinCompatOutOfRange, EmulationMustEqualBinary)
