"""kcompat: the JSON contract, formats, exit codes and --manifest."""

import contextlib
import io
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kcompat.cli.main import main

KEYS = ["binary", "emulated", "minCompatibility", "valid", "verdict", "component", "errors", "notReady", "readinessRecorded", "warnings", "hints", "features", "components"]
FEATURE_KEYS = ["name", "enabled", "stage", "default", "locked", "explicit", "origin", "historyFrom", "binaryStage", "changed"]


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_gates_json_contract(capsys):
    code, out, _ = run(capsys, "gates", "--binary", "1.36", "--emulated", "1.33", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and list(doc) == KEYS
    assert (doc["binary"], doc["emulated"], doc["minCompatibility"], doc["valid"]) == ("1.36", "1.33", "1.33", True)
    assert all(list(f) == FEATURE_KEYS for f in doc["features"])
    names = [f["name"] for f in doc["features"]]
    assert names == sorted(names) and "AllAlpha" not in names
    origins = [f["origin"] for f in doc["features"]]
    assert origins.count("kube") == 230 and {f["name"] for f in doc["features"] if f["origin"] == "client-go"} >= {"WatchListClient", "AtomicFIFO"}
    assert doc["hints"] == []
    assert {f["stage"] for f in doc["features"]} <= {"Alpha", "Beta", "GA", "Deprecated", "PreAlpha"}


def test_rejected_input_exit_2_and_state_without_rejected_flags(capsys):
    code, out, _ = run(capsys, "gates", "--binary", "1.33", "--emulated", "1.31", "--feature-gates", "JobManagedBy=true,Nope=1", "--format", "json")
    doc = json.loads(out)
    assert code == 2 and not doc["valid"] and doc["errors"] == ["unrecognized feature gate: Nope"]
    jmb = next(f for f in doc["features"] if f["name"] == "JobManagedBy")
    assert jmb["enabled"] is False and jmb["explicit"] is True


def test_bad_binary_in_json_is_still_a_document(capsys):
    code, out, _ = run(capsys, "gates", "--binary", "one.two", "--format", "json")
    doc = json.loads(out)
    assert code == 2 and doc["binary"] == "one.two" and "one.two" in doc["errors"][0] and doc["features"] == []


def test_default_binary_is_the_newest_release(capsys):
    _, out, _ = run(capsys, "gates", "--format", "json")
    assert json.loads(out)["binary"] == "1.37"  # the newest release (v1.37.2), not the v1.38.0-beta.0 pre-release


@pytest.mark.parametrize("fmt, needle", [("csv", "name,enabled,stage,default,locked,explicit,stage in binary,changed\n"), ("markdown", "| name | enabled |"), ("table", "name ")])
def test_other_formats(capsys, fmt, needle):
    code, out, _ = run(capsys, "gates", "--binary", "1.35", "--emulated", "1.33", "--format", fmt)
    assert code == 0 and needle in out and "JobManagedBy" in out


def test_manifest_replaces_bundled_data_without_range_rules(tmp_path, capsys):
    path = tmp_path / "m.yaml"
    path.write_text('- name: Widget\n  versionedSpecs:\n  - {default: false, lockToDefault: false, preRelease: Alpha, version: "0.4"}\n  - {default: true, lockToDefault: false, preRelease: Beta, version: "0.6"}\n')
    code, out, _ = run(capsys, "gates", "--manifest", str(path), "--emulated", "0.5", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["binary"] is None and doc["features"] == [
        {"name": "Widget", "enabled": False, "stage": "Alpha", "default": False, "locked": False, "explicit": False, "origin": "kube",
         "historyFrom": "0.4", "binaryStage": None, "changed": False}
    ]
    code, _, err = run(capsys, "gates", "--manifest", str(path))
    assert code == 2 and "emulated version is required" in err
    code, out, _ = run(capsys, "gates", "--manifest", str(path), "--binary", "1.36", "--emulated", "1.30", "--format", "json")
    assert code == 2 and "emulation version 1.30 is not between [1.33, 1.36.0]" in json.loads(out)["errors"]


def test_broken_manifest_is_reported_not_a_traceback(tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    path.write_text("- name: X\n  versionedSpecs:\n  - {version: '1.3.1', preRelease: Gamma}\n")
    code, _, err = run(capsys, "gates", "--manifest", str(path), "--emulated", "1.3")
    assert code == 2 and "gate X" in err and "preRelease" in err and "Traceback" not in err


def test_versions_command(capsys):
    code, out, _ = run(capsys, "versions", "--binary", "1.35", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["emulatedRange"] == ["1.32", "1.35"] and doc["minCompatibilityFlag"] is True
    code, out, _ = run(capsys, "versions", "--binary", "1.33")
    assert "1.31..1.33" in out and "fixed to the default" in out


def test_module_entry_point_runs():
    proc = subprocess.run([sys.executable, "-m", "kcompat", "gates", "--binary", "1.33", "--emulated", "1.31", "--format", "json"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and json.loads(proc.stdout)["emulated"] == "1.31"


SCRIPT = "import sys; from kcompat.cli.main import run; sys.argv[0] = 'kcompat'; run()"


def test_script_ends_with_every_byte_written_and_the_exit_status():
    # the kcompat script ends a read-only command without the interpreter's teardown
    proc = subprocess.run([sys.executable, "-c", SCRIPT, "gates", "--binary", "1.36", "--format", "json"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.endswith("}\n") and len(json.loads(proc.stdout)["features"]) > 200
    proc = subprocess.run([sys.executable, "-c", SCRIPT, "gates", "--binary", "1.36", "--feature-gates", "Nope=true"], capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "unrecognized feature gate: Nope" in proc.stderr
    proc = subprocess.run([sys.executable, "-c", SCRIPT, "gates", "--bogus"], capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and proc.stderr == "kcompat: error: unrecognized arguments: --bogus\n"


def test_script_started_without_stdout_ends_with_a_message_not_a_traceback():
    import os

    proc = subprocess.run([sys.executable, "-c", SCRIPT, "gates", "--binary", "1.36"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, check=False, preexec_fn=lambda: os.close(1))
    assert proc.returncode == 2 and proc.stderr.startswith("kcompat: error: ") and "Traceback" not in proc.stderr


def test_script_runs_the_atexit_handlers_the_command_registers():
    # a handler registered while the command runs (by a library it imports, say) runs before the
    # script's own quick end, which is registered before the command starts
    code = (
        "import atexit, kcompat.cli.versions as v; real = v.run; "
        "v.run = lambda args, catalog: (atexit.register(print, 'atexit ran'), real(args, catalog))[1]; " + SCRIPT
    )
    proc = subprocess.run([sys.executable, "-c", code, "versions", "--binary", "1.36"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and proc.stdout.startswith("binary 1.36") and proc.stdout.endswith("atexit ran\n")


def test_a_read_only_command_ends_without_the_teardown():
    # an object freed only by the interpreter's teardown says so; after gates nothing is torn down,
    # after an argument error (argparse exits itself) the normal exit runs
    code = "class Witness:\n    def __del__(self): print('torn down')\nwitness = Witness()\n" + SCRIPT
    proc = subprocess.run([sys.executable, "-c", code, "gates", "--binary", "1.36", "--format", "csv"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and proc.stdout.startswith("name,") and "torn down" not in proc.stdout
    proc = subprocess.run([sys.executable, "-c", code, "gates", "--bogus"], capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and proc.stdout == "torn down\n"


def test_nothing_on_the_scripts_import_path_registers_an_atexit_handler():
    # such a handler would be registered before the quick end, so it would run after it: never
    code = (
        "import atexit, sys; seen = []; register = atexit.register; "
        "atexit.register = lambda f, *a, **k: (seen.append(getattr(f, '__qualname__', f)), register(f, *a, **k))[1]; "
        "import kcompat.cli.main; print(seen)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout == "[]\n"


def test_a_gates_call_builds_the_parser_of_gates_alone():
    # start-up: the other subcommands' parsers are not built (--help and errors still list them)
    code = (
        "import argparse, sys; built = []; init = argparse.ArgumentParser.__init__; "
        "argparse.ArgumentParser.__init__ = lambda self, *a, **k: (built.append(k.get('prog')), init(self, *a, **k))[1]; "
        "from kcompat.cli.main import main; code = main(['gates', '--binary', '1.36', '--format', 'json']); "
        "print(len(built), file=sys.stderr); sys.exit(code)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and proc.stderr == "2\n"


cli_words = st.sampled_from(["gates", "versions", "--binary", "--emulated", "--min-compat", "--feature-gates", "--format", "json", "1.36", "1.33", "x", "", "=", "AllAlpha=true", "kube:"])


@settings(max_examples=150, deadline=None)
@given(st.lists(cli_words | st.text(max_size=8), max_size=8))
def test_no_argument_list_gives_a_traceback(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's own usage errors exit 2 with a message
            code = exc.code
    assert code in (0, 2)
    assert "Traceback" not in err.getvalue()


def test_data_refresh_is_wired_and_rejects_a_folder_without_recordings(tmp_path, capsys):
    code, _, err = run(capsys, "data", "refresh", "--out", str(tmp_path / "out"))
    assert code == 2 and "no recordings in" in err and "Traceback" not in err


def test_plan_command(capsys):
    code, out, _ = run(capsys, "plan", "--from", "1.34@1.33", "--to", "1.35")
    assert code == 0 and out.startswith("# Upgrade plan: 1.34 (emulating 1.33) -> 1.35")
    code, out, _ = run(capsys, "plan", "--from", "1.34@1.33", "--to", "1.35", "--format", "json")
    assert code == 0 and [s["kind"] for s in json.loads(out)["steps"]][:2] == ["binary", "emulation"]
    code, _, err = run(capsys, "plan", "--from", "1.34", "--to", "1.35@1.34")
    assert code == 2 and "--to takes a binary release only" in err


def test_history_from_says_a_placeholder_is_one(capsys):
    """Issue 19: a gate the data dates to 0.0 / 1.0 is said to be a placeholder in the JSON too."""
    _code, out, _ = run(capsys, "gates", "--binary", "1.36", "--format", "json")
    history = {f["name"]: f["historyFrom"] for f in json.loads(out)["features"]}
    assert history["AllowServiceExternalIPs"] == "not recorded (dated 1.0, a placeholder)"
    assert history["JobManagedBy"] == "1.30"
