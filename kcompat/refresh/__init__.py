"""Rebuild the bundled data files from real git checkouts (``kcompat data refresh``).

Two sources, both read at release tags with ``git show <tag>:<path>`` and
``git ls-tree -r --name-only <tag>`` (nothing is ever checked out):

* a kubernetes/kubernetes checkout: the generated feature-gate manifests at ``v1.N.0``
  (``test/compatibility_lifecycle/reference/`` from 1.33 on, ``test/featuregates_linter/test_data/``
  before), copied unchanged below a provenance header into ``features/v1.N[-unversioned].yaml``,
  except that the two gates older lists name by their Go identifier get their flag name
  (data/SOURCES.md section 9);
* a k8s.io/api checkout: group/versions, kinds and prerelease-lifecycle data at ``v0.N.0``
  (= Kubernetes 1.N), written as ``apis/v1.N.yaml`` plus ``apis/lifecycle.csv``.

Every manifest is validated with :func:`load_manifest_bytes` before anything of its release is
written; a release without data at its tag is reported, never invented. ``SOURCES.md`` and
``releases.yaml`` are not touched. No Streamlit here: the CLI calls :func:`add_refresh_arguments`
and :func:`run_refresh`.

Modules: ``common`` (git access, report, releases, writing), ``features`` (feature manifests,
dependencies, client-go gates), ``gosource`` (a linear-time Go tokenizer and the readers built on
it), ``apis`` (k8s.io/api lifecycle).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kcompat.refresh.compile import rebuild_after_refresh

from .. import DATA_DIR  # data/ of the checkout, or of the installed package
from ..core.errors import KcompatError
from .apis import refresh_apis
from .common import (
    FIRST_MINOR,
    GitRepository,
    RefreshError,
    RefreshReport,
    checked_out_dir,
    minor_of_release,
    open_git_repository,
    release_of_minor,
)
from .features import refresh_features

__all__ = [
    "GitRepository", "RefreshError", "RefreshReport", "add_refresh_arguments", "refresh_apis", "refresh_features",
    "run_refresh",
]  # fmt: skip

# ---------------------------------------------------------------------------------------------
# CLI wiring (the lead's ``kcompat data refresh`` calls these).


def _release_argument(text: str) -> str:
    try:
        return release_of_minor(minor_of_release(text))
    except RefreshError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_refresh_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kubernetes-repo", metavar="PATH", type=Path, help="kubernetes/kubernetes git checkout (tags v1.N.0)")
    parser.add_argument("--api-repo", metavar="PATH", type=Path, help="k8s.io/api git checkout (tags v0.N.0 = Kubernetes 1.N)")
    parser.add_argument(
        "--oracle",
        action="store_true",
        help="rewrite the feature files of every release recorded in data/oracle/ (oracle/record.py: the real code's answers)",
    )
    parser.add_argument("--out", metavar="DIR", type=Path, default=DATA_DIR, help=f"data folder to write into (default: {DATA_DIR})")
    parser.add_argument(
        "--release",
        metavar="1.N",
        type=_release_argument,
        action="append",
        help=f"refresh only this release (repeatable; default: every tag from 1.{FIRST_MINOR} on)",
    )


def run_refresh(args: argparse.Namespace) -> int:
    """Run the refreshes asked for; 0 on success, 2 with a message on bad input."""
    kubernetes_repo = getattr(args, "kubernetes_repo", None)
    api_repo = getattr(args, "api_repo", None)
    releases = list(getattr(args, "release", None) or []) or None
    try:
        oracle = bool(getattr(args, "oracle", False))
        if kubernetes_repo is None and api_repo is None and not oracle:
            raise RefreshError("nothing to refresh: give --oracle, --kubernetes-repo PATH and/or --api-repo PATH")
        out = checked_out_dir(getattr(args, "out", None) or DATA_DIR)
        for release in releases or []:
            minor_of_release(release)
        # check every input before writing anything
        if kubernetes_repo is not None:
            open_git_repository(kubernetes_repo, "--kubernetes-repo")
        if api_repo is not None:
            open_git_repository(api_repo, "--api-repo")
        reports = []
        written = []
        if oracle:
            from .oracle import (
                recorded_minors,
                refresh_apis_from_oracle,
                refresh_from_oracle,
            )

            minors = [minor_of_release(r) for r in releases] if releases else recorded_minors(out)
            written = refresh_from_oracle(out, minors) + refresh_apis_from_oracle(out, minors)
        if kubernetes_repo is not None:
            reports.append(refresh_features(kubernetes_repo, out, releases))
        if api_repo is not None:
            reports.append(refresh_apis(api_repo, out, releases))
    except KcompatError as exc:
        print(f"kcompat data refresh: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"kcompat data refresh: cannot write: {exc}", file=sys.stderr)
        return 2
    for name in written:
        print(f"wrote {name} (from the oracle's recordings)")
    for report in reports:
        print("\n".join(report.summary_lines()))
    print(rebuild_after_refresh(out))  # data/bundle.json, compiled from what was just written
    return 0
