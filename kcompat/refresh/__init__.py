"""Rebuild the bundled data from the recordings of the real releases (``kcompat data refresh``).

``oracle/record.py`` records what each pinned release's running code answers (its registered
feature gates, schemes, default resource configs, a real kube-apiserver's discovery, and the gate
sets of kube-controller-manager and kube-scheduler) in ``data/oracle/<release>/``. The refresh
turns them into the bundled layout, the same way for every release, then recompiles
``data/bundle.json``; the data folder changes in one step at the end, or not at all
(:mod:`kcompat.refresh.staging`):

* ``oracle``: the feature files, the patch files and the component files;
* ``apis``: the API files;
* ``startup``: what keeps kube-apiserver from becoming ready (``data/startup/v1.N.json``);
* ``provenance``: ``releases.yaml`` and the per-release table of ``SOURCES.md``.

No Streamlit here: the CLI calls :func:`add_refresh_arguments` and :func:`run_refresh`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import DATA_DIR  # data/ of the checkout, or of the installed package
from ..core.errors import KcompatError, echo, printable
from .common import (
    FIRST_MINOR,
    RefreshError,
    checked_out_dir,
    minor_of_release,
    release_of_minor,
)

__all__ = ["RefreshError", "add_refresh_arguments", "refresh", "run_refresh"]


def _release_argument(text: str) -> str:
    try:
        return release_of_minor(minor_of_release(text))
    except RefreshError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_refresh_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--oracle",
        action="store_true",
        help="from the recordings in data/oracle/ (oracle/record.py: the real code's answers); the only method, and the default",
    )
    parser.add_argument("--out", metavar="DIR", type=Path, default=DATA_DIR, help=f"data folder to write into, with its oracle/ recordings (default: {DATA_DIR})")
    parser.add_argument(
        "--release",
        metavar="1.N",
        type=_release_argument,
        action="append",
        help=f"refresh only this release (repeatable; default: every release from 1.{FIRST_MINOR} on recorded in data/oracle/)",
    )


def progress(line: str) -> None:
    """A line on stderr saying what the refresh is doing (it takes tens of seconds)."""
    print(f"kcompat data refresh: {line}", file=sys.stderr, flush=True)


def refresh(out: Path, releases: list[str] | None = None) -> list[str]:
    """Write the data of ``releases`` (default: every recorded one) into ``out`` from ``out/oracle``;
    returns the files written (relative to ``out``). Inside :func:`~kcompat.refresh.staging.staged_writes`
    the writes are staged until the block ends."""
    from .apis import refresh_apis_from_oracle
    from .oracle import recorded_minors, refresh_features_from_oracle
    from .provenance import refresh_provenance
    from .rehearsal import refresh_rehearsals
    from .startup import refresh_startup
    from .verify import verified, verify_recordings

    every = recorded_minors(out)
    minors = sorted({minor_of_release(r) for r in releases}) if releases else every
    if not minors:
        raise RefreshError(f"--oracle: no recordings in {printable(out / 'oracle')} (v1.N.P/gates.json, made by oracle/record.py): "
                           "nothing to refresh from; --out names the data folder that holds them")
    # every recording is verified before anything is staged; the writers read what was verified
    progress(f"verifying the recordings in {echo(out / 'oracle', 300)}")
    recordings = verify_recordings(out, minors if releases else None)
    progress(f"{len(recordings.hashes)} recordings verified; staging the new data (nothing is written before the end)")
    with verified(recordings):
        written = (refresh_features_from_oracle(out, minors) + refresh_apis_from_oracle(out, minors) + refresh_startup(out, minors)
                   + refresh_rehearsals(out, minors) + refresh_provenance(out, minors, every))
    return sorted(set(written))


def run_refresh(args: argparse.Namespace) -> int:
    """Run the refresh; 0 on success, 2 with a message on bad input. The data folder changes in
    one step at the end, or not at all: an error, a full disk or a signal part way leaves it as it was.
    A signal (``KeyboardInterrupt``) is said to have stopped the refresh before or after its
    commit, then raised again for the caller's exit status."""
    from kcompat.refresh.compile import stage_bundle

    from .staging import Staging, staged_writes

    releases = list(getattr(args, "release", None) or []) or None
    out: Path | None = None
    staging: Staging | None = None
    try:
        out = checked_out_dir(getattr(args, "out", None) or DATA_DIR)
        with staged_writes() as staging:  # nothing reaches the folder before every file is ready
            written = refresh(out, releases)
            bundle_line = stage_bundle(out)  # data/bundle.json, compiled from what this refresh leaves
            progress(f"writing {len(staging.paths)} files into {echo(out, 300)} in one step")
    except KeyboardInterrupt as exc:
        import signal

        try:
            name = signal.Signals(getattr(exc, "signum", signal.SIGINT)).name
        except ValueError:
            name = "a signal"
        folder = echo(out if out is not None else getattr(args, "out", None) or DATA_DIR, 300)
        if staging is not None and staging.committed:
            print(f"kcompat data refresh: stopped by {name} after the commit: {folder} is wholly refreshed", file=sys.stderr)
        else:
            print(f"kcompat data refresh: stopped by {name} before the commit: {folder} is left as it was", file=sys.stderr)
        raise
    except KcompatError as exc:
        print(f"kcompat data refresh: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        print(f"kcompat data refresh: cannot read{where}: {exc.strerror or exc}; the data folder is unchanged", file=sys.stderr)
        return 2
    except (ValueError, KeyError, TypeError) as exc:  # a recording that is not what oracle/record.py writes
        print(f"kcompat data refresh: a recording is malformed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    for name in written:
        print(f"wrote {name} (from the oracle's recordings)")
    print(bundle_line)
    return 0
