"""Work on an uploaded manifest, in a short-lived process of its own.

Parsing a 2 MB manifest and evaluating its 1,000 gates creates millions of short-lived Python
objects. Done inside the server, they share the allocator's arenas with whatever the other
sessions keep at the same moment (cache entries, Streamlit's bookkeeping), and those few
survivors pin the arenas after the upload is gone: a crowd of uploading sessions left the server
110 MB larger for good. Here the work runs in a child process that exits when done, so its
memory goes back to the system whole, a hostile file can cost at most :data:`CPU_SECONDS` of CPU
(the child's own limit) and :data:`TIMEOUT` of waiting, and a crash costs the upload, not the
server. The server keeps only the results: a gate count or the problems found, a view's table
(built from the column lists the child sends), a download's text.

Requests and answers are pickled tuples of plain values over the child's stdin and stdout:

- ``("view", data, binary, emulated, min_compat, feature_gates)`` -> ``("view", fields)`` (the
  :class:`~kcompat.answers.gates_view.GatesView` in plain values: see ``gates_view.view_fields``) or
  ``("problems", (message, ...))``
- ``("download", data, binary, emulated, min_compat, feature_gates, fmt)`` -> ``("text", str)`` or problems

``data`` is the file's bytes; the binary's registration rules apply (as ``kcompat gates
--manifest`` does). Run as ``python -m dashboard.components.upload_worker``.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
from pathlib import Path

#: Largest manifest accepted (the real 1.37 list is about 60 kB); the server refuses above 5 MB.
MAX_BYTES = 2 * 1024 * 1024
#: CPU seconds the child may use (it is killed past them): the largest valid upload needs < 1 s.
CPU_SECONDS = 10
#: Seconds the server waits for an answer.
TIMEOUT = 30.0

def ask(request: tuple) -> tuple:
    """Run one request in a fresh child process; any failure of the child becomes a problem."""
    root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "dashboard.components.upload_worker"],
            input=pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL),
            capture_output=True, timeout=TIMEOUT, env=env, check=False,
        )
    except subprocess.TimeoutExpired:
        return ("problems", (f"checking the uploaded file took longer than {TIMEOUT:.0f} s and was stopped",))
    except OSError as exc:
        return ("problems", (f"the uploaded file could not be checked: {exc.strerror or exc}",))
    if done.returncode != 0 or not done.stdout:
        reason = f"signal {-done.returncode}" if done.returncode < 0 else f"exit status {done.returncode}"
        if done.returncode in (-signal.SIGXCPU, -signal.SIGKILL):  # RLIMIT_CPU's soft, then hard limit
            reason += f" (more than {CPU_SECONDS} s of CPU)"
        return ("problems", (f"checking the uploaded file failed: the worker ended with {reason}",))
    return pickle.loads(done.stdout)  # noqa: S301 - our own child's answer, plain values only


def answer(request: tuple) -> tuple:
    """The answer to one request, computed in this process (what the child runs)."""
    from kcompat.data.catalog import catalog_from_environment
    from kcompat.core.compat import parse_binary_version
    from kcompat.core.errors import KcompatError
    from kcompat.core.manifest import Manifest, ManifestError, load_manifest_bytes, registration_for
    from kcompat.core.versions import mm

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
    from kcompat.answers.gates_view import gates_download, view_fields

    try:
        if kind == "view":
            return ("view", view_fields(cat, binary, emulated, min_compat, feature_gates, manifest))
        if kind == "download":
            return ("text", gates_download(cat, fmt[0], binary, emulated, min_compat, feature_gates, manifest))
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
