"""Work on an uploaded manifest, in a short-lived process of its own.

Parsing a 2 MB manifest and evaluating its 1,000 gates creates millions of short-lived Python
objects. Done inside the server, they share the allocator's arenas with whatever the other
sessions keep at the same moment (cache entries, Streamlit's bookkeeping), and those few
survivors pin the arenas after the upload is gone: a crowd of uploading sessions left the server
110 MB larger for good. Here the work runs in a child process that exits when done, so its
memory goes back to the system whole, a hostile file can cost at most :data:`CPU_SECONDS` of CPU
(the child's own limit) and :data:`TIMEOUT` of waiting, and a crash costs the upload, not the
server. The server keeps only the results: a gate count or the problems found, a view's table
(built from the answer the child sends), a download's text.

Requests and answers are pickled tuples of plain values over the child's stdin and stdout:

- ``("view", data, binary, emulated, min_compat, feature_gates)`` -> ``("view", answer)`` (the
  :class:`~kcompat.answers.gates.GatesAnswer`, plain values) or ``("problems", (message, ...))``
- ``("download", data, binary, emulated, min_compat, feature_gates, fmt)`` -> ``("text", str)`` (the
  text of ``kcompat gates --manifest FILE --format fmt``) or problems
- ``("inspect", ((name, data[, endpoint]), ...)[, binary, source])`` -> ``("document", (dict, dict | None))``: the ``kcompat
  inspect`` document of the Check a cluster page's inputs (:func:`kcompat.answers.inspect.inspect`;
  ``binary`` answers inputs that name none, ``source`` says where it came from: the Binary picker)
  and, when the binary accepts them, the ``kcompat config`` document of the selection they give
- ``("scan", ((name, data), ...), binary, emulated, min_compat, feature_gates, runtime_config,
  emulation_forward_compatible, runtime_config_emulation_forward_compatible)`` -> ``("scan", answer)``:
  the Check manifests page's :class:`~kcompat.answers.scan.ScanAnswer` (``kcompat scan``), or problems

``data`` is the file's bytes; the binary's registration rules apply (as ``kcompat gates
--manifest`` does). Run as ``python -m dashboard.uploads.worker``.
"""

from __future__ import annotations

import collections
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: Largest manifest accepted (the real 1.37 list is about 60 kB); the server refuses above 5 MB.
MAX_BYTES = 2 * 1024 * 1024
#: CPU seconds the child may use (it is killed past them): the largest valid upload needs about
#: 0.5 s, a Check a cluster of the largest inputs about 1 s. Also what one request can make the
#: requests queued behind it wait (:class:`FifoLock`).
CPU_SECONDS = 3
#: Seconds the server waits for an answer.
TIMEOUT = 30.0
#: How often a waiting request asks whether it is still wanted (the session still connected).
POLL_SECONDS = 0.1


class Cancelled(Exception):
    """The request was given up before it was answered (its session went away)."""


class FifoLock:
    """A lock taken in the order it was asked for (``threading.Lock`` wakes any waiter, so a
    request could wait behind any number of later ones). A waiter that is no longer wanted
    (``cancelled()``) leaves the queue without ever running."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._queue: collections.deque[object] = collections.deque()
        self._held = False

    def acquire(self, cancelled: Callable[[], bool] = lambda: False) -> None:
        """Wait for every earlier request, then hold the lock; :class:`Cancelled` if given up."""
        me = object()
        with self._cond:
            self._queue.append(me)
            try:
                while self._held or self._queue[0] is not me:
                    if cancelled():
                        raise Cancelled
                    self._cond.wait(POLL_SECONDS)
            except BaseException:
                self._queue.remove(me)
                self._cond.notify_all()
                raise
            self._queue.popleft()
            self._held = True

    def release(self) -> None:
        with self._cond:
            self._held = False
            self._cond.notify_all()

    def waiting(self) -> int:
        """Requests queued (not counting the one holding the lock)."""
        with self._cond:
            return len(self._queue)


def ask(request: tuple[Any, ...], cancelled: Callable[[], bool] = lambda: False) -> tuple[Any, ...]:
    """Run one request in a fresh child process; any failure of the child becomes a problem.
    The child is killed as soon as ``cancelled()`` is true (:class:`Cancelled` is raised)."""
    root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "dashboard.uploads.worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
        )
    except OSError as exc:
        return ("problems", (f"the uploaded file could not be checked: {exc.strerror or exc}",))
    answer_bytes: list[bytes] = []
    talk = threading.Thread(
        target=lambda: answer_bytes.append(child.communicate(pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL))[0]),
        daemon=True,
    )
    talk.start()
    deadline = time.monotonic() + TIMEOUT
    try:
        while talk.is_alive():
            talk.join(POLL_SECONDS)
            if cancelled():
                raise Cancelled
            if time.monotonic() > deadline:
                return ("problems", (f"checking the uploaded file took longer than {TIMEOUT:.0f} s and was stopped",))
    finally:
        if child.poll() is None:
            child.kill()
            talk.join()
    out = answer_bytes[0] if answer_bytes else b""
    if child.returncode != 0 or not out:
        reason = f"signal {-child.returncode}" if child.returncode < 0 else f"exit status {child.returncode}"
        if child.returncode in (-signal.SIGXCPU, -signal.SIGKILL):  # RLIMIT_CPU's soft, then hard limit
            reason += f" (more than {CPU_SECONDS} s of CPU)"
        return ("problems", (f"checking the uploaded file failed: the worker ended with {reason}",))
    answered: tuple[Any, ...] = pickle.loads(out)  # noqa: S301 - our own child's answer, plain values only
    return answered


def answer(request: tuple[Any, ...]) -> tuple[Any, ...]:
    """The answer to one request, computed in this process (what the child runs)."""
    from kcompat.core.compat import parse_binary_version
    from kcompat.core.errors import KcompatError
    from kcompat.core.manifest import Manifest
    from kcompat.core.registration import (
        ManifestError,
        load_manifest_bytes,
        registration_for,
    )
    from kcompat.core.versions import mm
    from kcompat.data.catalog import catalog_from_environment

    if request[0] == "inspect":
        from kcompat.answers.config import config_for_inspection
        from kcompat.answers.inspect import InspectQuery, inspect
        from kcompat.core.inspect import GivenBinary
        from kcompat.documents.config import config_document
        from kcompat.documents.inspect import inspect_document

        catalog = catalog_from_environment()
        given = GivenBinary(request[2], request[3], fallback=True) if len(request) > 3 else None
        inspection = inspect(catalog, list(request[1]), InspectQuery(binary=given))
        config = config_document(config_for_inspection(catalog, inspection)) if inspection.valid else None
        return ("document", (inspect_document(inspection), config))
    if request[0] == "scan":
        from kcompat.answers.scan import scan
        from kcompat.core.request import Request

        _, inputs, binary, emulated, min_compat, feature_gates, runtime_config, efc, rcefc = request
        try:
            selection = Request.of(binary, emulated, min_compat, feature_gates, runtime_config, emulation_forward_compatible=efc,
                                   runtime_config_emulation_forward_compatible=rcefc)
            return ("scan", scan(catalog_from_environment(), selection, list(inputs)))
        except KcompatError as exc:
            return ("problems", (str(exc),))
    kind, data, binary, *rest = request
    try:
        registration = registration_for(mm(parse_binary_version(binary)))
        manifest = Manifest(load_manifest_bytes(data, "uploaded file", MAX_BYTES, registration))
    except ManifestError as exc:
        return ("problems", tuple(str(p) for p in exc.problems))
    except KcompatError as exc:
        return ("problems", (str(exc),))
    cat = catalog_from_environment()
    emulated, min_compat, feature_gates, *fmt = rest
    from kcompat.answers.gates import gates
    from kcompat.core.request import Request
    from kcompat.documents.gates import gates_text

    try:
        if kind == "view":
            return ("view", gates(cat, Request.of(binary, emulated, min_compat, feature_gates), manifest))
        if kind == "download":
            return ("text", gates_text(gates(cat, Request.of(binary, emulated, min_compat, feature_gates), manifest), fmt[0]))
    except KcompatError as exc:
        return ("problems", (str(exc),))
    raise ValueError(f"unknown request {kind!r}")


def limit_cpu() -> None:
    """At most :data:`CPU_SECONDS` of CPU for this process (then the kernel stops it)."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 1))
    except (ImportError, ValueError, OSError):  # not POSIX, or a lower hard limit already
        pass


def main() -> int:
    limit_cpu()
    request = pickle.loads(sys.stdin.buffer.read())  # noqa: S301 - written by ask() in the server
    sys.stdout.buffer.write(pickle.dumps(answer(request), protocol=pickle.HIGHEST_PROTOCOL))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
