"""``kcompat data refresh`` against a hostile repository (issue 21). Git runs with a fixed
configuration (item 16): a repository's own ``.git/config`` cannot make a read-only command run a
program; and a tag that names a blob skips its release instead of stopping the refresh half-written. The attack is real: a tag on a
signed commit, ``log.showSignature=true`` and ``gpg.program`` naming a script; plain ``git log``
runs the script (checked first, so the test proves the repository is hostile), the refresh must not.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_refresh import api_repo, git, git_identity, parse  # noqa: F401 - fixtures used by name

from kcompat.refresh import run_refresh
from kcompat.refresh.common import GitRepository


def sign_tag(repo: Path, tag: str) -> None:
    """Move ``tag`` to a copy of its commit that carries a (fake) PGP signature header."""
    commit = git(repo, "rev-parse", f"{tag}^{{commit}}")
    body = git(repo, "cat-file", "commit", commit)
    header, _, message = body.partition("\n\n")
    signed = header + "\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n AAAA\n -----END PGP SIGNATURE-----\n\n" + message + "\n"
    new = subprocess.run(["git", "-C", str(repo), "hash-object", "-t", "commit", "-w", "--stdin"], input=signed,
                         capture_output=True, text=True, check=True).stdout.strip()
    git(repo, "tag", "-f", tag, new)


def hostile(repo: Path, tmp_path: Path) -> Path:
    """The repository's config runs a script on any signature check; returns the file it creates."""
    marker = tmp_path / "ran"
    script = tmp_path / "gpg"
    script.write_text(f"#!/bin/sh\ntouch {marker}\nexit 1\n")
    script.chmod(0o755)
    git(repo, "config", "log.showSignature", "true")
    git(repo, "config", "gpg.program", str(script))
    git(repo, "config", "core.fsmonitor", str(script))
    git(repo, "config", "core.pager", f"{script} #")
    return marker


def test_plain_git_log_runs_the_repositorys_program(api_repo, tmp_path):  # noqa: F811 - the fixture
    repo = api_repo["path"]
    sign_tag(repo, "v0.33.0")
    marker = hostile(repo, tmp_path)
    git(repo, "log", "-1", "--format=%ci", "v0.33.0^{commit}")
    assert marker.exists()  # the repository is hostile indeed


def test_refresh_does_not_run_the_repositorys_program(api_repo, tmp_path, capsys, monkeypatch):  # noqa: F811 - the fixture
    repo = api_repo["path"]
    sign_tag(repo, "v0.33.0")
    marker = hostile(repo, tmp_path)
    # the caller's environment cannot bring configuration in either
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "log.showSignature")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "true")
    out = tmp_path / "out"
    code = run_refresh(parse("--api-repo", str(repo), "--out", str(out), "--release", "1.33"))
    printed = capsys.readouterr()
    assert code == 0, printed.err
    assert (out / "apis/v1.33.yaml").exists()
    assert not marker.exists(), "git ran the program named in the repository's config"
    # and every read the refresh makes, on the signed tag
    git_repo = GitRepository(repo)
    assert git_repo.commit_date_of("v0.33.0") and "v0.33.0" in git_repo.tags()
    assert git_repo.files_at("v0.33.0") and git_repo.read("v0.33.0", "go.mod")
    assert not marker.exists()
    assert os.environ["GIT_CONFIG_COUNT"] == "1"


def test_a_tag_on_a_blob_is_skipped_and_the_rest_written_with_the_bundle(api_repo, tmp_path, capsys):  # noqa: F811 - the fixture
    repo = api_repo["path"]
    blob = subprocess.run(["git", "-C", str(repo), "hash-object", "-w", "--stdin"], input="not a commit\n",
                          capture_output=True, text=True, check=True).stdout.strip()
    git(repo, "tag", "v0.35.0", blob)  # a later release's tag names a blob
    out = tmp_path / "out"
    code = run_refresh(parse("--api-repo", str(repo), "--out", str(out)))
    printed = capsys.readouterr()
    assert code == 0, printed.err
    assert "skipped 1.35: tag v0.35.0 does not point at a commit" in printed.out
    # the refresh ran to its end: the bundle step ran (here it cannot compile a lone apis/ folder)
    assert (out / "apis/v1.33.yaml").exists() and "\nbundle: " in printed.out
