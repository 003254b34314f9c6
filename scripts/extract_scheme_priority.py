#!/usr/bin/env python3
"""Regenerate ``data/apis/scheme-priority.yaml``: each API group's version priority in
kube-apiserver's scheme (kubernetes ``pkg/apis/<group>/install/install.go``,
``scheme.SetVersionPriority(...)``), read from the vendored k8s.io/kubernetes trees of
openshift/microshift at the commits of data/SOURCES.md section 8.

``emulatedStorageVersion`` walks ``scheme.VersionsForGroupKind`` in this order and falls back to
its first entry (``PrioritizedVersionsForGroup(group)[0]``); it is not always the kube-aware
order (resource.k8s.io in 1.33: v1beta1, v1beta2, v1alpha3; in 1.34: v1beta2, v1, v1beta1, v1alpha3).

Usage: scripts/extract_scheme_priority.py --microshift GIT_DIR [--out data]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

COMMITS = {
    "1.31": "519f384f28561632955bfbf33dff231a2db64f28",
    "1.32": "fca3fa60bc6c3832a5c425ed006a51c0eba66d64",
    "1.33": "085e0bddd8c5b1bc6012e7c99666e7112ca238dc",
    "1.34": "3cef94e893c4bd2d8dc356c0165904d56f1c5240",
    "1.35": "9ddb8240ed682bc25ad8bede5b15621e2260b693",
    "1.36": "eda8ec8f862ee5f0e4ae8bce54658b1758369c5e",
}
#: pkg/apis directory -> API group (the GroupName of the package)
GROUPS = {
    "admissionregistration": "admissionregistration.k8s.io", "apiserverinternal": "internal.apiserver.k8s.io", "apps": "apps",
    "authentication": "authentication.k8s.io", "authorization": "authorization.k8s.io", "autoscaling": "autoscaling",
    "batch": "batch", "certificates": "certificates.k8s.io", "coordination": "coordination.k8s.io", "core": "",
    "discovery": "discovery.k8s.io", "events": "events.k8s.io", "extensions": "extensions",
    "flowcontrol": "flowcontrol.apiserver.k8s.io", "networking": "networking.k8s.io", "node": "node.k8s.io", "policy": "policy",
    "rbac": "rbac.authorization.k8s.io", "resource": "resource.k8s.io", "scheduling": "scheduling.k8s.io",
    "storage": "storage.k8s.io", "storagemigration": "storagemigration.k8s.io",
}
_PRIORITY = re.compile(r"SetVersionPriority\(([^)]*)\)")
_VERSION = re.compile(r"(v[0-9]+(?:alpha[0-9]+|beta[0-9]+)?)\.SchemeGroupVersion")


def git(git_dir: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", git_dir, *args], check=True, capture_output=True, text=True).stdout


def extract(git_dir: str, commit: str) -> tuple[str, dict[str, list[str]]]:
    base = "deps/github.com/openshift/kubernetes"
    if subprocess.run(["git", "--git-dir", git_dir, "cat-file", "-e", f"{commit}:{base}/pkg/apis"], capture_output=True).returncode:
        base = "vendor/k8s.io/kubernetes"
    out = {}
    for path in git(git_dir, "ls-tree", "-r", "--name-only", commit, f"{base}/pkg/apis/").split():
        if not path.endswith("/install/install.go"):
            continue
        directory = path[len(base) + len("/pkg/apis/"):].split("/")[0]
        if directory not in GROUPS:
            continue
        text = git(git_dir, "show", f"{commit}:{path}")
        match = _PRIORITY.search(text)
        if match is None:
            raise SystemExit(f"{commit}:{path}: no SetVersionPriority")
        versions = []
        for item in match.group(1).split(","):
            if not item.strip():
                continue
            found = _VERSION.search(re.sub(r"\b[a-z]+(v[0-9])", r"\1", item.strip()))
            if found is None:
                raise SystemExit(f"{commit}:{path}: cannot read {item.strip()!r}")
            versions.append(found.group(1))
        out[GROUPS[directory]] = versions
    return base, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--microshift", required=True, help="git directory of an openshift/microshift clone")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "data"))
    args = parser.parse_args(argv)
    lines = [
        "# Version priority of each API group in kube-apiserver's scheme: kubernetes pkg/apis/<group>/install/install.go",
        "# scheme.SetVersionPriority(...), highest first; read from the vendored k8s.io/kubernetes trees of openshift/microshift",
        "# (SOURCES.md sections 8 and 11). Regenerate: scripts/extract_scheme_priority.py --microshift GIT_DIR.",
        "releases:",
    ]
    for release, commit in COMMITS.items():
        base, groups = extract(args.microshift, commit)
        lines += [f'- release: "{release}"', "  repository: openshift/microshift", f"  commit: {commit}",
                  f"  path: {base}/pkg/apis/<group>/install/install.go", "  groups:"]
        for group in sorted(groups, key=lambda g: (g != "", g)):
            lines.append(f'    "{group}": [{", ".join(groups[group])}]')
    path = Path(args.out) / "apis" / "scheme-priority.yaml"
    path.write_text("\n".join(lines) + "\n")
    print(f"{path}: {len(COMMITS)} releases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
