"""Hostile input to every kcompat command: any length of version, flag or path is answered with
exit 2 and a short message (never a traceback, a hang, or more than a fraction of a second of
CPU); FIFOs, devices and directories are refused without being opened for reading."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from kcompat.cli.main import main

LONG = "1" * 100_000 + "\n"
DIGITS = "1." + "9" * 5_000
HOSTILE = [LONG, DIGITS, "1.36" + "x" * 100_000 + "\n"]
IDS = ["100k-newline", "5000-digits", "1.36-junk-newline"]


def run(capsys, *argv):
    start = time.process_time()
    code = main(list(argv))
    cpu = time.process_time() - start
    out = capsys.readouterr()
    return code, out.out, out.err, cpu


def _short(err: str) -> None:
    assert err.startswith("kcompat: error: ") and "Traceback" not in err
    assert len(err) < 1_000, len(err)


@pytest.mark.parametrize("value", HOSTILE, ids=IDS)
@pytest.mark.parametrize(
    "argv",
    [
        ["gates", "--binary", "{}"],
        ["gates", "--binary", "1.36", "--emulated", "{}"],
        ["gates", "--binary", "1.36", "--min-compat", "{}"],
        ["versions", "--binary", "{}"],
        ["plan", "--from", "{}", "--to", "1.36"],
        ["plan", "--from", "1.33", "--to", "{}"],
        ["apis", "--binary", "{}"],
    ],
    ids=lambda a: "-".join(x for x in a if x != "{}")[:40],
)
def test_every_command_answers_hostile_versions_fast_with_a_short_message(capsys, argv, value):
    code, out, err, cpu = run(capsys, *[value if a == "{}" else a for a in argv])
    assert code == 2 and cpu < 0.5, cpu
    # a refused command says "kcompat: error: ..."; gates' table output lists "error: ..." lines
    assert "error: " in err and "Traceback" not in err and len(err) < 1_000, err[:300]
    assert "characters" in err
    assert len(out) < 100_000


def test_hostile_json_output_keeps_every_error_cut(capsys):
    code, out, _, cpu = run(capsys, "gates", "--binary", LONG, "--format", "json")
    doc = json.loads(out)
    assert code == 2 and not doc["valid"] and cpu < 0.5
    assert doc["binary"].endswith("(100,001 characters)") and all(len(e) < 1_000 for e in doc["errors"])


def test_9000_unknown_gates_print_twenty_then_a_count(capsys):
    flags = ",".join(f"U{i}=1" for i in range(9_000))
    code, out, err, _cpu = run(capsys, "gates", "--binary", "1.36", "--feature-gates", flags)
    lines = [line for line in err.splitlines() if line.startswith("error: ")]
    assert code == 2 and len(lines) == 21 and lines[-1] == "error: … and 8,980 more"
    code, out, _, _ = run(capsys, "gates", "--binary", "1.36", "--feature-gates", flags, "--format", "json")
    document = json.loads(out)  # the JSON keeps the first 20 and counts the rest
    assert len(document["errors"]) == 20 and document["errorsOmitted"] == 8_980


def test_argparse_refusals_are_cut():
    proc = subprocess.run(
        [sys.executable, "-m", "kcompat", "gates", "--format", "x" * 100_000],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2 and "characters)" in proc.stderr and "choose from" in proc.stderr
    assert len(proc.stderr) < 1_000 and "Traceback" not in proc.stderr


@pytest.mark.parametrize("kind", ["fifo", "directory", "device"])
def test_manifest_must_be_a_regular_file(capsys, tmp_path, kind):
    if kind == "fifo":
        path = tmp_path / "pipe.yaml"
        os.mkfifo(path)  # nobody writes to it: opening it for reading would block forever
        expected = "a named pipe, not a regular file"
    elif kind == "directory":
        path, expected = tmp_path, "a directory, not a regular file"
    else:
        path, expected = "/dev/zero", "a character device, not a regular file"
    code, _out, err, cpu = run(capsys, "gates", "--manifest", str(path))
    assert code == 2 and expected in err and cpu < 0.5
    _short(err)


def test_missing_and_unreadable_manifests(capsys, tmp_path):
    code, _, err, _ = run(capsys, "gates", "--manifest", str(tmp_path / "nope.yaml"))
    assert code == 2 and "No such file or directory" in err
    code, _, err, _ = run(capsys, "gates", "--manifest", "x" * 100_000)
    assert code == 2 and "(100,000 characters)" in err
    _short(err)


def test_a_3000_deep_dependency_chain_manifest_gets_a_message(capsys, tmp_path):
    gate = '- name: G{i}\n  dependencies: [G{j}]\n  versionedSpecs:\n  - {{version: "1.30", default: false, lockToDefault: false, preRelease: Alpha}}\n'
    text = "".join(gate.format(i=i, j=i + 1) for i in range(2_999))
    text += '- name: G2999\n  versionedSpecs:\n  - {version: "1.30", default: false, lockToDefault: false, preRelease: Alpha}\n'
    path = tmp_path / "chain.yaml"
    path.write_text(text)
    code, _, err, cpu = run(capsys, "gates", "--manifest", str(path), "--emulated", "1.30")
    assert code == 2 and "more than 1,000 gates" in err and cpu < 1
    _short(err)


@pytest.mark.parametrize(
    "argv, expected",
    [
        (["--out", "/proc/x"], "cannot write screenshots to /proc/x"),
        (["--server", "not a url"], "--server 'not a url' is not an http(s) URL"),
        (["--server", "http://[::1"], "is not a URL"),
        (["--server", "ftp://example.org"], "is not an http(s) URL"),
        (["--server", "http://127.0.0.1:1"], "no dashboard answers at http://127.0.0.1:1"),
        (["--server", "http://x" + "y" * 100_000], "--server is 100,008 characters long; at most 8,000"),
        (["--url", "file:///etc/passwd"], "--url 'file:///etc/passwd' is not an http(s) URL"),
        (["--url", "http://kcompat.example/nope?binary=1.35"], "'nope' is not a page of the dashboard (pages: gates, "),
        (["--url", "http://kcompat.example/matrix?binary"], "--url: 'binary' is not key=value"),
        (["--url", "http://kcompat.example/matrix?binary=1.35&binary=1.36"], "--url: 'binary' is given twice"),
        (["--url", "http://kcompat.example/matrix#top"], "has a #fragment"),
        (["--url", "http://kcompat.example/matrix?binary=" + "9" * 9000], "--url is 9,037 characters long"),
        (["--url", "http://kcompat.example/matrix", "--page", "gates"], "give --url, or --page/--query, not both"),
        (["--url", "http://kcompat.example/", "--query", "binary=1.35"], "not both"),
        (["--query", "binary=1.35&=x"], "--query: '=x' is not key=value"),
        (["--query", "binary=1.35\nemulated=1.34"], "--query 'binary=1.35\\nemulated=1.34' contains a line break"),
        (["--page", "nope", "--server", "http://127.0.0.1:1"], "no dashboard answers"),
        (["--element", "graph"], "--element 'graph' is not table or chart"),
        (["--element", "table:0", "--server", "http://127.0.0.1:1"], "1 to 99"),
    ],
)
def test_screenshots_error_paths(capsys, tmp_path, argv, expected):
    if "--out" not in argv:
        argv = [*argv, "--out", str(tmp_path)]
    code, _, err, _ = run(capsys, "screenshots", *argv)
    assert code == 2 and expected in err, err
    _short(err)


def test_no_traceback_through_the_real_entry_point(tmp_path):
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    for argv in (["gates", "--binary", LONG], ["gates", "--manifest", str(fifo)], ["screenshots", "--out", "/proc/x"]):
        proc = subprocess.run([sys.executable, "-m", "kcompat", *argv], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stderr.startswith("kcompat: error:")
