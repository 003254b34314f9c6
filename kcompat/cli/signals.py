"""SIGTERM and SIGHUP end a command the way Ctrl-C does.

Python turns SIGINT into ``KeyboardInterrupt``, so every ``finally`` block runs: temporary files
are removed, child process groups are stopped (:mod:`kcompat.data.children`), a started dashboard
server is stopped. SIGTERM (``kill``, a container stop, a CI timeout) and SIGHUP (a closed
terminal) would end the process at once and leave all of that behind. While a command runs,
:func:`signals_as_interrupts` makes them raise :class:`Stopped`, a ``KeyboardInterrupt``, once;
a second signal during the clean-up is ignored so that the clean-up finishes (it is bounded:
children get 2 s before SIGKILL). The exit status is then 128 + the signal's number, as a shell
reports a process the signal ended.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

try:  # the C module under ``signal``: importing ``signal`` builds its enums, a part of every CLI start
    import _signal as signal  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - other Python builds
    import signal

#: the signals that end a command like Ctrl-C
SIGNALS = tuple(s for s in (getattr(signal, n, None) for n in ("SIGTERM", "SIGHUP")) if s is not None)


class Stopped(KeyboardInterrupt):
    """The command was stopped by ``signum``."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        from signal import Signals

        return Signals(self.signum).name

    @property
    def exit_status(self) -> int:
        return 128 + self.signum


#: a command that must stop on Ctrl-C even when started with SIGINT ignored adds it (``kcompat data
#: refresh``: a shell starts a background job with SIGINT ignored, and ``kill -INT`` is then lost)
SIGINT = signal.SIGINT


@contextlib.contextmanager
def signals_as_interrupts(signals: tuple[int, ...] = SIGNALS) -> Iterator[None]:
    """``signals`` (SIGTERM and SIGHUP) raise :class:`Stopped` in the block, whatever handler they
    had, an inherited "ignore" too (main thread only; elsewhere nothing changes). The previous
    handlers come back afterwards."""
    raised = False

    def handler(signum: int, frame: object) -> None:
        nonlocal raised
        if raised:
            return  # already stopping: let the clean-up finish
        raised = True
        raise Stopped(signum)

    previous = {}
    try:
        for sig in signals:
            previous[sig] = signal.signal(sig, handler)
    except ValueError:  # not the main thread: signals stay as they are
        pass
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
