"""What every problem is: :class:`Verdict`, :class:`Problem`, and the notes kcompat adds beside the binary's lines."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum


class Verdict(Enum):
    """What the binary does about a problem."""

    #: it exits at start-up with the message (an error)
    REFUSES = "refuses to start"
    #: it starts and logs the message (a warning)
    WARNS = "starts and warns"
    #: it starts but never becomes ready (it exits on a post-start hook, or /readyz keeps failing)
    NOT_READY = "starts but does not become ready"


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing the binary says about its input. Subclasses hold the values; ``message``
    renders the binary's line from them."""

    #: what the binary does about it (a class attribute of each kind, not a field)
    verdict = Verdict.REFUSES

    @property
    def message(self) -> str:
        """The binary's line, byte for byte."""
        raise NotImplementedError(type(self).__name__)

    @property
    def gate(self) -> str | None:
        """The gate the problem names, as the message shows it; None when it names none."""
        return None

    @property
    def refuses(self) -> bool:
        return self.verdict is Verdict.REFUSES

    @property
    def warns(self) -> bool:
        return self.verdict is Verdict.WARNS

    @property
    def not_ready(self) -> bool:
        return self.verdict is Verdict.NOT_READY

    def __str__(self) -> str:
        return self.message


def bool_word(value: bool) -> str:
    """A bool as Go prints it."""
    return "true" if value else "false"


def messages(problems: tuple[Problem, ...], verdict: Verdict) -> tuple[str, ...]:
    """The messages of the problems with ``verdict``, in order."""
    return tuple(p.message for p in problems if p.verdict is verdict)


def unique(problems: Iterable[Problem]) -> tuple[Problem, ...]:
    """``problems`` without those whose line repeats an earlier one's (the binary prints each once)."""
    seen: dict[str, Problem] = {}
    for problem in problems:
        seen.setdefault(problem.message, problem)
    return tuple(seen.values())


@dataclass(frozen=True, slots=True)
class Note(Problem):
    """A line kcompat adds beside the binary's (what it could not check, which data it used):
    shown with the warnings, never a refusal, no remedy."""

    verdict = Verdict.WARNS
    text: str

    @property
    def message(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class PatchNotRecorded(Problem):
    """A binary named with a patch (or pre-release) the data has no recording of: the nearest
    recorded patch answers for it (``answered_as``), and kcompat says so beside the binary's lines."""

    verdict = Verdict.WARNS
    #: the patch asked for, as shown ("1.36.7", "1.38.0-rc.1")
    asked: str
    #: the recorded patches of its release, oldest first
    recorded: tuple[str, ...]
    #: the recorded patch whose data answers ("1.36.5")
    answered_as: str
    #: the recorded ones are pre-releases of a development release
    pre_release: bool = False

    @property
    def message(self) -> str:
        return (f"{self.asked} is not a recorded {'release' if self.pre_release else 'patch release'} "
                f"(recorded: {', '.join(self.recorded)}); answered as {self.answered_as}, the nearest recorded patch")
