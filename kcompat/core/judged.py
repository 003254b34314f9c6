"""What every result that holds the binary's problems says about them, written once.

A result (``VersionSelection``, ``GateEvaluation``, ``ApiAvailability``, ``StorageVersions``, the
start-up answer) keeps its problems in order in ``problems``; :class:`Judged` gives it the
messages of each verdict and whether the binary starts. It reads each problem's ``refuses`` and
``warns`` only, so the problem kinds are not imported for it (input the binary accepts never
imports them).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .problems import Problem


class Judged:
    """``errors``, ``warnings`` and ``valid`` of a result holding its problems in ``problems``."""

    __slots__ = ()
    problems: tuple[Problem, ...]

    @property
    def errors(self) -> tuple[str, ...]:
        """The binary's refusals, as it prints them, in order."""
        return tuple(p.message for p in self.problems if p.refuses)

    @property
    def warnings(self) -> tuple[str, ...]:
        """What the binary logs and starts anyway, in order."""
        return tuple(p.message for p in self.problems if p.warns)

    @property
    def valid(self) -> bool:
        """Whether the binary accepts the input (no problem refuses it)."""
        return not any(p.refuses for p in self.problems)
