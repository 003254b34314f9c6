"""No control character given to ``kcompat`` reaches the terminal as it came.

Each path that echoes outside text (a kubeconfig's context, cluster, user and plugin names, a
server URL, a gate name or a value from the command line, argparse's own messages, ``config``
errors, ``plan``'s Markdown, ``data refresh``) is fed an OSC window-title sequence, a colour and
a line break; stdout and stderr must hold no ESC (0x1b), no BEL and no C1 control, and no line
that the input started. Real ``kcompat`` processes throughout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hostile_apiserver import kubeconfig

HOSTILE = "\x1b]0;owned\x07\x1b[31m\u009b31m\u202e|x\nFORGED"
RAW = ("\x1b", "\x07", "\u009b", "\u202e")


def kcompat(*args: str, env: dict | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "kcompat", *args], capture_output=True, timeout=120, check=False,
                          env=env, cwd=cwd)
    out, err = done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")
    for stream in (out, err):
        for ch in RAW:
            assert ch not in stream, (args, stream)
        assert not any(line.startswith("FORGED") for line in stream.splitlines()), stream  # no line started by the input
    return subprocess.CompletedProcess(done.args, done.returncode, out, err)


@pytest.mark.parametrize("args", [
    ("gate", f"Gate{HOSTILE}"),
    ("gates", "--binary", "1.36", "--emulated", "1.34", "--feature-gates", f"Gate{HOSTILE}=true"),
    ("gates", "--binary", "1.36", "--format", f"json{HOSTILE}"),
    ("gates", f"--bogus{HOSTILE}"),
    ("gates", "--binary", "1.36", "--", "kube-apiserver", f"--feature-gates=Gate{HOSTILE}=true"),
    (f"gatez{HOSTILE}",),
    ("config", "--binary", "1.36", "--emulated", "1.34", "--feature-gates", f"Gate{HOSTILE}=true"),
    ("config", "--binary", "1.36", "--emulated", "1.34", "--runtime-config", f"api/{HOSTILE}=true"),
    ("config", "--binary", f"1.36{HOSTILE}"),
    ("plan", "--from", "1.34", "--to", "1.36", "--format", "markdown", "--feature-gates", f"Gate{HOSTILE}=true"),
    ("changes", "--binary", "1.36", "--emulated", "1.34", "--feature-gates", f"Gate{HOSTILE}=true"),
])
def test_command_line_values_are_rendered(args):
    done = kcompat(*args)
    assert done.returncode != 0 or "\\x1b" in done.stdout, done
    assert "x1b" in done.stdout + done.stderr and "owned" in done.stdout + done.stderr  # shown, escaped


def test_plan_markdown_keeps_a_hostile_gate_in_its_line():
    done = kcompat("plan", "--from", "1.34", "--to", "1.36", "--format", "markdown", "--feature-gates", f"Gate{HOSTILE}=true")
    errors = [line for line in done.stdout.splitlines() if "unrecognized feature gate" in line]
    assert errors and all(line.startswith("- error: unrecognized feature gate: Gate") for line in errors)
    assert all("\\|x" in line and "\\\\nFORGED" in line for line in errors), errors  # the pipe cannot open a cell


def test_data_refresh_renders_its_folder(tmp_path):
    done = kcompat("data", "refresh", "--out", str(tmp_path / f"out{HOSTILE}"))
    assert done.returncode == 2 and "\\x1b]0;owned\\a" in done.stderr, done.stderr


def _live(tmp_path: Path, config: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k.upper() not in ("KUBECONFIG", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY")}
    env.update(HOME=str(tmp_path), LANG="C.UTF-8", KUBECONFIG=str(config))
    return kcompat("inspect", "--live", *args, env=env)


def _config(tmp_path: Path, context: str = "ctx", cluster: str = "cl", user: str = "u", server: str = "http://127.0.0.1:9",
            user_values: dict | None = None, context_cluster: str | None = None, context_user: str | None = None) -> Path:
    import yaml

    document = {
        "apiVersion": "v1", "kind": "Config", "current-context": context,
        "clusters": [{"name": cluster, "cluster": {"server": server}}],
        "users": [{"name": user, "user": user_values or {"token": "abcd"}}],
        "contexts": [{"name": context, "context": {"cluster": context_cluster or cluster, "user": context_user or user}}],
    }
    path = tmp_path / "config"
    path.write_text(yaml.safe_dump(document))
    return path


def test_a_context_name_is_rendered(tmp_path):
    done = _live(tmp_path, _config(tmp_path, context=f"ctx{HOSTILE}"))
    assert done.returncode == 2 and "(context ctx\\x1b]0;owned\\a" in done.stderr, done.stderr
    done = _live(tmp_path, _config(tmp_path), "--context", f"other{HOSTILE}")
    assert done.returncode == 2 and "no context other\\x1b]0;owned" in done.stderr, done.stderr


def test_cluster_and_user_names_are_rendered(tmp_path):
    config = _config(tmp_path, cluster=f"cl{HOSTILE}", user=f"u{HOSTILE}", user_values={"auth-provider": {"name": f"p{HOSTILE}"}})
    done = _live(tmp_path, config)
    assert done.returncode == 2 and "user u\\x1b]0;owned" in done.stderr and "(p\\x1b]0;owned" in done.stderr, done.stderr
    done = _live(tmp_path, _config(tmp_path, context_cluster=f"missing{HOSTILE}", context_user=f"nobody{HOSTILE}"))
    assert done.returncode == 2 and "cluster missing\\x1b]0;owned" in done.stderr, done.stderr
    done = _live(tmp_path, _config(tmp_path, context_user=f"nobody{HOSTILE}"))
    assert done.returncode == 2 and "user nobody\\x1b]0;owned" in done.stderr, done.stderr


def test_an_exec_plugin_name_and_hint_are_rendered(tmp_path):
    user = {"exec": {"apiVersion": "client.authentication.k8s.io/v1", "command": f"plugin{HOSTILE}", "installHint": f"install{HOSTILE}"}}
    done = _live(tmp_path, _config(tmp_path, user_values=user))
    assert done.returncode == 2 and "exec plugin plugin\\x1b]0;owned" in done.stderr and "; install\\x1b]0;owned" in done.stderr


@pytest.mark.parametrize("server", [f"http://127.0.0.1:9/path{HOSTILE}", "https://127.0.0.1:9/\x1b[31m", "https://127.0.0.1:9/a b"])
def test_a_server_url_with_control_characters_is_refused_and_rendered(tmp_path, server):
    done = _live(tmp_path, _config(tmp_path, server=server))
    assert done.returncode == 2, done.stderr
    assert "context ctx: clusters[cl].cluster.server holds a space or a control character" in done.stderr


def test_a_kubeconfig_names_everything_it_echoes(tmp_path):
    """The kubeconfig of the hostile server helper, with every name hostile, read as far as it goes."""
    config = kubeconfig(tmp_path / "k", "http://127.0.0.1:9", {"token": "abcd"}, name=f"n{HOSTILE}")
    done = _live(tmp_path, config)
    assert done.returncode == 2 and "n\\x1b]0;owned" in done.stderr, done.stderr


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="needs kubectl")
def test_kubectl_proxy_messages_are_relayed_rendered(tmp_path):
    """kubectl refuses a user with two credentials, naming the user: its stderr reaches the
    terminal line by line through kcompat, rendered (and the credentials are in no line)."""
    user = {"token": "Zq7SECRETtok", "username": "x", "password": "Zq7SECRETpw", "auth-provider": {"name": "oidc", "config": {"id-token": "Zq7SECRETid"}}}
    done = _live(tmp_path, _config(tmp_path, user=f"u{HOSTILE}", user_values=user))
    assert done.returncode == 2, done.stderr
    assert "kcompat: kubectl: error: more than one authentication method found for u\\x1b]0;owned\\a" in done.stderr, done.stderr
    assert "kubectl proxy exited with status 1 (its message is above)" in done.stderr and "SECRET" not in done.stderr + done.stdout
