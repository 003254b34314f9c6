"""An exec credential plugin run within kcompat's limits, as a program of its own:
``python -P -m kcompat.data.exec_bounds --report FILE [--cwd DIR] -- PROGRAM ARGS...``.

:mod:`kcompat.data.live_config` gives the Kubernetes client this command in the place of the
kubeconfig's ``exec`` command (in kcompat's copy of the kubeconfig): the client's ``ExecProvider``
starts it and speaks the ``ExecCredential`` protocol with what it prints, and this program runs
the plugin by :func:`kcompat.data.children.run_bounded`: its stdout up to :data:`MAX_EXEC_BYTES`,
within :data:`EXEC_TIMEOUT` seconds, its stderr drained with its last
:data:`MAX_EXEC_STDERR_BYTES` kept, in its own process group stopped with everything it started
when a limit is passed, on SIGTERM, SIGHUP or SIGINT, or when kcompat is gone. The plugin gets
no stdin and is told it has no terminal (``spec.interactive: false`` in ``KUBERNETES_EXEC_INFO``).

What it prints on stdout is the plugin's stdout, and only when the plugin finished within the
limits; it exits with the plugin's status (1 when the plugin was stopped, 128 + N when a signal N
ended it); it writes nothing on stderr. FILE gets a JSON report for kcompat's message:
``{"status", "stopped", "stderr" (the tail), "error" (why the plugin could not be started)}``,
never the plugin's stdout (the credential). Imports only the standard library and
:mod:`kcompat.data.children`: it starts in a few tens of milliseconds.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from typing import Any

from .children import run_bounded

#: an exec plugin's stdout (an ExecCredential) and stderr kept for its message
MAX_EXEC_BYTES = 1024 * 1024
MAX_EXEC_STDERR_BYTES = 64 * 1024
#: seconds
EXEC_TIMEOUT = 60.0


class _Signalled(BaseException):
    """SIGTERM, SIGHUP or SIGINT: the plugin's process group is stopped on the way out."""


def _interrupt(signum: int, frame: object) -> None:
    raise _Signalled(signum)


def non_interactive(env: dict[str, str]) -> dict[str, str]:
    """``env`` with ``spec.interactive`` false in ``KUBERNETES_EXEC_INFO`` (the plugin has no terminal)."""
    with contextlib.suppress(ValueError, KeyError, TypeError, RecursionError):
        info = json.loads(env["KUBERNETES_EXEC_INFO"])
        info["spec"]["interactive"] = False
        env["KUBERNETES_EXEC_INFO"] = json.dumps(info)
    return env


def parse(argv: list[str]) -> tuple[str, str, list[str]]:
    """(the report file, the folder to run in or "", the plugin's command) of ``argv``."""
    report, cwd = "", ""
    rest = list(argv)
    while rest and rest[0] != "--":
        option = rest.pop(0)
        if option not in ("--report", "--cwd") or not rest:
            raise ValueError(f"unknown option {option}")
        if option == "--report":
            report = rest.pop(0)
        else:
            cwd = rest.pop(0)
    if not report or not rest or len(rest) < 2:
        raise ValueError("usage: --report FILE [--cwd DIR] -- PROGRAM ARGS...")
    return report, cwd, rest[1:]


def _write_report(path: str, report: dict[str, Any]) -> None:
    with contextlib.suppress(OSError):  # kcompat has gone and its folder with it
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(report, file)


def main(argv: list[str]) -> int:
    """Run the plugin of ``argv`` within the limits; the exit status."""
    try:
        path, cwd, command = parse(argv)
    except ValueError:
        return 2
    parent = os.getppid()
    report: dict[str, Any] = {"status": None, "stopped": "", "stderr": "", "error": ""}
    status = 1
    try:
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(sig, _interrupt)
        try:
            if cwd:
                os.chdir(cwd)
            code, out, err, stopped = run_bounded(
                command, MAX_EXEC_BYTES, EXEC_TIMEOUT, MAX_EXEC_STDERR_BYTES, env=non_interactive(dict(os.environ)),
                cancelled=lambda: "outlived kcompat" if os.getppid() != parent else "")
        except (OSError, ValueError) as exc:  # ValueError: a NUL byte in an argument or in env
            report["error"] = str(exc.strerror if isinstance(exc, OSError) and exc.strerror else exc)
            return 127
        report.update(status=code, stopped=stopped, stderr=err.decode("utf-8", "replace"))
        if stopped:
            return 1
        with contextlib.suppress(OSError):  # kcompat stopped reading
            sys.stdout.buffer.write(out)
            sys.stdout.buffer.flush()
        status = code if code >= 0 else 128 - code
        return status if 0 <= status <= 255 else 1
    except _Signalled as exc:
        report["stopped"] = f"was interrupted by {signal.Signals(exc.args[0]).name}"
        return 128 + int(exc.args[0])
    finally:
        _write_report(path, report)


if __name__ == "__main__":
    code = main(sys.argv[1:])
    with contextlib.suppress(OSError):
        sys.stdout.flush()
    os._exit(code)  # nothing more on stderr (a flush error of a closed pipe, say)
