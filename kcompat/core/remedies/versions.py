"""Remedies beside the version flags' range refusals: the range and the nearest valid value
(component-base ``EffectiveVersion.Validate``; 1.31's "needs to be equal")."""

from __future__ import annotations

from ..compat import VersionSelection, rules_for
from ..problems import (
    EmulationMustEqualBinary,
    EmulationOutOfRange,
    MinCompatOutOfRange,
    Problem,
    Remedy,
    RemedyKind,
)
from ..versions import Version, major_minor, mm

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def _nearest(value: Version, low: Version, high: Version) -> Version:
    return low if value < low else high if value > high else value


def _emulation(problem: EmulationOutOfRange) -> Remedy:
    low, high, binary = mm(problem.low), mm(problem.high), mm(problem.binary)
    text = (
        f"a {binary} binary emulates {low} to {high}: "
        f"set --emulated-version={_nearest(mm(problem.value), low, high)} (the nearest valid value), or drop the flag for {binary}"
    )
    return Remedy(RemedyKind.VERSION_RANGE, problem, text, ("--emulated-version",))


def _min_compat(problem: MinCompatOutOfRange) -> Remedy | None:
    if problem.binary is None:
        return None
    low, high, binary, emulated = mm(problem.low), mm(problem.high), mm(problem.binary), mm(problem.emulated)
    rules = rules_for(problem.binary)
    if low > high:
        text = (
            f"the min compatibility range [{low}, {high}] is empty because the emulated version {emulated} "
            "is out of range: fix --emulated-version first"
        )
    elif not rules.has_min_compat_flag or low == high:
        text = f"a {binary} binary allows only min compatibility {low}: drop --min-compatibility-version"
    else:
        text = (
            f"at emulated {emulated} a {binary} binary allows min compatibility {low} to {high} "
            f"(never above the emulated version): set --min-compatibility-version={_nearest(mm(problem.value), low, high)} "
            f"(the nearest valid value), or drop the flag for {rules.default_min_compat(problem.emulated)}"
        )
    return Remedy(RemedyKind.VERSION_RANGE, problem, text, ("--min-compatibility-version",))


def _first_release(problem: EmulationMustEqualBinary) -> Remedy:
    binary = problem.binary
    text = (
        f"a {mm(binary)} binary cannot emulate another release: drop --emulated-version, "
        f"or use a {major_minor(binary.major, binary.minor + 1)} or later binary"
    )
    return Remedy(RemedyKind.VERSION_RANGE, problem, text, ("--emulated-version",))


#: problem type -> its remedy (the problem alone says all the remedy needs)
REMEDIES: dict[type[Problem], Callable[[Any], Remedy | None]] = {
    EmulationOutOfRange: _emulation,
    MinCompatOutOfRange: _min_compat,
    EmulationMustEqualBinary: _first_release,
}


def version_remedy(problem: Problem) -> Remedy | None:
    """The remedy of one version-flag problem, or None (another kind, or nothing to say)."""
    remedy = REMEDIES.get(type(problem))
    return remedy(problem) if remedy is not None else None


def version_remedies(selection: VersionSelection) -> tuple[Remedy, ...]:
    """The range and the nearest valid value beside each range refusal of the version flags."""
    return tuple(r for r in map(version_remedy, selection.problems) if r is not None)
