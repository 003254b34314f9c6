"""Writing data files: all at once or not at all, with the modes they had, and a full disk named.

A refresh (``kcompat data refresh``) changes many files: the feature files of each release, the
API files, the files that hold one entry per release, and the compiled bundle. Inside
:func:`staged_writes` every :func:`write_file_atomically` and :func:`remove_file` is only
recorded (the text is kept in memory); :func:`current_text` reads a file as the refresh has left it
so far. When the block ends normally, :meth:`Staging.commit` changes the folder in one step:

1. every new text is written to a temporary file beside its target (``.<name>.XXXXXX``) with the
   mode of the file it replaces (a new file: ``0666`` less the umask, as ``open`` would give it;
   a root process also keeps the file's owner). A write that fails (a full disk) removes every
   temporary file and the folders it made, and names the file: nothing has changed;
2. with SIGINT, SIGTERM and SIGHUP held (``pthread_sigmask``), every temporary file is renamed
   over its target (``os.replace``, atomic per file) and every removed file is unlinked; a signal
   that came meanwhile is delivered once the last rename is done.

An exception or a signal before step 2 leaves the folder byte-identical (the CLI turns SIGTERM and
SIGHUP into an exception like SIGINT's, so the temporary files of step 1 are removed too).
Outside :func:`staged_writes`, :func:`write_file_atomically` commits one file at once.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import tempfile
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path

from ..core.errors import KcompatError, cut

#: The signals a commit holds until its renames are done (each would end the process part way).
HELD_SIGNALS = frozenset(s for s in (getattr(signal, n, None) for n in ("SIGINT", "SIGTERM", "SIGHUP")) if s is not None)

_ACTIVE: ContextVar[Staging | None] = ContextVar("kcompat_staging", default=None)


class WriteError(KcompatError):
    """A data file could not be written; the message names it (and a full disk as such)."""


def write_error(path: Path, exc: OSError) -> WriteError:
    """``exc`` (from writing ``path``) as a message that names the file and, for ENOSPC or a quota,
    says the disk is full."""
    reason = exc.strerror or str(exc)
    if exc.errno == errno.ENOSPC:
        reason = f"the disk is full ({reason}, ENOSPC)"
    elif exc.errno == getattr(errno, "EDQUOT", None):
        reason = f"the disk quota is used up ({reason}, EDQUOT)"
    return WriteError(f"cannot write {cut(str(path), 300)}: {reason}")


def _umask() -> int:
    """The process's umask, read without changing it where Linux tells it (``/proc/self/status``)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # elsewhere: read it by setting it, and put it back at once
    os.umask(mask)
    return mask


class Staging:
    """The files a refresh writes or removes, kept until :meth:`commit` (see the module)."""

    def __init__(self) -> None:
        self._texts: dict[Path, str | None] = {}  # absolute path -> new text, None: remove
        self.committed = False  # every rename of :meth:`commit` done

    def write(self, path: Path, text: str) -> None:
        self._texts[Path(os.path.abspath(path))] = text

    def remove(self, path: Path) -> None:
        self._texts[Path(os.path.abspath(path))] = None

    def staged(self, path: Path) -> tuple[bool, str | None]:
        """(whether ``path`` is staged, its new text or None when it is to be removed)."""
        key = Path(os.path.abspath(path))
        return (key in self._texts, self._texts.get(key))

    @property
    def paths(self) -> tuple[Path, ...]:
        return tuple(self._texts)

    def commit(self) -> None:
        """Write everything staged, in one step (see the module). Raises :class:`WriteError`, with
        nothing changed, when a file cannot be written."""
        prepared: list[tuple[str, Path]] = []  # (temporary file, target)
        temporaries: list[str] = []  # every temporary file created, listed as it is created
        made: list[Path] = []  # folders created for new files, removed again on failure
        removals = [p for p, t in self._texts.items() if t is None and os.path.lexists(p)]
        mask = _umask()
        done = False
        try:
            for path, text in self._texts.items():
                if text is not None:
                    prepared.append((_prepare(path, text, mask, made, temporaries), path))
            with held_signals():
                for temporary, path in prepared:
                    os.replace(temporary, path)
                for path in removals:
                    os.unlink(path)
                done = self.committed = True  # (a signal held meanwhile is delivered after this)
        finally:
            if not done:
                for temporary in temporaries:
                    with contextlib.suppress(OSError):
                        os.unlink(temporary)
                for folder in reversed(made):
                    with contextlib.suppress(OSError):
                        folder.rmdir()
        self._texts.clear()


def _prepare(path: Path, text: str, mask: int, made: list[Path], temporaries: list[str]) -> str:
    """A temporary file beside ``path`` holding ``text``, with ``path``'s mode (and owner, for
    root), ready to be renamed over it; listed in ``temporaries`` the moment it exists (signals
    held meanwhile), so that a signal at any point leaves none behind."""
    try:
        missing = [p for p in (path.parent, *path.parent.parents) if not p.exists()]
        for folder in reversed(missing):
            folder.mkdir()
            made.append(folder)
    except OSError as exc:
        raise write_error(path.parent, exc) from None
    try:
        current = os.stat(path)
    except FileNotFoundError:
        current = None
    except OSError as exc:
        raise write_error(path, exc) from None
    try:
        with held_signals():  # created and listed in one step
            handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
            temporaries.append(temporary)
    except OSError as exc:
        raise write_error(path, exc) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            if current is None:
                os.fchmod(out.fileno(), 0o666 & ~mask)
            else:
                os.fchmod(out.fileno(), current.st_mode & 0o7777)
                if os.geteuid() == 0 and (current.st_uid, current.st_gid) != (0, 0):
                    with contextlib.suppress(OSError):
                        os.fchown(out.fileno(), current.st_uid, current.st_gid)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise write_error(path, exc) from None
        raise
    return temporary


@contextlib.contextmanager
def held_signals() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP held for the block (delivered when it ends); the main thread only."""
    import threading

    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, HELD_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextlib.contextmanager
def staged_writes() -> Iterator[Staging]:
    """Every write and removal of the block staged, then committed in one step when the block ends
    normally; nothing written when it raises."""
    staging = Staging()
    token = _ACTIVE.set(staging)
    try:
        yield staging
    finally:
        _ACTIVE.reset(token)
    staging.commit()


def write_file_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path``: staged inside :func:`staged_writes`, else at once (a reader
    never sees half a file; the file keeps its mode)."""
    staging = _ACTIVE.get()
    if staging is not None:
        staging.write(path, text)
        return
    once = Staging()
    once.write(path, text)
    once.commit()


def remove_file(path: Path) -> None:
    """Remove ``path``: staged inside :func:`staged_writes`, else at once."""
    staging = _ACTIVE.get()
    if staging is not None:
        staging.remove(path)
    else:
        Path(path).unlink(missing_ok=True)


def staged_text(path: Path) -> tuple[bool, str | None]:
    """(whether ``path`` is staged by the writes so far, its new text or None for a removal)."""
    staging = _ACTIVE.get()
    return staging.staged(path) if staging is not None else (False, None)


def current_text(path: Path) -> str | None:
    """``path``'s text as the writes so far leave it (staged ones included), None when it does not
    exist (or is to be removed)."""
    staging = _ACTIVE.get()
    if staging is not None:
        found, text = staging.staged(path)
        if found:
            return text
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
