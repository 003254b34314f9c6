"""Child processes that cannot outlive kcompat: each in its own process group, read within limits
of size and time, and stopped with everything it started.

Every program kcompat starts for a command's input (a kubeconfig's ``exec`` credential plugin,
``kubectl proxy``) goes through :func:`spawn`: a new session, so the child and whatever it starts
form one process group that :func:`stop` ends together (SIGTERM, then SIGKILL after a grace
period). The group is signalled only while its leader is not yet reaped, so its id cannot have
been reused. The CLI turns SIGTERM and SIGHUP into an exception, as Python does SIGINT, so the
``finally`` blocks that call :func:`stop` run on every way out.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence

#: seconds a stopped group has between SIGTERM and SIGKILL
STOP_GRACE = 2.0
#: seconds between two "still waiting" lines of :func:`run_bounded`
PROGRESS_EVERY = 3.0


def spawn(command: Sequence[str], *, env: Mapping[str, str] | None = None, stdin: int | None = subprocess.DEVNULL,
          stdout: int | None = subprocess.PIPE, stderr: int | None = subprocess.PIPE) -> subprocess.Popen[bytes]:
    """``command`` started in a new session (its own process group)."""
    return subprocess.Popen(list(command), stdin=stdin, stdout=stdout, stderr=stderr, env=None if env is None else dict(env),
                            start_new_session=True)


def stop(process: subprocess.Popen[bytes], grace: float = STOP_GRACE) -> int:
    """End ``process`` and its process group (SIGTERM, SIGKILL after ``grace`` seconds); its status."""
    if process.returncode is None:
        for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, None)):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, sig)  # the leader is not reaped yet: the group id is still its own
            try:
                return process.wait(wait)
            except subprocess.TimeoutExpired:
                continue
    return process.wait()


def run_bounded(  # noqa: C901 - one loop over both pipes, its limits and its progress, kept in one place
    command: Sequence[str],
    limit: int,
    timeout: float,
    err_limit: int,
    *,
    env: Mapping[str, str] | None = None,
    what: str = "",
    progress: Callable[[str], None] | None = None,
    cancelled: Callable[[], str] | None = None,
) -> tuple[int, bytes, bytes, str]:
    """Run ``command`` reading at most ``limit`` bytes of its stdout, for at most ``timeout``
    seconds, its stderr drained all along with only its last ``err_limit`` bytes kept (the last
    line is what a failing program has to say; a program chatty on stderr is not stopped for it):
    (exit status, stdout, stderr's tail, why it was stopped or ""). A program that writes more on
    stdout, or takes longer, is stopped with its process group; nothing past the limit of stdout
    is read. Every :data:`PROGRESS_EVERY` seconds ``progress`` is told what is
    awaited (``what``). ``cancelled`` is asked at least once a second: a reason it gives stops
    the program too (e.g. the process that awaits the answer is gone)."""
    process = spawn(command, env=env)
    assert process.stdout is not None and process.stderr is not None
    out, err = bytearray(), bytearray()
    bounds = {process.stdout: (out, limit, "stdout"), process.stderr: (err, err_limit, "")}
    started = time.monotonic()
    deadline = started + timeout
    next_note = started + PROGRESS_EVERY
    stopped = ""
    try:
        with selectors.DefaultSelector() as selector:
            for stream in bounds:
                selector.register(stream, selectors.EVENT_READ)
            while selector.get_map() and not stopped:
                now = time.monotonic()
                if now >= deadline:
                    stopped = f"did not finish within {timeout:g} s"
                    break
                if cancelled is not None:
                    stopped = cancelled()
                    if stopped:
                        break
                if progress is not None and now >= next_note:
                    progress(f"still waiting for {what or command[0]} ({now - started:.0f} s of at most {timeout:g} s)")
                    next_note = now + PROGRESS_EVERY
                for key, _ in selector.select(min(deadline - now, next_note - now, 1.0)):
                    buffer, most, name = bounds[key.fileobj]  # type: ignore[index]
                    chunk = os.read(key.fd, min(1 << 16, most + 1 - len(buffer)) if name else 1 << 16)
                    if not chunk:
                        selector.unregister(key.fileobj)
                        continue
                    buffer += chunk
                    if not name:  # stderr: its tail only
                        del buffer[:-most]
                    elif len(buffer) > most:
                        stopped = f"wrote more than the limit of {most:,} bytes on {name}"
                        break
        if not stopped:
            try:
                status = process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                stopped = f"did not exit within {timeout:g} s"
    finally:
        for stream in bounds:
            stream.close()
        if stopped or process.returncode is None:
            status = stop(process)
    return status, bytes(out), bytes(err), stopped
