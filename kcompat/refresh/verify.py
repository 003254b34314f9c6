"""Every recording a refresh reads, verified before anything is staged (``kcompat data refresh``).

The refresh reads ``data/oracle/<release>/`` (docs/data.md, "What a refresh verifies"). Before it
stages a single file, :func:`verify_recordings` reads each recording once and checks it:

* it exists where its release lists it: every ``v1.N.P`` (or pre-release) folder holds
  ``gates.json`` and ``meta.json``; ``meta.json`` lists the rest (``components``: each component's
  ``gates.json``; ``livePairs``: ``apis.json``, ``gated-resources.json`` and that many
  ``live/*.json``; ``readiness``: ``startup.json``); and the patch ``releases.yaml`` says a release
  was read from is still recorded (else the refresh would answer it from an older patch);
* it is a regular file (a FIFO, a device or a link out of the data folder is refused without
  being opened for long: :func:`kcompat.data.files.read_regular_file`), at most
  :data:`MAX_RECORDING_BYTES` (refused by its size, never read whole);
* it is UTF-8 JSON (a truncated file: the line and column where it ends);
* it matches its schema: the fields the refresh uses with their types, gate names that are gate
  names, no gate twice in a gate list, no version twice in a gate's specs, versions ``X.Y``.

Each problem names the file (relative to the data folder) and the field (``[17].name``); the
refusal lists the first :data:`MAX_SHOWN` and counts the rest. Every value echoed is escaped
(:func:`kcompat.core.errors.echo`).

The pass keeps the SHA-256 of each file it verified (:class:`Recordings`); the refresh reads the
recordings through :func:`read_recording`, which refuses a file that was not verified or that
changed since.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import KcompatError, echo
from ..data.files import read_regular_file
from .common import RefreshError

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any

#: the largest recording a refresh reads (the largest recorded is about 0.3 MB)
MAX_RECORDING_BYTES = 16 * 1024 * 1024
#: the problems a refusal lists; the others are counted
MAX_SHOWN = 20

ORACLE_DIR = "oracle"
PATCH_FOLDER = re.compile(r"^v1\.[0-9]+\.[0-9]+$")
PRE_RELEASE_FOLDER = re.compile(r"^v1\.[0-9]+\.0-(alpha|beta|rc)\.[0-9]+$")
COMPONENTS = ("kube-controller-manager", "kube-scheduler")
GATE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9]{0,127}$")
VERSION = re.compile(r"^[0-9]{1,4}\.[0-9]{1,4}$")
STAGES = frozenset({"Alpha", "Beta", "GA", "Deprecated"})
ORIGINS = frozenset({"kube", "client-go"})
FINDING_KINDS = frozenset({"gates", "api-off"})


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one recording: the file (relative to the data folder), the field
    (``[3].versionedSpecs[1].version``; empty for the whole file) and what is wrong."""

    file: str
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{echo(self.file, 200)}: {self.field}: " if self.field else f"{echo(self.file, 200)}: "
        return where + self.message


class RecordingError(RefreshError):
    """The recordings cannot be used: every problem found, the first :data:`MAX_SHOWN` listed."""

    def __init__(self, data_dir: Path, problems: list[Problem]) -> None:
        self.data_dir = data_dir
        self.problems = tuple(problems)
        count = len(problems)
        lines = [f"the recordings under {echo(data_dir / ORACLE_DIR, 300)} cannot be used "
                 f"({count} problem{'s' if count != 1 else ''}); nothing was written:"]
        lines += [f"  {problem}" for problem in problems[:MAX_SHOWN]]
        if count > MAX_SHOWN:
            lines.append(f"  and {count - MAX_SHOWN} more")
        super().__init__("\n".join(lines))


class Recordings:
    """The recordings a refresh verified: absolute path -> SHA-256 of the bytes verified."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.hashes: dict[str, str] = {}

    def relative(self, path: Path) -> str:
        try:
            return Path(os.path.abspath(path)).relative_to(os.path.abspath(self.data_dir)).as_posix()
        except ValueError:
            return str(path)


_VERIFIED: ContextVar[Recordings | None] = ContextVar("kcompat_verified_recordings", default=None)


@contextmanager
def verified(recordings: Recordings) -> Iterator[Recordings]:
    """The block reads its recordings through ``recordings`` (:func:`read_recording`)."""
    token = _VERIFIED.set(recordings)
    try:
        yield recordings
    finally:
        _VERIFIED.reset(token)


def _read_bytes(path: Path, source: str) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_RECORDING_BYTES`, read bounded."""
    try:
        size = os.stat(path).st_size
    except OSError as exc:
        raise KcompatError(f"{source}: cannot read: {exc.strerror or exc}") from None
    if size > MAX_RECORDING_BYTES:
        raise KcompatError(f"{source}: {size} bytes, over the {MAX_RECORDING_BYTES} bytes a recording may have")
    raw = read_regular_file(path, MAX_RECORDING_BYTES, source)  # refuses a FIFO or a device without blocking
    if len(raw) > MAX_RECORDING_BYTES:  # grew since the stat
        raise KcompatError(f"{source}: over the {MAX_RECORDING_BYTES} bytes a recording may have")
    return raw


def _parse(raw: bytes) -> tuple[object, str | None]:
    """(the JSON document, None), or (None, why it is not one)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 text (byte {exc.start})"
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        body = text.rstrip()
        if body[:1] in ("{", "[") and body[-1:] != {"{": "}", "[": "]"}[body[:1]]:  # cut short: say where it ends
            line = body.count("\n") + 1
            column = len(body) - body.rfind("\n") - 1  # of its last character
            return None, f"ends too early, at line {line}, column {column} (truncated?): {exc.msg} (line {exc.lineno}, column {exc.colno})"
        return None, f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
    except RecursionError:
        return None, "not valid JSON: nested too deeply"


def read_recording(path: Path) -> Any:
    """The JSON document of the recording ``path``. Inside :func:`verified`: the bytes the
    verification saw, else a refusal (not verified, or changed since); outside it (a library
    caller): bounded and parsed, a message naming the file when it is not JSON."""
    recordings = _VERIFIED.get()
    source = recordings.relative(path) if recordings is not None else str(path)
    raw = _read_bytes(path, echo(source, 300))
    if recordings is not None:
        expected = recordings.hashes.get(os.path.abspath(path))
        if expected is None:
            raise RefreshError(f"{echo(source, 300)}: read by the refresh but not verified before it")
        if hashlib.sha256(raw).hexdigest() != expected:
            raise RefreshError(f"{echo(source, 300)}: changed while the refresh ran; nothing was written, run it again")
    document, reason = _parse(raw)
    if reason is not None:
        raise RefreshError(f"{echo(source, 300)}: {reason}")
    return document


# --- the checks ------------------------------------------------------------------------------


class _Check:
    """The problems of one file."""

    def __init__(self, file: str, problems: list[Problem]) -> None:
        self.file = file
        self.problems = problems

    def add(self, field: str, message: str) -> None:
        self.problems.append(Problem(self.file, field, message))

    def typed(self, value: object, kind: type | tuple[type, ...], field: str, what: str) -> bool:
        """Whether ``value`` is of ``kind`` (bool is no int here); a problem when not."""
        ok = isinstance(value, kind) and not (isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)))
        if not ok:
            self.add(field, f"expected {what}, found {_kind_of(value)}")
        return ok

    def text(self, value: object, field: str, *, empty: bool = False) -> bool:
        if not self.typed(value, str, field, "text"):
            return False
        if not empty and not value:
            self.add(field, "empty")
            return False
        return True

    def texts(self, value: object, field: str) -> bool:
        if not self.typed(value, list, field, "a list of text"):
            return False
        assert isinstance(value, list)
        return all([self.text(item, f"{field}[{i}]", empty=True) for i, item in enumerate(value)])


def _kind_of(value: object) -> str:
    if value is None:
        return "nothing (missing or null)"
    kinds = {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list", dict: "an object"}
    shown = kinds.get(type(value), type(value).__name__)
    return f'{shown} "{echo(value, 60)}"' if isinstance(value, (str, int, float)) and not isinstance(value, bool) else shown


def _version(c: _Check, value: object, field: str) -> None:
    if c.text(value, field) and not VERSION.match(str(value)):
        c.add(field, f'"{echo(value, 60)}" is not a version (X.Y)')


def _gate_name(c: _Check, value: object, field: str) -> bool:
    if not c.text(value, field):
        return False
    if not GATE_NAME.match(str(value)):
        c.add(field, f'"{echo(value, 60)}" is not a feature gate name (letters and digits, a letter first)')
        return False
    return True


def check_gates(c: _Check, document: object) -> None:
    """``gates.json``: the gates one binary registers (oracle/gates, oracle/<component>)."""
    if not c.typed(document, list, "", "a list of gates"):
        return
    assert isinstance(document, list)
    if not document:
        c.add("", "no gates recorded")
    seen: dict[str, int] = {}
    for i, gate in enumerate(document):
        if c.typed(gate, dict, f"[{i}]", "a gate (an object)"):
            _check_gate(c, gate, f"[{i}]", i, seen)


def _check_gate(c: _Check, gate: dict[str, Any], at: str, index: int, seen: dict[str, int]) -> None:
    name = gate.get("name")
    if _gate_name(c, name, f"{at}.name"):
        assert isinstance(name, str)
        if name in seen:
            c.add(f"{at}.name", f'"{echo(name, 60)}" listed twice (also [{seen[name]}])')
        seen.setdefault(name, index)
    origin = gate.get("origin")
    if c.text(origin, f"{at}.origin") and origin not in ORIGINS:
        c.add(f"{at}.origin", f'"{echo(origin, 60)}" is neither kube nor client-go')
    dependencies = gate.get("dependencies")
    if dependencies is not None and c.typed(dependencies, list, f"{at}.dependencies", "a list of gate names"):
        assert isinstance(dependencies, list)
        named: dict[str, int] = {}
        for j, dependency in enumerate(dependencies):
            if _gate_name(c, dependency, f"{at}.dependencies[{j}]"):
                if dependency in named:
                    c.add(f"{at}.dependencies[{j}]", f'"{echo(dependency, 60)}" listed twice (also [{named[dependency]}])')
                named.setdefault(dependency, j)
    specs = gate.get("versionedSpecs")
    if not c.typed(specs, list, f"{at}.versionedSpecs", "a list of specs"):
        return
    assert isinstance(specs, list)
    if not specs:
        c.add(f"{at}.versionedSpecs", "no spec recorded")
    versions: dict[str, int] = {}
    for j, spec in enumerate(specs):
        if c.typed(spec, dict, f"{at}.versionedSpecs[{j}]", "a spec (an object)"):
            _check_spec(c, spec, f"{at}.versionedSpecs[{j}]", j, versions)


def _check_spec(c: _Check, spec: dict[str, Any], where: str, index: int, versions: dict[str, int]) -> None:
    c.typed(spec.get("default"), bool, f"{where}.default", "true or false")
    c.typed(spec.get("lockToDefault"), bool, f"{where}.lockToDefault", "true or false")
    stage = spec.get("preRelease")
    if c.text(stage, f"{where}.preRelease") and stage not in STAGES:
        c.add(f"{where}.preRelease", f'"{echo(stage, 60)}" is not a stage (Alpha, Beta, GA, Deprecated)')
    version, min_compat = spec.get("version"), spec.get("minCompatibilityVersion")
    _version(c, version, f"{where}.version")
    if min_compat is not None:
        _version(c, min_compat, f"{where}.minCompatibilityVersion")
    if isinstance(version, str) and isinstance(min_compat, (str, type(None))):
        # a version has one spec, and one more with a min compatibility version (as the gate registers them)
        key = f"{version} {min_compat or ''}"
        if key in versions:
            also = f"also versionedSpecs[{versions[key]}]" + (f", minCompatibilityVersion {echo(min_compat, 60)}" if min_compat else "")
            c.add(f"{where}.version", f'"{echo(version, 60)}" listed twice ({also})')
        versions.setdefault(key, index)


def check_meta(c: _Check, document: object, folder: str) -> None:
    """``meta.json``: what was recorded, with which modules and Go."""
    if not c.typed(document, dict, "", "an object"):
        return
    assert isinstance(document, dict)
    modules = document.get("modules")
    if modules is not None and c.typed(modules, dict, "modules", "an object of module versions"):
        assert isinstance(modules, dict)
        for name, version in modules.items():
            c.text(version, f"modules.{echo(name, 60)}")
    for key in ("go", "recorded"):
        if document.get(key) is not None:
            c.text(document[key], key)
    release = document.get("release")
    if release is not None and c.text(release, "release") and release != folder:
        c.add("release", f'"{echo(release, 60)}" is not the folder\'s release ({echo(folder, 60)})')
    if document.get("components") is not None:
        c.typed(document["components"], dict, "components", "an object")
    if document.get("livePairs") is not None and c.typed(document["livePairs"], int, "livePairs", "a number") and document["livePairs"] < 1:
        c.add("livePairs", f"{document['livePairs']}: expected at least 1")
    if document.get("readiness") is not None:
        c.typed(document["readiness"], dict, "readiness", "an object")
    if document.get("modulesNotServed") is not None:
        c.typed(document["modulesNotServed"], (list, dict), "modulesNotServed", "a list")


def _flag_map(c: _Check, value: object, field: str, keys: Callable[[str], bool]) -> None:
    """An object of server -> object of key -> true/false (``groupVersionEnabled``, ``resourceEnabled``)."""
    if not c.typed(value, dict, field, "an object of servers"):
        return
    assert isinstance(value, dict)
    for server, flags in value.items():
        at = f"{field}.{echo(server, 60)}"
        if not c.typed(flags, dict, at, "an object"):
            continue
        for key, on in flags.items():
            if not keys(key):
                c.add(at, f'"{echo(key, 80)}" is not what the key should be')
            c.typed(on, bool, f"{at}.{echo(key, 80)}", "true or false")


def check_apis(c: _Check, document: object) -> None:
    """``apis.json``: the schemes' kinds and the default resource configs."""
    if not c.typed(document, dict, "", "an object"):
        return
    assert isinstance(document, dict)
    _flag_map(c, document.get("groupVersionEnabled"), "groupVersionEnabled", lambda k: bool(k) and " " not in k)
    _flag_map(c, document.get("resourceEnabled"), "resourceEnabled", lambda k: k.count(" ") == 1 and all(k.split(" ")))
    kinds = document.get("kinds")
    if c.typed(kinds, list, "kinds", "a list of kinds"):
        assert isinstance(kinds, list)
        for i, kind in enumerate(kinds):
            if c.typed(kind, dict, f"kinds[{i}]", "a kind (an object)"):
                _check_kind(c, kind, f"kinds[{i}]")
    priority = document.get("versionPriority")
    if c.typed(priority, dict, "versionPriority", "an object of groups"):
        assert isinstance(priority, dict)
        for group, versions in priority.items():
            if versions is not None:
                c.texts(versions, f"versionPriority.{echo(group, 60)}")
    if document.get("storageEncodingOverrides") is not None:
        c.texts(document["storageEncodingOverrides"], "storageEncodingOverrides")


def _check_kind(c: _Check, kind: dict[str, Any], at: str) -> None:
    c.text(kind.get("group"), f"{at}.group", empty=True)
    for key in ("version", "kind", "server"):
        c.text(kind.get(key), f"{at}.{key}")
    for key in ("introduced", "deprecated", "removed"):
        if kind.get(key) not in (None, ""):
            _version(c, kind[key], f"{at}.{key}")
    if kind.get("replacement") is not None:
        c.typed(kind["replacement"], (str, dict), f"{at}.replacement", "text")


def check_gated_resources(c: _Check, document: object) -> None:
    """``gated-resources.json``: the resources whose storage a gate installs."""
    if not c.typed(document, list, "", "a list"):
        return
    assert isinstance(document, list)
    for i, item in enumerate(document):
        at = f"[{i}]"
        if not c.typed(item, dict, at, "an object"):
            continue
        c.text(item.get("group"), f"{at}.group", empty=True)
        for key in ("version", "resource"):
            c.text(item.get(key), f"{at}.{key}")
        _gate_name(c, item.get("gate"), f"{at}.gate")
        if "subresource" in item:
            c.text(item["subresource"], f"{at}.subresource")


def check_live(c: _Check, document: object) -> None:
    """``live/*.json``: one run of the real kube-apiserver and its discovery."""
    if not c.typed(document, dict, "", "an object"):
        return
    assert isinstance(document, dict)
    discovery = document.get("discovery")
    if discovery is None or not c.typed(discovery, dict, "discovery", "an object of group/versions"):
        return
    assert isinstance(discovery, dict)
    for gv, resources in discovery.items():
        at = f"discovery.{echo(gv, 80)}"
        if not c.typed(resources, list, at, "a list of resources"):
            continue
        for i, resource in enumerate(resources):
            where = f"{at}[{i}]"
            if not c.typed(resource, dict, where, "a resource (an object)"):
                continue
            c.text(resource.get("name"), f"{where}.name")
            c.text(resource.get("kind"), f"{where}.kind")
            if resource.get("storageVersionHash") is not None:
                c.text(resource["storageVersionHash"], f"{where}.storageVersionHash", empty=True)


def _start(c: _Check, run: object, at: str) -> bool:
    if not c.typed(run, dict, at, "a start (an object)"):
        return False
    assert isinstance(run, dict)
    ok = c.text(run.get("id"), f"{at}.id") & c.texts(run.get("flags"), f"{at}.flags") & c.text(run.get("verdict"), f"{at}.verdict")
    for key in ("errorLines", "failingChecks"):
        if run.get(key) is not None:
            ok &= c.texts(run[key], f"{at}.{key}")
    if run.get("purpose") is not None:
        ok &= c.text(run["purpose"], f"{at}.purpose", empty=True)
    return ok


def check_startup(c: _Check, document: object) -> None:
    """``startup.json``: the recorded starts of kube-apiserver and what they found."""
    if not c.typed(document, dict, "", "an object"):
        return
    assert isinstance(document, dict)
    runs = document.get("runs")
    ids: dict[str, int] = {}
    if c.typed(runs, list, "runs", "a list of starts"):
        assert isinstance(runs, list)
        for i, run in enumerate(runs):
            if _start(c, run, f"runs[{i}]"):
                c.typed(run.get("seconds"), (int, float), f"runs[{i}].seconds", "a number")
                if run["id"] in ids:
                    c.add(f"runs[{i}].id", f'"{echo(run["id"], 60)}" listed twice (also runs[{ids[run["id"]]}])')
                ids.setdefault(run["id"], i)
    findings = document.get("findings")
    if c.typed(findings, list, "findings", "a list of findings"):
        assert isinstance(findings, list)
        for i, finding in enumerate(findings):
            if c.typed(finding, dict, f"findings[{i}]", "a finding (an object)"):
                _check_finding(c, finding, f"findings[{i}]", ids)
    cases = document.get("cases")
    if cases is not None and c.typed(cases, dict, "cases", "an object of option cases"):
        assert isinstance(cases, dict)
        for name, case in cases.items():
            _start(c, case, f"cases.{echo(name, 60)}")


def check_rehearsal(c: _Check, document: object) -> None:
    """``rehearsal.json``: the rollback of a pair rehearsed on the real binaries (oracle/rehearse.py)."""
    if not c.typed(document, dict, "", "an object"):
        return
    assert isinstance(document, dict)
    for key in ("from", "to"):
        c.text(document.get(key), key)
    for key in ("fromMinor", "toMinor"):  # "1.35"
        _version(c, document.get(key), key)
    phases = document.get("phases")
    if c.typed(phases, list, "phases", "a list") and not phases:
        c.add("phases", "empty: nothing was rehearsed")


def _check_finding(c: _Check, finding: dict[str, Any], at: str, ids: dict[str, int]) -> None:
    kind = finding.get("kind")
    if c.text(kind, f"{at}.kind") and kind not in FINDING_KINDS:
        c.add(f"{at}.kind", f'"{echo(kind, 60)}" is not a kind of finding (gates, api-off)')
    c.texts(finding.get("flags"), f"{at}.flags")
    c.text(finding.get("verdict"), f"{at}.verdict")
    _version(c, finding.get("emulated"), f"{at}.emulated")
    if c.texts(finding.get("evidence"), f"{at}.evidence") and ids:
        unknown = [e for e in finding["evidence"] if e not in ids]
        if unknown:
            c.add(f"{at}.evidence", f'names no recorded start "{echo(unknown[0], 60)}"')
    if kind == "gates":
        gates = finding.get("gates")
        if c.typed(gates, list, f"{at}.gates", "a list of gate names"):
            assert isinstance(gates, list)
            for j, gate in enumerate(gates):
                _gate_name(c, gate, f"{at}.gates[{j}]")
        if finding.get("needs") is not None:
            c.texts(finding["needs"], f"{at}.needs")
    elif kind == "api-off":
        c.text(finding.get("api"), f"{at}.api")


# --- the pass --------------------------------------------------------------------------------


def _release_key(name: str) -> tuple[int, ...]:
    """``1.36.5`` / ``v1.38.0-beta.0`` in release order (a pre-release before its x.y.0)."""
    base, _, pre = name.lstrip("v").partition("-")
    numbers = tuple(int(p) for p in base.split(".") if p.isdigit())
    if not pre:
        return (*numbers, 1, 0, 0)
    kind, _, number = pre.partition(".")
    return (*numbers, 0, {"alpha": 0, "beta": 1, "rc": 2}.get(kind, 0), int(number) if number.isdigit() else 0)


class _Pass:
    """One verification pass over data/oracle/."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.root = os.path.realpath(data_dir)
        self.recordings = Recordings(data_dir)
        self.problems: list[Problem] = []

    def relative(self, path: Path) -> str:
        return self.recordings.relative(path)

    def file(self, path: Path, check: Callable[[_Check, object], None], *, listed: str | None = None) -> object:
        """Verify one recording: it exists (a problem when ``listed`` says why it must), is a
        regular file in the data folder, bounded, JSON, and passes ``check``; its document."""
        name = self.relative(path)
        c = _Check(name, self.problems)
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            if listed is not None:
                c.add("", f"missing ({listed})")
            return None
        except OSError as exc:
            c.add("", f"cannot read: {exc.strerror or exc}")
            return None
        if stat.S_ISLNK(info.st_mode):
            target = os.path.realpath(path)
            if os.path.commonpath([self.root, target]) != self.root:
                c.add("", f"a symbolic link out of the data folder (to {echo(target, 200)})")
                return None
        try:
            raw = _read_bytes(path, "")
        except KcompatError as exc:
            c.add("", str(exc).removeprefix(": "))
            return None
        document, reason = _parse(raw)
        if reason is not None:
            c.add("", reason)
            return None
        before = len(self.problems)
        check(c, document)
        if len(self.problems) == before:
            self.recordings.hashes[os.path.abspath(path)] = hashlib.sha256(raw).hexdigest()
        return document

    def folder(self, folder: Path) -> None:
        """One recorded release: gates.json and meta.json, and what meta.json lists."""
        self.file(folder / "gates.json", check_gates, listed="every recording has its gates: oracle/record.py writes them")
        meta = self.file(folder / "meta.json", lambda c, d: check_meta(c, d, folder.name),
                         listed="every recording has one: oracle/record.py writes it")
        meta = meta if isinstance(meta, dict) else {}
        components: dict[str, Any] = meta["components"] if isinstance(meta.get("components"), dict) else {}
        for component in COMPONENTS:
            listed = f"meta.json lists {component}" if component in components else None
            if listed is None and os.path.lexists(folder / component):
                listed = f"{component}/ is recorded"
            self.file(folder / component / "gates.json", check_gates, listed=listed)
        live_pairs = meta.get("livePairs")
        full = f"meta.json lists {live_pairs} live runs" if isinstance(live_pairs, int) and not isinstance(live_pairs, bool) else None
        self.file(folder / "apis.json", check_apis, listed=full)
        self.file(folder / "gated-resources.json", check_gated_resources, listed=full)
        live = sorted((folder / "live").glob("*.json")) if (folder / "live").is_dir() else []
        for run in live:
            self.file(run, check_live, listed="it is listed in live/")
        if full is not None and len(live) != live_pairs:
            self.problems.append(Problem(self.relative(folder / "live"), "", f"{len(live)} runs recorded, meta.json lists {live_pairs} (livePairs)"))
        readiness = "meta.json lists its readiness starts" if isinstance(meta.get("readiness"), dict) else None
        self.file(folder / "startup.json", check_startup, listed=readiness)
        self.file(folder / "rehearsal.json", check_rehearsal, listed=None)  # the rollback rehearsal of the pair ending here, if recorded

    def releases(self, recorded: dict[int, list[str]], minors: list[int] | None) -> None:
        """The patch each release of releases.yaml was read from is still recorded (or a newer one
        is): else the refresh would answer the release from an older patch."""
        from ..core.safe_yaml import read_yaml_text

        path = self.data_dir / "releases.yaml"
        name = self.relative(path)
        c = _Check(name, self.problems)
        if not os.path.lexists(path):
            return
        try:
            document = read_yaml_text(read_regular_file(path, MAX_RECORDING_BYTES, name), name, MAX_RECORDING_BYTES)
        except KcompatError as exc:
            c.add("", str(exc).removeprefix(f"{name}: "))
            return
        entries = document.get("releases") if isinstance(document, dict) else None
        if not isinstance(entries, list):
            c.add("releases", "expected a list of releases")
            return
        for i, entry in enumerate(entries):
            features = entry.get("features") if isinstance(entry, dict) else None
            patch = features.get("patch") if isinstance(features, dict) else None
            if not isinstance(patch, str) or not (PATCH_FOLDER.match(f"v{patch}") or PRE_RELEASE_FOLDER.match(f"v{patch}")):
                continue  # a release never read from a recording
            minor = int(patch.split(".")[1])
            if minors is not None and minor not in minors:
                continue
            folders = recorded.get(minor, [])
            if f"v{patch}" in folders:
                continue
            newest = max(folders, key=_release_key) if folders else None
            if newest is None:
                c.add(f"releases[{i}].features.patch", f"1.{minor} was read from v{echo(patch, 60)}, and no recording of 1.{minor} "
                      f"is left under {ORACLE_DIR}/ (its recordings were removed?)")
            elif _release_key(newest) < _release_key(patch):
                c.add(f"releases[{i}].features.patch", f"1.{minor} was read from v{echo(patch, 60)}, whose recording "
                      f"{ORACLE_DIR}/v{echo(patch, 60)}/ is gone: a refresh would answer 1.{minor} from the older {echo(newest, 60)}")


def recorded_folders(data_dir: Path) -> dict[int, list[str]]:
    """Minor -> the names of its recorded folders (``v1.N.P`` and pre-releases) under oracle/."""
    found: dict[int, list[str]] = {}
    try:
        names = sorted(os.listdir(data_dir / ORACLE_DIR))
    except OSError:
        return found
    for name in names:
        if PATCH_FOLDER.match(name) or PRE_RELEASE_FOLDER.match(name):
            found.setdefault(int(name.split(".")[1]), []).append(name)
    return found


def verify_recordings(data_dir: Path, minors: list[int] | None = None) -> Recordings:
    """Verify every recording under ``data_dir/oracle`` (see the module) and the patches
    ``releases.yaml`` was read from (of ``minors``; None: every release it lists); the verified
    recordings, or :class:`RecordingError` with every problem."""
    check = _Pass(data_dir)
    folders = recorded_folders(data_dir)
    for minor in sorted(folders):
        for name in folders[minor]:
            folder = data_dir / ORACLE_DIR / name
            if not folder.is_dir() or (folder.is_symlink() and os.path.commonpath([check.root, os.path.realpath(folder)]) != check.root):
                check.problems.append(Problem(check.relative(folder), "", "named like a recording but not a folder of the data folder"))
                continue
            check.folder(folder)
    check.releases(folders, minors)
    if check.problems:
        raise RecordingError(data_dir, check.problems)
    return check.recordings
