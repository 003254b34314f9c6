#!/usr/bin/env python3
"""Record what real Kubernetes releases answer, into data/oracle/.

For each pinned release (a modfile in oracle/modfiles/) this:

1. builds kube-apiserver, kube-scheduler and kube-controller-manager (k8s.io/kubernetes/cmd/...,
   with the release's version stamped in as its own build does), ``etcd`` (etcd's server at the
   version the release requires) and the oracle programs (this folder's main.go for kube-apiserver,
   kube-scheduler/ and kube-controller-manager/ for the other two, gates/ for patches);
2. records ``oracle gates`` and ``oracle apis`` (the release's own registered feature gate, API
   scheme and resource config), each component's gates, and the version ranges each binary's
   ``--help`` prints;
3. starts etcd and, for every (emulated, min compatibility) choice the binary allows, a
   kube-apiserver on 127.0.0.1, and records ``/version``, the ``kubernetes_feature_enabled`` lines
   of ``/metrics`` and discovery (``/api``, ``/apis`` and every group-version's resource list);
4. starts the binary with a set of inputs it refuses and records how each start ended;
5. runs kube-scheduler and kube-controller-manager at every emulated version they allow, against a
   kube-apiserver of the release, and records their ``/metrics`` gates and their refusals;
6. finds what keeps a kube-apiserver from getting ready (readiness.py): option cases, gates that
   need an API that is off, APIs a default start needs.

Only the standard library is used. Usage::

    python3 oracle/record.py v1.37.2 [v1.36.5 ...] [--bin DIR] [--skip-build] [--only gates,live,refusals,components,readiness]
    python3 oracle/record.py --gates-only v1.37.0 v1.37.1     # patches: the gates program only

Everything it writes is JSON under data/oracle/<release>/ (compact, sorted keys); the scheduler's
and controller-manager's under data/oracle/<release>/<component>/.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from servers import Etcd, apiserver_args, component_args, discovery, free_port, get, get_json, metrics_gates, watch

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = ROOT / "data" / "oracle"

#: the Go toolchain a modfile asking for a newer Go than this machine's is built with (the module
#: proxy serves it as a module; the go command fetches it itself when GOTOOLCHAIN names it)
NEWER_TOOLCHAIN = {"1.27": "go1.27.3"}


def go_env(release: str | None = None) -> dict[str, str]:
    """The environment for the go command: GOTOOLCHAIN set when the release's go.mod needs a newer Go."""
    env = dict(os.environ)
    if release is not None:
        match = re.search(r"^go (\d+\.\d+)", modfile(release).read_text(), re.M)
        if match and match.group(1) in NEWER_TOOLCHAIN and "GOTOOLCHAIN" not in os.environ:
            env["GOTOOLCHAIN"] = NEWER_TOOLCHAIN[match.group(1)]
    return env


def go_version(release: str | None = None) -> str:
    return subprocess.run(["go", "env", "GOVERSION"], capture_output=True, text=True, check=True, cwd=HERE, env=go_env(release)).stdout.strip()


def modfile(release: str) -> Path:
    path = HERE / "modfiles" / f"{release}.mod"
    if not path.is_file():
        raise SystemExit(f"no modfile for {release}: run oracle/gen_mod.sh {release} first")
    return path


def module_versions(release: str) -> dict[str, str]:
    """The versions of the modules the answers come from, as the modfile resolves them."""
    out = subprocess.run(
        ["go", "list", f"-modfile=modfiles/{release}.mod", "-m", "-f", "{{.Path}} {{if .Replace}}{{.Replace.Version}}{{else}}{{.Version}}{{end}}",
         "k8s.io/kubernetes", "k8s.io/component-base", "k8s.io/apiserver", "k8s.io/client-go", "k8s.io/api", "go.etcd.io/etcd/server/v3"],
        cwd=HERE, capture_output=True, text=True, check=True, env=go_env(release),
    ).stdout
    return dict(line.split(" ", 1) for line in out.strip().splitlines())


def ldflags(release: str) -> str:
    """The version stamp a release build sets (hack/lib/version.sh), minus the commit the module lacks."""
    minor = release.split(".")[1]
    stamp = []
    for p in ("k8s.io/component-base/version", "k8s.io/client-go/pkg/version"):
        stamp += [f"-X {p}.gitVersion={release}", f"-X {p}.gitMajor=1", f"-X {p}.gitMinor={minor}",
                  f"-X {p}.gitTreeState=clean", f"-X {p}.gitCommit=", f"-X {p}.buildDate=1970-01-01T00:00:00Z"]
    return " ".join(stamp)


def minor_of(release: str) -> int:
    return int(release.split(".")[1])


def build_tags(release: str) -> list[str]:
    """The build tag that picks internal/dump's per-release file (1.31-1.34 lack dependencies,
    per-spec min compatibility and client-go's versioned registration)."""
    return ["-tags", "kcompat_pre135"] if minor_of(release) < 35 else []


#: the control-plane components KEP-4330 gives --emulated-version, each with its oracle program
COMPONENTS = ("kube-apiserver", "kube-scheduler", "kube-controller-manager")
#: what record.py builds: name -> go package (kubectl only for tests/live: --build-only)
PROGRAMS = {
    "kube-apiserver": "k8s.io/kubernetes/cmd/kube-apiserver",
    "kube-scheduler": "k8s.io/kubernetes/cmd/kube-scheduler",
    "kube-controller-manager": "k8s.io/kubernetes/cmd/kube-controller-manager",
    "etcd": "./etcd",
    "oracle": ".",
    "oracle-kube-scheduler": "./kube-scheduler",
    "oracle-kube-controller-manager": "./kube-controller-manager",
    "gates": "./gates",
}


def go_build(release: str, bindir: Path, name: str, target: str) -> float:
    bindir.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    subprocess.run(["go", "build", f"-modfile=modfiles/{release}.mod", *build_tags(release), "-ldflags", ldflags(release),
                    "-o", str(bindir / name), target], cwd=HERE, check=True, env=go_env(release))
    seconds = round(time.monotonic() - start, 1)
    print(f"built {name} {release} in {seconds} s", file=sys.stderr)
    return seconds


def build_gates(release: str, bindir: Path) -> float:
    return go_build(release, bindir, "gates", "./gates")


def build(release: str, bindir: Path, programs: dict[str, str] = PROGRAMS) -> dict[str, float]:
    return {name: go_build(release, bindir, name, target) for name, target in programs.items()}


def modfile_notes(release: str) -> list[str]:
    """gen_mod.sh's notes on staging modules the proxy does not serve at the release's own patch,
    for the modules the modfile still requires."""
    text = modfile(release).read_text()
    required = set(re.findall(r"^\s+(k8s\.io/[a-z0-9-]+) v", text, re.M))
    notes = []
    for line in re.findall(r"^// not served: (.*)$", text, re.M):
        if line.split(" ")[0] in required:
            notes.append(line)
    return notes


def write(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n")


def version_key(text: str) -> tuple[int, int]:
    major, minor = text.split(".")[:2]
    return int(major), int(minor)


def parse_range(text: str) -> tuple[str, str]:
    """``1.34..1.37(default:1.37)`` -> ("1.34", "1.37")."""
    m = re.match(r"^(\d+\.\d+)\.\.(\d+\.\d+)", text)
    if not m:
        raise ValueError(f"unexpected range {text!r}")
    return m.group(1), m.group(2)


def minors(low: str, high: str) -> list[str]:
    lo, hi = version_key(low), version_key(high)
    return [f"{lo[0]}.{m}" for m in range(lo[1], hi[1] + 1)]


HELP_RANGE = re.compile(r"kube=(\d+\.\d+)\.\.(\d+\.\d+)")


def help_ranges(binary: Path) -> dict:
    """The allowed version ranges a component's own ``--help`` prints for ``--emulated-version``
    and (1.35+) ``--min-compatibility-version`` (``kube=1.34..1.37(default:1.37)``), and its
    ``--version``."""
    text = subprocess.run([str(binary), "--help"], capture_output=True, text=True).stdout
    version = subprocess.run([str(binary), "--version"], capture_output=True, text=True).stdout.split()[-1]
    flags: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"^\s+(?:-\w, )?--([a-z-]+)", line)
        if m:
            current = m.group(1)
            flags[current] = line
        elif current:
            flags[current] += " " + line.strip()
    out = {"binaryVersion": version}
    for key, flag in (("allowedEmulationVersionRange", "emulated-version"), ("allowedMinCompatibilityVersionRange", "min-compatibility-version")):
        m = HELP_RANGE.search(flags.get(flag, ""))
        out[key] = f"{m.group(1)}..{m.group(2)}" if m else None
        out[f"help:{flag}"] = flags.get(flag)
    if out["allowedEmulationVersionRange"] is None:
        raise SystemExit(f"{binary} --help names no kube emulation range")
    return out


def accepted_range(component: str, release: str, bindir: Path, ranges: dict, work: Path) -> dict:
    """The emulation range the binary accepts, which its --help does not always print: 1.32 prints
    ``kube=1.32..1.32.13`` and accepts 1.31. Each minor below the printed floor is started until the
    binary refuses one; ``allowedEmulationVersionRange`` becomes the range it accepted and
    ``printedEmulationVersionRange`` keeps what --help said."""
    low, high = parse_range(ranges.get("printedEmulationVersionRange") or ranges["allowedEmulationVersionRange"])
    accepted = low
    while True:
        major, minor = version_key(accepted)
        below = f"{major}.{minor - 1}"
        outcome = run_cases(component, release, bindir, {f"probe-{below}": [f"--emulated-version={below}"]}, work, wait=60)
        if outcome[f"probe-{below}"]["verdict"] != "ready":
            break
        accepted = below
    out = dict(ranges, printedEmulationVersionRange=f"{low}..{high}", allowedEmulationVersionRange=f"{accepted}..{high}")
    print(f"{release} {component}: --help prints {low}..{high}, accepts {accepted}..{high}", file=sys.stderr)
    return out


def version_pairs(ranges: dict) -> list[tuple[str, list[str]]]:
    """Every (emulated, min compatibility) choice the binary allows: both flags from 1.35, only
    --emulated-version before (the min compatibility version is its default there)."""
    low, high = parse_range(ranges["allowedEmulationVersionRange"])
    pairs = []
    for emu in minors(low, high):
        if ranges["allowedMinCompatibilityVersionRange"]:
            mc_floor, _ = parse_range(ranges["allowedMinCompatibilityVersionRange"])
            for mc in minors(mc_floor, emu):
                pairs.append((f"{emu}-{mc}", [f"--emulated-version={emu}", f"--min-compatibility-version={mc}"]))
        else:
            pairs.append((emu, [f"--emulated-version={emu}"]))
    return pairs


def record_live(release: str, bindir: Path, ranges: dict, outdir: Path, work: Path) -> tuple[int, dict]:
    """Every allowed version choice, every API on at each emulated version, and everything on:
    /version, /metrics gates and discovery of each start. A start the binary refuses is returned as
    a refusal (the 1.31 binary lists an emulation range it then refuses below its own version)."""
    etcd = Etcd(bindir / "etcd", work)
    count = 0
    refused = {}
    try:
        low, high = parse_range(ranges["allowedEmulationVersionRange"])
        runs = list(version_pairs(ranges))
        for emu in minors(low, high):
            # every API the binary can serve at this emulated version
            runs.append((f"{emu}-all-apis", [f"--emulated-version={emu}", "--runtime-config=api/all=true"]))
        # everything the binary has: every API and every alpha and beta gate on (resources behind gates)
        runs.append((f"{high}-everything", ["--runtime-config=api/all=true", "--feature-gates=AllAlpha=true,AllBeta=true"]))
        for name, extra in runs:
            port = free_port()
            args = apiserver_args(bindir / "kube-apiserver", work, etcd.url, port, f"/registry-{name}", extra)

            def collect(port: int) -> dict:
                return {"version": get_json(port, "/version"), "gates": metrics_gates(port), "discovery": discovery(port)}

            outcome = watch(args, port, work / f"apiserver-{name}.log", 180, on_ready=collect)
            if outcome.verdict == "ready":
                write(outdir / "live" / f"{name}.json", {"binary": release, "flags": extra, **outcome.data})
                count += 1
            else:
                refused[f"live-{name}"] = outcome.as_dict(extra)
            print(f"{release} {name}: {outcome.verdict} {len(outcome.data.get('gates', {}))} gates, "
                  f"{len(outcome.data.get('discovery', {}))} group-versions {outcome.lines[:1]} {outcome.seconds:.1f} s", file=sys.stderr)
    finally:
        etcd.stop()
    return count, refused


#: Inputs the binary refuses at start-up (each a list of extra flags), by name. {low} is the
#: lowest allowed emulated version, {below} one minor below it, {above} one above the binary.
REFUSALS = {
    "emulated-below-range": ["--emulated-version={below}"],
    "emulated-above-binary": ["--emulated-version={above}"],
    "unknown-gate": ["--feature-gates=NoSuchGateAnywhere=true"],
    "not-a-bool": ["--feature-gates=AllAlpha=maybe"],
}
#: the same, for binaries with --min-compatibility-version (1.35+)
MIN_COMPAT_REFUSALS = {
    "min-compat-above-emulated": ["--emulated-version={low}", "--min-compatibility-version={binary}"],
    "min-compat-below-floor": ["--min-compatibility-version={below}"],
}


def spec_at(g: dict, emu: str) -> dict | None:
    chosen = None
    for s in g["versionedSpecs"]:
        if version_key(s["version"]) <= version_key(emu) and not s.get("minCompatibilityVersion"):
            chosen = s
    return chosen


def refusal_cases(ranges: dict, gates: list[dict]) -> dict[str, list[str]]:
    binary = ".".join(ranges["binaryVersion"].lstrip("v").split(".")[:2])
    low, _ = parse_range(ranges["allowedEmulationVersionRange"])
    lo = version_key(low)
    hi = version_key(binary)
    fmt = {"low": low, "below": f"{lo[0]}.{lo[1] - 1}", "above": f"{hi[0]}.{hi[1] + 1}", "binary": binary}
    table = dict(REFUSALS, **(MIN_COMPAT_REFUSALS if ranges["allowedMinCompatibilityVersionRange"] else {}))
    cases = {name: [a.format(**fmt) for a in args] for name, args in table.items()}
    # a gate that is PreAlpha at the lowest emulated version (introduced later): the first one found
    for g in gates:
        first = g["versionedSpecs"][0]
        if version_key(first["version"]) > lo and first["preRelease"] in ("Alpha", "Beta"):
            cases["gate-not-yet-introduced"] = [f"--emulated-version={low}", f"--feature-gates={g['name']}={'false' if first['default'] else 'true'}"]
            break
    # a gate locked to its default at the binary's own version: set to the opposite
    for g in gates:
        s = spec_at(g, binary)
        if s and s["lockToDefault"]:
            cases["locked-gate"] = [f"--feature-gates={g['name']}={'false' if s['default'] else 'true'}"]
            break
    # a dependency: enable a gate whose dependency is off by default (first such edge), alone
    by_name = {g["name"]: g for g in gates}
    for g in gates:
        s = spec_at(g, binary)
        if not s or s["lockToDefault"] or s["default"]:
            continue
        for dep in g.get("dependencies") or []:
            d = spec_at(by_name.get(dep, {"versionedSpecs": []}), binary)
            if d and not d["default"] and not d["lockToDefault"]:
                cases["dependency-off"] = [f"--feature-gates={g['name']}=true,{dep}=false"]
                break
        if "dependency-off" in cases:
            break
    return cases


def api_refusal_cases(ranges: dict, apis: dict) -> dict[str, list[str]]:
    """kube-apiserver only: a runtime-config of a group-version all of whose kinds were introduced
    after the lowest emulated version, and an unknown group."""
    low, _ = parse_range(ranges["allowedEmulationVersionRange"])
    cases = {}
    by_gv: dict[str, list[dict]] = {}
    for k in apis["kinds"]:
        if k["kind"].endswith("List"):
            continue
        by_gv.setdefault(f"{k['group']}/{k['version']}" if k["group"] else k["version"], []).append(k)
    listed = {name for srv in apis["groupVersionEnabled"].values() for name in srv}
    for gv, kinds in sorted(by_gv.items()):
        if gv.endswith("alpha1") or "/" not in gv:
            continue
        intro = [k.get("introduced") for k in kinds]
        if all(i and version_key(i) > version_key(low) for i in intro) and gv in listed:
            cases["runtime-config-introduced-later"] = [f"--emulated-version={low}", f"--runtime-config={gv}=true"]
            break
    cases["runtime-config-unknown"] = ["--runtime-config=no.such.group/v1=true"]
    return cases


def run_cases(component: str, release: str, bindir: Path, cases: dict[str, list[str]], work: Path, wait: float = 60) -> dict:
    """Start ``component`` with each case's flags (the scheduler and controller-manager against a
    kube-apiserver of the same release) and keep how each start ended."""
    results = {}
    etcd = Etcd(bindir / "etcd", work)
    apiserver = None
    try:
        if component != "kube-apiserver":
            apiserver = ApiServerProcess(bindir, work, etcd.url, "cases")
        for name, extra in cases.items():
            port = free_port()
            if component == "kube-apiserver":
                args = apiserver_args(bindir / component, work, etcd.url, port, f"/case-{name}", extra)
                outcome = watch(args, port, work / f"{component}-{name}.log", wait)
            else:
                args = component_args(component, bindir / component, work, apiserver.port, port, extra)
                outcome = watch(args, port, work / f"{component}-{name}.log", wait, ready_path="/healthz", token=False)
            results[name] = outcome.as_dict(extra)
            print(f"{release} {component} case {name}: {outcome.verdict} {outcome.exit_status} {outcome.lines[:1]}", file=sys.stderr)
    finally:
        if apiserver:
            apiserver.stop()
        etcd.stop()
    return results


class ApiServerProcess:
    """A kube-apiserver kept running (ready) while other components talk to it."""

    def __init__(self, bindir: Path, work: Path, etcd_url: str, name: str, extra: list[str] | None = None):
        self.port = free_port()
        args = apiserver_args(bindir / "kube-apiserver", work, etcd_url, self.port, f"/apiserver-{name}", extra or [])
        self.log = open(work / f"apiserver-{name}-{self.port}.log", "w")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"kube-apiserver {extra} exited with {self.proc.returncode}")
            try:
                if get(self.port, "/readyz", timeout=3) == b"ok":
                    return
            except OSError:
                pass
            time.sleep(0.5)
        raise RuntimeError(f"kube-apiserver {extra} did not become ready")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


def record_component_live(component: str, release: str, bindir: Path, ranges: dict, outdir: Path, work: Path) -> int:
    """kube-scheduler or kube-controller-manager at every emulated version it allows (and with every
    alpha and beta gate on), each against a kube-apiserver emulating the same version: /metrics gates."""
    low, high = parse_range(ranges["allowedEmulationVersionRange"])
    runs = [(emu, [f"--emulated-version={emu}"]) for emu in minors(low, high)]
    runs.append((f"{high}-everything", ["--feature-gates=AllAlpha=true,AllBeta=true"]))
    etcd = Etcd(bindir / "etcd", work)
    count = 0
    try:
        for name, extra in runs:
            emu = name.split("-")[0]
            apiserver = ApiServerProcess(bindir, work, etcd.url, f"{component}-{name}", [f"--emulated-version={emu}"])
            try:
                port = free_port()
                args = component_args(component, bindir / component, work, apiserver.port, port, extra)

                def collect(port: int) -> dict:
                    return {"gates": metrics_gates(port, token=False)}

                outcome = watch(args, port, work / f"{component}-{name}.log", 120, ready_path="/healthz", token=False, on_ready=collect)
            finally:
                apiserver.stop()
            record = {"binary": release, "component": component, "flags": extra, **outcome.as_dict(extra), **outcome.data}
            record.pop("seconds", None)
            write(outdir / component / "live" / f"{name}.json", record)
            count += 1
            print(f"{release} {component} {name}: {outcome.verdict} {len(outcome.data.get('gates', {}))} gates {outcome.lines[:1]}", file=sys.stderr)
    finally:
        etcd.stop()
    return count


RESOURCE_IF = re.compile(r'^\s*if resource := "([a-z0-9]+)"; apiResourceConfigSource\.ResourceEnabled\((\w+)\.SchemeGroupVersion\.WithResource\(resource\)\)')
GATE_IF = re.compile(r'^\s*if utilfeature\.DefaultFeatureGate\.Enabled\((\w+)\.(\w+)\)\s*\{\s*$')
IMPORT = re.compile(r'^\s*(\w+)\s+"k8s\.io/(api|kubernetes/pkg/apis)/([a-z0-9]+/v[a-z0-9]+)"\s*$')
GROUP_NAME = re.compile(r'^const GroupName = "([^"]*)"', re.M)
SUBRESOURCE = re.compile(r'^\s*storage\[resource\s*\+\s*"/([a-z]+)"\]\s*=')


def module_dir(release: str, module: str) -> Path:
    out = subprocess.run(["go", "list", f"-modfile=modfiles/{release}.mod", "-m", "-json", module], cwd=HERE,
                         capture_output=True, text=True, check=True, env=go_env(release)).stdout
    info = json.loads(out)
    return Path((info.get("Replace") or info)["Dir"])


def gated_resources(release: str, gate_names: set[str]) -> list[dict]:
    """REST storage that kube-apiserver installs only while a feature gate is on: in each
    pkg/registry/<group>/rest/*.go, an ``if resource := "x"; ...ResourceEnabled(<gv>...)`` block
    whose first statement is ``if utilfeature.DefaultFeatureGate.Enabled(features.G) {``. Read from
    the module's source (the running binary does not expose it); the live recordings check it."""
    kube = module_dir(release, "k8s.io/kubernetes")
    api = module_dir(release, "k8s.io/api")
    found = []
    for path in sorted((kube / "pkg" / "registry").glob("*/rest/*.go")):
        if path.name.endswith("_test.go"):
            continue
        lines = path.read_text().splitlines()
        aliases = {}
        for line in lines:
            m = IMPORT.match(line)
            if m:
                aliases[m.group(1)] = (api if m.group(2) == "api" else kube / "pkg" / "apis", m.group(3))
        block = None  # (resource, group, version) of the `if resource := ...` block we are in
        for i, line in enumerate(lines):
            g = GATE_IF.match(line)
            sub = SUBRESOURCE.match(lines[i + 1]) if g and i + 1 < len(lines) else None
            if g and sub and block is not None:  # a subresource installed only while a gate is on
                if g.group(2) not in gate_names:
                    raise SystemExit(f"{path}:{i + 1}: gate identifier {g.group(2)} is no registered gate name")
                found.append({"group": block[1], "version": block[2], "resource": block[0], "subresource": sub.group(1),
                              "gate": g.group(2), "source": f"{path.relative_to(kube)}:{i + 1}"})
                continue
            m = RESOURCE_IF.match(line)
            if not m or m.group(2) not in aliases:
                continue
            nxt = next((ln for ln in lines[i + 1:] if ln.strip()), "")
            g = GATE_IF.match(nxt)
            root, directory = aliases[m.group(2)]
            register = root / directory / "register.go"
            group = GROUP_NAME.search(register.read_text()) if register.is_file() else None
            if group is None:
                raise SystemExit(f"{path}:{i + 1}: no GroupName in {register}")
            block = (m.group(1), group.group(1), directory.rsplit("/", 1)[1])
            if not g:
                continue
            gate = g.group(2)
            if gate not in gate_names:
                raise SystemExit(f"{path}:{i + 2}: gate identifier {gate} is no registered gate name")
            found.append({"group": group.group(1), "version": directory.rsplit("/", 1)[1], "resource": m.group(1),
                          "gate": gate, "source": f"{path.relative_to(kube)}:{i + 2}"})
    return found


def read_json(args: list[str]):
    return json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)


def record_release(release: str, bindir: Path, outdir: Path, only: set[str], skip_build: bool, meta: dict) -> None:
    """Everything of one release whose binaries are built (or built here): see the module docstring."""
    if not skip_build:
        meta["buildSeconds"] = build(release, bindir)
    notes = modfile_notes(release)
    if notes:
        meta["modulesNotServed"] = notes
    else:
        meta.pop("modulesNotServed", None)
    gates = read_json([str(bindir / "oracle"), "gates"])
    apis = read_json([str(bindir / "oracle"), "apis"])
    ranges = help_ranges(bindir / "kube-apiserver")
    light = read_json([str(bindir / "gates")])
    differ = sorted({g["name"] for g in light} ^ {g["name"] for g in gates} | {g["name"] for g in light if g not in gates})
    meta["gatesProgramAgrees"] = not differ
    meta.pop("gatesProgramDiffers", None)
    if differ:  # the full oracle answers; gates-only recordings of this minor would be wrong
        meta["gatesProgramDiffers"] = differ
        print(f"{release}: oracle/gates differs from kube-apiserver's own gate on {', '.join(differ)}: "
              "recorded from the full oracle; do not record this minor's patches with --gates-only", file=sys.stderr)
    if "gates" in only:
        write(outdir / "gates.json", gates)
        write(outdir / "apis.json", apis)
        write(outdir / "ranges.json", ranges)
        write(outdir / "gated-resources.json", gated_resources(release, {g["name"] for g in gates}))
        for component in COMPONENTS[1:]:
            write(outdir / component / "gates.json", read_json([str(bindir / f"oracle-{component}")]))
            write(outdir / component / "ranges.json", help_ranges(bindir / component))
    work = Path(tempfile.mkdtemp(prefix=f"kcompat-oracle-{release}-"))
    try:
        if "gates" in only:
            for component in COMPONENTS:
                path = outdir / "ranges.json" if component == "kube-apiserver" else outdir / component / "ranges.json"
                write(path, accepted_range(component, release, bindir, json.loads(path.read_text()), work))
        ranges = json.loads((outdir / "ranges.json").read_text())
        low, high = parse_range(ranges["allowedEmulationVersionRange"])
        if "live" in only:
            shutil.rmtree(outdir / "live", ignore_errors=True)
            start = time.monotonic()
            meta["livePairs"], refused_live = record_live(release, bindir, ranges, outdir, work)
            meta["liveSeconds"] = round(time.monotonic() - start, 1)
        else:
            refused_live = {}
        if "refusals" in only:
            cases = refusal_cases(ranges, gates) | api_refusal_cases(ranges, apis)
            results = run_cases("kube-apiserver", release, bindir, cases, work) | refused_live
            write(outdir / "refusals.json", results)
            meta["refusals"] = len(results)
        if "components" in only:
            for component in COMPONENTS[1:]:
                shutil.rmtree(outdir / component / "live", ignore_errors=True)
                c_ranges = json.loads((outdir / component / "ranges.json").read_text())
                c_gates = json.loads((outdir / component / "gates.json").read_text())
                start = time.monotonic()
                meta.setdefault("components", {})[component] = {
                    "live": record_component_live(component, release, bindir, c_ranges, outdir, work),
                }
                results = run_cases(component, release, bindir, refusal_cases(c_ranges, c_gates), work)
                write(outdir / component / "refusals.json", results)
                meta["components"][component].update(refusals=len(results), seconds=round(time.monotonic() - start, 1))
        if "readiness" in only:
            from readiness import record_readiness

            start = time.monotonic()
            result = record_readiness(release, bindir, work, ranges, gates, outdir / "live", apis, low, high, minors(low, high))
            write(outdir / "startup.json", result)
            meta["readiness"] = {"runs": len(result["runs"]), "findings": len(result["findings"]), "cases": len(result["cases"]),
                                 "seconds": round(time.monotonic() - start, 1)}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("releases", nargs="+", help="pinned releases, e.g. v1.37.2 (oracle/modfiles/<release>.mod)")
    parser.add_argument("--bin", default=os.environ.get("KCOMPAT_ORACLE_BIN", "/tmp/kcompat-oracle-bin"),
                        help="where the binaries are built (default: $KCOMPAT_ORACLE_BIN or /tmp/kcompat-oracle-bin)")
    parser.add_argument("--skip-build", action="store_true", help="use binaries already built in --bin")
    parser.add_argument("--build-only", action="store_true", help="build the components, etcd, kubectl and the oracles, record nothing")
    parser.add_argument("--only", default="gates,live,refusals,components,readiness",
                        help="what to record: gates (the oracles' JSON), live, refusals, components (scheduler, controller-manager), readiness")
    parser.add_argument("--gates-only", action="store_true",
                        help="build and run only the small gates program (oracle/gates): gates.json of a patch release")
    args = parser.parse_args(argv)
    only = set(args.only.split(","))
    for release in args.releases:
        modfile(release)
        bindir = Path(args.bin) / release
        outdir = OUT / release
        meta_path = outdir / "meta.json"
        meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
        meta.update(release=release, go=go_version(release), modules=module_versions(release))
        if args.build_only:
            build(release, bindir, dict(PROGRAMS, kubectl="k8s.io/kubernetes/cmd/kubectl"))
            continue
        outdir.mkdir(parents=True, exist_ok=True)
        if args.gates_only:
            if not args.skip_build:
                meta["gatesBuildSeconds"] = build_gates(release, bindir)
            gates = read_json([str(bindir / "gates")])
            write(outdir / "gates.json", gates)
            write(meta_path, meta)
            print(f"{release}: {len(gates)} gates", file=sys.stderr)
            continue
        record_release(release, bindir, outdir, only, args.skip_build, meta)
        meta["recorded"] = time.strftime("%Y-%m-%d", time.gmtime())
        write(meta_path, meta)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
