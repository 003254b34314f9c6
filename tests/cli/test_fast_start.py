"""``kcompat.cli.fast_start``: the methods dataclasses writes are compiled once and kept beside the
bytecode, and ``inspect`` is imported only when used; the answers are the same either way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GATES = ["gates", "--binary", "1.36", "--emulated", "1.33", "--format", "json"]

#: What a ``kcompat gates`` process imported, and where it keeps the compiled methods.
PROBE = """
import json, sys
sys.argv = ["kcompat", *json.loads(sys.argv[1])]
import contextlib, io
from kcompat.cli import fast_start, main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    status = main.main()
fast_start.save()
print(json.dumps({"status": int(status), "out": out.getvalue(), "cache": fast_start.cache_path(),
                  "inspect": type(sys.modules.get("inspect")).__name__, "ast": "ast" in sys.modules,
                  "typing": "typing" in sys.modules}))
"""


def probe(tmp_path: Path, *env: tuple[str, str]) -> dict:
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    environ.update({"PYTHONPYCACHEPREFIX": str(tmp_path / "pyc"), **dict(env)})
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(GATES)], capture_output=True, text=True, cwd=ROOT, env=environ, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_the_compiled_methods_are_kept_and_give_the_same_answer(tmp_path):
    first = probe(tmp_path)
    cache = Path(first["cache"])
    assert cache.is_file() and cache.is_relative_to(tmp_path / "pyc")  # beside the bytecode, as Python keeps it
    written = cache.stat().st_mtime_ns
    second = probe(tmp_path)  # read from the file this time
    assert second["out"] == first["out"] and second["status"] == first["status"] == 0
    assert cache.stat().st_mtime_ns == written  # nothing new to write
    # The same answer as a Python that keeps no bytecode (nothing kept, every method compiled).
    plain = probe(tmp_path / "none", ("PYTHONDONTWRITEBYTECODE", "1"))
    assert plain["out"] == first["out"]
    assert not Path(plain["cache"]).exists()
    assert len(json.loads(first["out"])["features"]) > 200


def test_a_damaged_file_is_ignored_and_written_anew(tmp_path):
    first = probe(tmp_path)
    cache = Path(first["cache"])
    cache.write_bytes(b"\x00not marshal")
    again = probe(tmp_path)
    assert again["out"] == first["out"]
    import marshal

    kept = marshal.loads(cache.read_bytes())
    assert isinstance(kept, dict) and all(isinstance(k, str) and type(v).__name__ == "code" for k, v in kept.items())


def test_inspect_is_not_imported_on_the_way_to_an_answer(tmp_path):
    found = probe(tmp_path)
    assert found["inspect"] == "_Deferred" and not found["ast"] and not found["typing"]


def test_a_deferred_inspect_is_the_real_one_when_used(tmp_path):
    code = (
        "from kcompat.cli import fast_start\n"
        "fast_start.install()\n"
        "import dataclasses, sys\n"
        "@dataclasses.dataclass(frozen=True)\n"
        "class Point:\n"
        "    x: int\n"
        "    y: int = 2\n"
        "import inspect\n"
        "print(Point.__doc__, Point.__init__.__annotations__, Point(1) == Point(1, 2), hash(Point(1)) == hash(Point(1, 2)),\n"
        "      repr(Point(3)), inspect.isclass(Point), type(sys.modules['inspect']).__name__)\n"
        "fast_start.save()\n"
    )
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    environ["PYTHONPYCACHEPREFIX"] = str(tmp_path)
    outputs = []
    for install in (True, False, True):  # compiled here, plain dataclasses, then read from the kept file
        done = subprocess.run([sys.executable, "-c", code if install else code.replace("fast_start.", "(lambda: 0) or fast_start.")],
                              capture_output=True, text=True, cwd=ROOT, env=environ, timeout=60)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout.strip())
    expected = "Point(x: int, y: int = 2) {'x': <class 'int'>, 'y': <class 'int'>, 'return': None} True True Point(x=3, y=2) True module"
    assert outputs == [expected] * 3
    assert list(tmp_path.rglob("dataclass-methods.*.marshal"))
