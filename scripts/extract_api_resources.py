#!/usr/bin/env python3
"""Regenerate ``data/apis/resources/v1.N.yaml`` from a git checkout of k8s.io/client-go.

client-go's typed clients (``kubernetes/typed/<group>/<version>/<kind>.go``) are generated for every
REST resource of kube-apiserver's built-in groups. Each names its kind (the first type argument of
``gentype.NewClient*``) and its plural resource (the first string argument); a client generated with
``+genclient:noVerbs`` (its interface holds only the expansion, e.g. policy ``Eviction``) is not a
resource of its own. Subresources are read from the same files and their hand-written expansions:
``status`` when the interface has ``UpdateStatus``, and every ``Resource("x")...SubResource("y")``
call (``deployments/scale``, ``pods/eviction``, ``pods/log``, ``serviceaccounts/token``, ...).
Subresources that no typed client calls (``pods/exec``, ``pods/attach``, ``pods/portforward``,
``nodes/proxy``, ``services/proxy`` is called) are therefore not listed.

Usage: scripts/extract_api_resources.py --client-go PATH_TO_GIT_DIR [--out data] [RELEASE=TAG ...]
Default releases: 1.31=v0.31.0 ... 1.36=v0.36.0, 1.37=v0.37.0-beta.0 (the tags the apis/v1.N.yaml files use).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

DEFAULT_TAGS = {
    "1.31": "v0.31.0",
    "1.32": "v0.32.0",
    "1.33": "v0.33.0",
    "1.34": "v0.34.0",
    "1.35": "v0.35.0",
    "1.36": "v0.36.0",
    "1.37": "v0.37.0-beta.0",
}
TYPED = "kubernetes/typed"
_NEW_CLIENT = re.compile(r"gentype\.NewClient\w*\[\*\w+\.(\w+)[^\]]*\]\(\s*\"([a-z0-9]+)\"", re.S)
_INTERFACE = re.compile(r"type (\w+)Interface interface \{(.*?)\n\}", re.S)
_RESOURCE_CALL = re.compile(r"Resource\(\"([a-z0-9]+)\"\)")
_SUBRESOURCE_CALL = re.compile(r"SubResource\(\"([a-z0-9]+)\"\)")
_VERB = re.compile(r"^\s*(Create|Update|Delete|Get|List|Watch|Patch|Apply)\(", re.M)


def git(git_dir: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", git_dir, *args], check=True, capture_output=True, text=True).stdout


def extract(git_dir: str, tag: str) -> dict:  # noqa: C901 - one pass over the typed clients' Go files, field by field
    commit = git(git_dir, "rev-list", "-n1", tag).strip()
    files = [f for f in git(git_dir, "ls-tree", "-r", "--name-only", tag, TYPED + "/").split() if f.endswith(".go")]
    by_dir: dict[str, list[str]] = {}
    for path in files:
        parts = path.split("/")
        if len(parts) != 5 or parts[-1].endswith("_test.go"):
            continue
        by_dir.setdefault("/".join(parts[:4]), []).append(parts[-1])
    found: dict[str, tuple[str, str, dict, dict]] = {}
    calls: list[tuple[str, str, str, str]] = []
    for directory in sorted(by_dir):
        _, _, group_dir, version = directory.split("/")
        resources: dict[str, dict] = {}
        subresources: dict[str, set[str]] = {}
        texts = {name: git(git_dir, "show", f"{tag}:{directory}/{name}") for name in by_dir[directory] if name not in ("doc.go", "generated_expansion.go")}
        group = _scheme_group(texts, group_dir)
        for name, text in texts.items():
            if name.endswith("_client.go") or name.endswith("_expansion.go"):
                continue
            client = _NEW_CLIENT.search(text)
            if client is None:
                continue
            kind, plural = client.group(1), client.group(2)
            interface = _INTERFACE.search(text)
            body = interface.group(2) if interface else ""
            if not _VERB.search(body):
                continue  # +genclient:noVerbs: not a resource of its own
            resources[plural] = {"kind": kind, "resource": plural}
            if re.search(r"^\s*UpdateStatus\(", body, re.M):
                subresources.setdefault(plural, set()).add("status")
        for text in texts.values():
            # A call under AbsPath("/api/v1") (policy Eviction) addresses a core v1 resource.
            target = "kubernetes/typed/core/v1" if 'AbsPath("/api/v1")' in text else directory
            for sub in _SUBRESOURCE_CALL.finditer(text):
                owners = list(_RESOURCE_CALL.finditer(text, 0, sub.start()))
                owner = owners[-1].group(1) if owners else None
                if owner is None:
                    raise SystemExit(f"{tag}:{directory}: SubResource({sub.group(1)}) without a Resource call")
                calls.append((target, owner, sub.group(1), directory))
        found[directory] = (group, version, resources, subresources)
    for target, owner, sub, directory in calls:
        if target not in found or owner not in found[target][2]:
            raise SystemExit(f"{tag}:{directory}: SubResource({sub}) of {owner}, which {target} has no client for")
        found[target][3].setdefault(owner, set()).add(sub)
    out = []
    for directory, (group, version, resources, subresources) in found.items():
        items = []
        for plural in sorted(resources, key=lambda p: resources[p]["kind"]):
            entry = dict(resources[plural])
            entry["subresources"] = sorted(subresources.get(plural, ()))
            items.append(entry)
        if items:
            out.append({"group": group, "version": version, "directory": directory, "resources": items})
    return {"commit": commit, "groupVersions": out}


def _scheme_group(texts: dict[str, str], group_dir: str) -> str:
    """The API group of a typed-client directory (:data:`GROUP_OF_DIR`); an unknown directory stops the run."""
    if group_dir in GROUP_OF_DIR:
        return GROUP_OF_DIR[group_dir]
    raise SystemExit(f"unknown typed-client directory {group_dir}: add it to GROUP_OF_DIR")


#: client-go directory -> API group (k8s.io/api ``register.go`` GroupName of the same directory).
GROUP_OF_DIR = {
    "admissionregistration": "admissionregistration.k8s.io",
    "apiserverinternal": "internal.apiserver.k8s.io",
    "apps": "apps",
    "authentication": "authentication.k8s.io",
    "authorization": "authorization.k8s.io",
    "autoscaling": "autoscaling",
    "batch": "batch",
    "certificates": "certificates.k8s.io",
    "coordination": "coordination.k8s.io",
    "core": "",
    "discovery": "discovery.k8s.io",
    "events": "events.k8s.io",
    "extensions": "extensions",
    "flowcontrol": "flowcontrol.apiserver.k8s.io",
    "networking": "networking.k8s.io",
    "node": "node.k8s.io",
    "policy": "policy",
    "rbac": "rbac.authorization.k8s.io",
    "resource": "resource.k8s.io",
    "scheduling": "scheduling.k8s.io",
    "storage": "storage.k8s.io",
    "storagemigration": "storagemigration.k8s.io",
}


def to_yaml(release: str, tag: str, data: dict) -> str:
    lines = [
        f"# REST resources of the built-in API groups at Kubernetes {release}, read from the generated typed clients of",
        f"# k8s.io/client-go at tag {tag} (kubernetes/client-go, {TYPED}/<group>/<version>/<kind>.go and *_expansion.go).",
        "# resource = the plural the client requests; subresources = 'status' when the client has UpdateStatus, plus every",
        "# SubResource(...) the client or its expansion calls. Subresources no typed client calls (pods/exec, pods/attach,",
        "# pods/portforward, nodes/proxy) are not listed. Regenerate: scripts/extract_api_resources.py --client-go PATH.",
        f'release: "{release}"',
        "source:",
        "  repository: kubernetes/client-go",
        f"  tag: {tag}",
        f"  commit: {data['commit']}",
        f"  path: {TYPED}/",
        "groupVersions:",
    ]
    for gv in data["groupVersions"]:
        lines.append(f'- group: "{gv["group"]}"')
        lines.append(f"  version: {gv['version']}")
        lines.append("  resources:")
        for r in gv["resources"]:
            subs = ", ".join(r["subresources"])
            lines.append(f"  - {{kind: {r['kind']}, resource: {r['resource']}, subresources: [{subs}]}}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--client-go", required=True, help="git directory of a kubernetes/client-go clone")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "data"))
    parser.add_argument("releases", nargs="*", help="RELEASE=TAG pairs (default: 1.31..1.37)")
    args = parser.parse_args(argv)
    tags = dict(DEFAULT_TAGS)
    if args.releases:
        tags = dict(item.split("=", 1) for item in args.releases)
    folder = Path(args.out) / "apis" / "resources"
    folder.mkdir(parents=True, exist_ok=True)
    for release, tag in tags.items():
        data = extract(args.client_go, tag)
        path = folder / f"v{release}.yaml"
        path.write_text(to_yaml(release, tag, data))
        count = sum(len(gv["resources"]) for gv in data["groupVersions"])
        print(f"{path}: {count} resources in {len(data['groupVersions'])} group/versions ({tag} {data['commit'][:12]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
