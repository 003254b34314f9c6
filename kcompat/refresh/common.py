"""What both refreshes share: read-only git access with bounded output and time, the report,
release numbers and tags, and atomic writes."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from ..core.errors import KcompatError
from ..core.safe_yaml import DEFAULT_MAX_BYTES

FIRST_MINOR = 31  # the oldest release the dashboard covers (first with compatibility versions)
_RELEASE = re.compile(r"1\.(\d{1,4})")
#: Any git command's output is bounded (a tree listing of kubernetes is ~2 MB) and so is its time.
MAX_GIT_OUTPUT_BYTES = 64 * 1024 * 1024
GIT_TIMEOUT_SECONDS = 120
#: No manifest blob is read past this size (checked with ``git cat-file -s`` before reading).
MAX_MANIFEST_BLOB_BYTES = DEFAULT_MAX_BYTES

class RefreshError(KcompatError):
    """Bad input to a refresh: a path that is not a git repository, a malformed release, ..."""


# ---------------------------------------------------------------------------------------------
# The report.


@dataclass(frozen=True)
class SkippedRelease:
    release: str
    reason: str


@dataclass(frozen=True)
class GateRename:
    release: str
    file: str
    go_identifier: str
    flag_name: str


@dataclass(frozen=True)
class RefreshReport:
    """What one refresh wrote, removed and skipped. Paths are absolute."""

    what: str  # "features" | "apis"
    repository: Path
    out_dir: Path
    written: tuple[Path, ...] = ()
    removed: tuple[Path, ...] = ()
    skipped: tuple[SkippedRelease, ...] = ()
    renames: tuple[GateRename, ...] = ()
    notes: tuple[str, ...] = ()
    releases_written: tuple[str, ...] = ()

    def summary_lines(self) -> list[str]:
        def shown(path: Path) -> str:
            try:
                return str(path.relative_to(self.out_dir))
            except ValueError:
                return str(path)

        lines = [f"{self.what} from {self.repository} -> {self.out_dir}"]
        lines.append(f"  releases written: {', '.join(self.releases_written) or 'none'}")
        lines += [f"  wrote   {shown(p)}" for p in self.written]
        lines += [f"  removed {shown(p)}" for p in self.removed]
        lines += [
            f"  renamed {r.go_identifier} -> {r.flag_name} (Go identifier -> flag name) in {r.file}" for r in self.renames
        ]
        for skip in self.skipped:
            first, *rest = skip.reason.splitlines() or [""]
            lines.append(f"  skipped {skip.release}: {first}")
            lines += [f"    {line}" for line in rest]
        lines += [f"  note: {note}" for note in self.notes]
        return lines


# ---------------------------------------------------------------------------------------------
# Git access (read-only: show, ls-tree, tag, rev-parse, log).


#: Settings given on git's command line, which win over any configuration file: every setting a
#: read-only command could obey by running a program (signature checks through gpg.program, the
#: fsmonitor hook, pagers, external diffs and text conversions, credential helpers, ssh and proxy
#: commands, hooks) is turned off, and no transport may be used.
GIT_SAFE_CONFIG = (
    "log.showSignature=false", "gpg.program=false", "gpg.ssh.program=false", "gpg.x509.program=false",
    "core.fsmonitor=false", "core.hooksPath=/dev/null", "core.pager=cat", "core.askPass=", "core.sshCommand=",
    "core.gitProxy=", "core.alternateRefsCommand=", "diff.external=", "credential.helper=", "protocol.allow=never",
    "core.untrackedCache=false", "uploadpack.packObjectsHook=", "maintenance.auto=false", "gc.auto=0",
)


def git_environment() -> dict[str, str]:
    """The environment git runs in: no system or global configuration files, none of the
    caller's GIT_* variables (GIT_CONFIG_PARAMETERS, GIT_EXTERNAL_DIFF, GIT_SSH_COMMAND...), no
    prompts, no pager, no optional locks, the C locale."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, GIT_TERMINAL_PROMPT="0", GIT_PAGER="cat",
        GIT_OPTIONAL_LOCKS="0", GIT_NO_REPLACE_OBJECTS="1", LC_ALL="C",
    )
    return env


def git_command(path: Path | str, *args: str) -> list[str]:
    """``git -C path <args>`` with :data:`GIT_SAFE_CONFIG` before the command."""
    safe = [part for setting in GIT_SAFE_CONFIG for part in ("-c", setting)]
    return ["git", *safe, "-C", str(path), *args]


@dataclass(frozen=True)
class GitRepository:
    path: Path

    def run(self, *args: str, max_output: int = MAX_GIT_OUTPUT_BYTES) -> bytes:
        """``git <args>``'s output; refused (process stopped) past ``max_output`` bytes or
        ``GIT_TIMEOUT_SECONDS``, so no repository can make a refresh hold unbounded memory or time."""
        command = git_command(self.path, *args)  # a fixed configuration: the repository's own cannot run programs
        try:
            with tempfile.TemporaryFile() as errors:
                process = subprocess.Popen(
                    command,
                    stdout=subprocess.PIPE,
                    stderr=errors,
                    env=git_environment(),
                )
                try:
                    data = _read_bounded(process, max_output)
                    returncode = process.wait(timeout=GIT_TIMEOUT_SECONDS)
                except (subprocess.TimeoutExpired, _OutputTooLarge) as exc:
                    process.kill()
                    process.wait()
                    what = "took too long" if isinstance(exc, subprocess.TimeoutExpired) else f"wrote more than {max_output:,} bytes"
                    raise RefreshError(f"git {' '.join(args)[:200]} in {self.path} {what}; stopped") from None
                errors.seek(0)
                stderr = errors.read(4096)
        except FileNotFoundError:
            raise RefreshError("git is not installed (no 'git' on PATH)") from None
        if returncode != 0:
            message = stderr.decode("utf-8", "replace").strip() or f"exit status {returncode}"
            raise RefreshError(f"git {' '.join(args)[:200]} in {self.path} failed: {message}")
        return data

    def text(self, *args: str) -> str:
        return self.run(*args).decode("utf-8", "replace")

    def tags(self) -> frozenset[str]:
        return frozenset(self.text("tag", "--list").split())

    def commit_of(self, tag: str) -> str:
        return self.text("rev-parse", "--verify", "--quiet", f"{tag}^{{commit}}").strip()

    def commit_date_of(self, tag: str) -> str:
        return self.text("log", "-1", "--no-show-signature", "--format=%ci", f"{tag}^{{commit}}").strip()

    def files_at(self, tag: str, *paths: str) -> frozenset[str]:
        """All file paths at ``tag`` (restricted to ``paths`` when given)."""
        return frozenset(self.text("ls-tree", "-r", "--name-only", tag, "--", *paths).splitlines())

    def size_of(self, tag: str, path: str) -> int:
        """The size of the blob ``tag:path`` in bytes (``git cat-file -s``), without reading it."""
        text = self.text("cat-file", "-s", f"{tag}:{path}").strip()
        if not text.isdigit() or len(text) > 15:
            raise RefreshError(f"git cat-file -s {tag}:{path} in {self.path}: unexpected answer {text[:40]!r}")
        return int(text)

    def read(self, tag: str, path: str, max_bytes: int = MAX_MANIFEST_BLOB_BYTES) -> bytes:
        """The blob ``tag:path``; its size is checked first, so an oversized blob is never read."""
        size = self.size_of(tag, path)
        if size > max_bytes:
            raise RefreshError(f"{tag}:{path} is {size:,} bytes, larger than the limit of {max_bytes:,} bytes; not read")
        data = self.run("cat-file", "blob", f"{tag}:{path}", max_output=max_bytes)
        if len(data) > max_bytes:  # the object changed under us
            raise RefreshError(f"{tag}:{path} is larger than the limit of {max_bytes:,} bytes; not read")
        return data


class _OutputTooLarge(Exception):
    pass


def _read_bounded(process: subprocess.Popen[bytes], limit: int) -> bytes:
    assert process.stdout is not None  # started with stdout=PIPE
    chunks: list[bytes] = []
    total = 0
    deadline = time.monotonic() + GIT_TIMEOUT_SECONDS
    while True:
        chunk = process.stdout.read(1 << 16)
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if total > limit:
            raise _OutputTooLarge
        if time.monotonic() > deadline:
            raise subprocess.TimeoutExpired(process.args, GIT_TIMEOUT_SECONDS)
        chunks.append(chunk)


def open_git_repository(path: Path | str, option: str) -> GitRepository:
    """The repository at ``path`` (its top level, or a bare repository); RefreshError otherwise."""
    where = Path(path).expanduser()
    if not where.exists():
        raise RefreshError(f"{option} {where}: no such directory")
    if not where.is_dir():
        raise RefreshError(f"{option} {where}: not a directory")
    repo = GitRepository(where.resolve())
    try:
        bare = repo.text("rev-parse", "--is-bare-repository").strip() == "true"
        top = None if bare else repo.text("rev-parse", "--show-toplevel").strip()
    except RefreshError:
        raise RefreshError(f"{option} {where}: not a git repository") from None
    if top is not None and Path(top).resolve() != repo.path:
        raise RefreshError(f"{option} {where}: not the top of a git repository (that is {top}); pass {top}")
    return repo


# ---------------------------------------------------------------------------------------------
# Releases and tags.


def minor_of_release(release: str) -> int:
    """``"1.33"`` -> 33; RefreshError for anything that is not ``1.N``."""
    match = _RELEASE.fullmatch(release.strip())
    if match is None:
        raise RefreshError(f'release "{release}": expected 1.N (for example 1.33)')
    return int(match.group(1))


def requested_minors(releases: Sequence[str] | None, tags: Iterable[str], tag_prefix: str) -> list[int]:
    """The minors to refresh: those asked for, else every ``<prefix>N.0`` tag with N >= 31."""
    if releases:
        return sorted({minor_of_release(r) for r in releases})
    pattern = re.compile(re.escape(tag_prefix) + r"(\d{1,4})\.0")
    found = {int(m.group(1)) for m in map(pattern.fullmatch, tags) if m}
    return sorted(n for n in found if n >= FIRST_MINOR)


def release_of_minor(minor: int) -> str:
    return f"1.{minor}"


class ReleaseTag(NamedTuple):
    minor: int
    release: str  # "1.N"
    tag: str  # the repository's tag for it


def release_tags(
    repo: GitRepository, releases: Sequence[str] | None, tag_prefix: str, option: str, which: str = ""
) -> tuple[list[ReleaseTag], list[SkippedRelease]]:
    """The releases to refresh and their tags (``<prefix>N.0``), and the asked-for ones whose tag
    the repository lacks. No release at all is an error naming ``option``."""
    tags = repo.tags()
    minors = requested_minors(releases, tags, tag_prefix)
    if not minors:
        raise RefreshError(f"{option} {repo.path}: no release tags {tag_prefix}N.0 with N >= {FIRST_MINOR}{which}")
    found: list[ReleaseTag] = []
    skipped: list[SkippedRelease] = []
    for minor in minors:
        release, tag = release_of_minor(minor), f"{tag_prefix}{minor}.0"
        if tag not in tags:
            skipped.append(SkippedRelease(release, f"no tag {tag} in the repository"))
            continue
        try:
            repo.commit_of(tag)
        except RefreshError:  # a tag may name a blob or a tree: nothing of this release is read
            skipped.append(SkippedRelease(release, f"tag {tag} does not point at a commit"))
            continue
        found.append(ReleaseTag(minor, release, tag))
    return found, skipped


# ---------------------------------------------------------------------------------------------
# Writing.


def write_file_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def checked_out_dir(out_dir: Path | str) -> Path:
    out = Path(out_dir).expanduser()
    if out.exists() and not out.is_dir():
        raise RefreshError(f"--out {out}: not a directory")
    return out.resolve()


