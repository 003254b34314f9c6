"""kcompat against a real kube-apiserver running here (127.0.0.1 only).

Needs the binaries oracle/build.sh builds (``kube-apiserver`` and ``etcd`` of each pinned
release, ``kubectl`` of at least one) in ``$KCOMPAT_ORACLE_BIN/<release>/`` (default
/tmp/kcompat-oracle-bin): every release found there is tested. Without them every test here is
skipped: the default suite checks kcompat against the recordings (tests/oracle) and needs no Go
build.

Each apiserver runs two minors below its binary (``--emulated-version``) with the min
compatibility one below that, so that emulation shows: kcompat must read it from the cluster
itself, through kubectl.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINS = Path(os.environ.get("KCOMPAT_ORACLE_BIN", "/tmp/kcompat-oracle-bin"))
# (the releases with --min-compatibility-version, 1.35 and later: the cluster emulates N-2 with min compatibility N-3)
RELEASES = sorted((d.name for d in BINS.glob("v1.*") if (d / "kube-apiserver").is_file() and (d / "etcd").is_file()
                   and int(d.name.split(".")[1]) >= 35),
                  key=lambda r: tuple(int(x) for x in re.findall(r"\d+", r)))
KUBECTLS = sorted(BINS.glob("v1.*/kubectl"))
PLUGIN = Path(sys.executable).parent / "kubectl-kcompat"

pytestmark = [
    pytest.mark.skipif(not RELEASES or not KUBECTLS, reason=f"no kube-apiserver, etcd and kubectl in {BINS} (oracle/build.sh v1.37.2)"),
    pytest.mark.skipif(not PLUGIN.exists(), reason="kubectl-kcompat is not installed (pip install -e .)"),
]


def _recorder():
    if str(ROOT / "oracle") not in sys.path:  # record.py imports its neighbour servers.py as a script would
        sys.path.insert(0, str(ROOT / "oracle"))
    spec = importlib.util.spec_from_file_location("kcompat_oracle_record", ROOT / "oracle" / "record.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _emulation(release: str) -> tuple[str, str]:
    minor = int(release.split(".")[1])
    return f"1.{minor - 2}", f"1.{minor - 3}"


@pytest.fixture(scope="module", params=RELEASES)
def cluster(request, tmp_path_factory):
    record = _recorder()
    from servers import (
        TOKEN,  # the token the oracle's kube-apiserver accepts (oracle/servers.py)
    )

    release = request.param
    bindir = BINS / release
    work = tmp_path_factory.mktemp("live")
    etcd = record.Etcd(bindir / "etcd", work)
    emulated, min_compat = _emulation(release)
    flags = [f"--emulated-version={emulated}", f"--min-compatibility-version={min_compat}"]
    try:
        server = record.ApiServerProcess(bindir, work, etcd.url, "live", flags)  # ready when it returns
    except BaseException:
        etcd.stop()
        raise
    port = server.port
    try:
        kubeconfig = work / "kubeconfig"
        kubeconfig.write_text(
            "apiVersion: v1\nkind: Config\n"
            f"clusters:\n- name: real\n  cluster:\n    server: https://127.0.0.1:{port}\n    insecure-skip-tls-verify: true\n"
            f"users:\n- name: admin\n  user:\n    token: {TOKEN}\n"
            "contexts:\n- name: real\n  context:\n    cluster: real\n    user: admin\n"
            "current-context: real\n"
        )
        env = dict(os.environ, KUBECONFIG=str(kubeconfig), PATH=f"{KUBECTLS[-1].parent}{os.pathsep}{PLUGIN.parent}{os.pathsep}{os.environ['PATH']}")
        yield release, env
    finally:
        server.stop()
        etcd.stop()


def kubectl(env, *args, timeout=120):
    return subprocess.run([str(KUBECTLS[-1]), *args], env=env, capture_output=True, text=True, timeout=timeout)


def test_kubectl_kcompat_inspect_live_agrees_with_the_real_apiserver(cluster):
    release, env = cluster
    done = kubectl(env, "kcompat", "inspect", "--live", "--context", "real", "--format", "json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["valid"] and doc["component"] == "kube-apiserver"
    assert doc["binary"] == ".".join(release[1:].split(".")[:2])
    assert (doc["emulated"], doc["minCompatibility"]) == _emulation(release)
    observed = doc["observed"]
    assert observed["disagree"] == [] and observed["unknown"] == [] and observed["missing"] == []
    assert observed["agree"] == observed["gates"] > 150


def test_inspect_live_table_names_the_emulated_version(cluster):
    release, env = cluster
    done = kubectl(env, "kcompat", "inspect", "--live", "--context", "real")
    assert done.returncode == 0, done.stderr
    assert f"emulated: {_emulation(release)[0]}" in done.stdout


def test_deploy_manifests_pass_a_server_side_dry_run(cluster):
    _, env = cluster
    done = kubectl(env, "apply", "--dry-run=server", "-f", str(ROOT / "deploy"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("(server dry run)") == len(list((ROOT / "deploy").glob("*.yaml")))
