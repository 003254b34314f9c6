#!/usr/bin/env python3
"""Record what real Kubernetes releases answer, into data/oracle/.

For each pinned release (a modfile in oracle/modfiles/) this:

1. builds ``kube-apiserver`` (k8s.io/kubernetes/cmd/kube-apiserver, with the release's version
   stamped in as its own build does), ``etcd`` (etcd's server at the version the release requires)
   and ``oracle`` (this folder's main.go) into a build folder;
2. records ``oracle gates``, ``oracle apis`` and ``oracle ranges`` (the release's own registered
   feature gate, API scheme and resource config);
3. starts etcd and, for every (emulated, min compatibility) pair the binary allows, a kube-apiserver
   on 127.0.0.1, and records ``/version``, the ``kubernetes_feature_enabled`` lines of ``/metrics``
   and discovery (``/api``, ``/apis`` and every group-version's resource list);
4. starts the binary with a set of inputs it refuses and records its exit status and error line.

Only the standard library is used. Usage::

    python3 oracle/record.py v1.37.2 [v1.36.5 ...] [--bin DIR] [--skip-build] [--only gates,live,refusals]

Everything it writes is JSON under data/oracle/<release>/ (compact, sorted keys).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = ROOT / "data" / "oracle"

METRIC = re.compile(r'^kubernetes_feature_enabled\{name="([^"]+)",stage="([^"]*)"\} ([01])$')


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


def build_gates(release: str, bindir: Path) -> float:
    bindir.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    subprocess.run(["go", "build", f"-modfile=modfiles/{release}.mod", "-ldflags", ldflags(release), "-o", str(bindir / "gates"), "./gates"],
                   cwd=HERE, check=True, env=go_env(release))
    return round(time.monotonic() - start, 1)


def build(release: str, bindir: Path) -> dict[str, float]:
    bindir.mkdir(parents=True, exist_ok=True)
    flags = ldflags(release)
    times = {}
    for name, target in (("kube-apiserver", "k8s.io/kubernetes/cmd/kube-apiserver"), ("oracle", "."), ("etcd", "./etcd"),
                         ("kubectl", "k8s.io/kubernetes/cmd/kubectl"), ("gates", "./gates")):
        start = time.monotonic()
        subprocess.run(["go", "build", f"-modfile=modfiles/{release}.mod", "-ldflags", flags, "-o", str(bindir / name), target],
                       cwd=HERE, check=True, env=go_env(release))
        times[name] = round(time.monotonic() - start, 1)
        print(f"built {name} {release} in {times[name]} s", file=sys.stderr)
    return times


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


KLOG_HEADER = re.compile(r"^([EWIF])\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ ")


def log_line(line: str) -> str:
    """A klog line without its date, time and thread id, so two recordings of the same answer are equal."""
    return KLOG_HEADER.sub(r"\1 ", line)


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


class Etcd:
    def __init__(self, binary: Path, work: Path):
        self.client = free_port()
        peer = free_port()
        self.log = open(work / "etcd.log", "w")
        self.proc = subprocess.Popen(
            [str(binary), "--data-dir", str(work / "etcd"), "--listen-client-urls", f"http://127.0.0.1:{self.client}",
             "--advertise-client-urls", f"http://127.0.0.1:{self.client}", "--listen-peer-urls", f"http://127.0.0.1:{peer}",
             "--initial-advertise-peer-urls", f"http://127.0.0.1:{peer}", "--initial-cluster", f"default=http://127.0.0.1:{peer}",
             "--quota-backend-bytes", str(2 * 1024**3)],
            stdout=self.log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.client}/health", timeout=2) as r:
                    if b"true" in r.read():
                        return
            except OSError:
                pass
            time.sleep(0.3)
        raise RuntimeError("etcd did not become healthy")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.client}"

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)
        self.log.close()


def service_account_keys(work: Path) -> tuple[Path, Path]:
    key = work / "sa.key"
    pub = work / "sa.pub"
    if not key.exists():
        subprocess.run(["openssl", "genrsa", "-out", str(key), "2048"], check=True, capture_output=True)
        subprocess.run(["openssl", "rsa", "-in", str(key), "-pubout", "-out", str(pub)], check=True, capture_output=True)
    return key, pub


TOKEN = "kcompat-oracle-token"


def apiserver_args(binary: Path, work: Path, etcd_url: str, port: int, prefix: str, extra: list[str]) -> list[str]:
    key, pub = service_account_keys(work)
    tokens = work / "tokens.csv"
    tokens.write_text(f'{TOKEN},kcompat-oracle,kcompat-oracle,"system:masters"\n')
    certs = work / "certs"
    certs.mkdir(exist_ok=True)
    return [
        str(binary),
        f"--etcd-servers={etcd_url}", f"--etcd-prefix={prefix}",
        "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", "--endpoint-reconciler-type=none",
        f"--secure-port={port}", f"--cert-dir={certs}",
        "--service-cluster-ip-range=10.0.0.0/24",
        f"--service-account-issuer=https://kubernetes.default.svc", f"--service-account-key-file={pub}",
        f"--service-account-signing-key-file={key}",
        "--authorization-mode=AlwaysAllow", "--anonymous-auth=false", f"--token-auth-file={tokens}",
        *extra,
    ]


_CTX = ssl.create_default_context()
_CTX.check_hostname = False
_CTX.verify_mode = ssl.CERT_NONE


def get(port: int, path: str, timeout: float = 10) -> bytes:
    request = urllib.request.Request(f"https://127.0.0.1:{port}{path}", headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, context=_CTX, timeout=timeout) as r:
        return r.read()


def get_json(port: int, path: str):
    return json.loads(get(port, path))


class ApiServer:
    def __init__(self, args: list[str], port: int, log: Path):
        self.port = port
        self.logfile = open(log, "w")
        self.proc = subprocess.Popen(args, stdout=self.logfile, stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"kube-apiserver exited with {self.proc.returncode}")
            try:
                if get(self.port, "/readyz", timeout=3) == b"ok":
                    return
            except OSError:
                pass
            time.sleep(0.5)
        raise RuntimeError("kube-apiserver did not become ready")

    def stop(self) -> None:
        if self.logfile.closed:
            return
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.logfile.close()


def discovery(port: int) -> dict:
    """Every served group-version with its resources (name, kind, namespaced, verbs, storage version hash)."""
    out = {}
    gvs = [("", v) for v in get_json(port, "/api")["versions"]]
    for group in get_json(port, "/apis")["groups"]:
        gvs += [(group["name"], v["version"]) for v in group["versions"]]
    for group, version in gvs:
        path = f"/api/{version}" if not group else f"/apis/{group}/{version}"
        doc = get_json(port, path)
        resources = []
        for r in doc.get("resources", []):
            item = {"name": r["name"], "kind": r["kind"], "namespaced": r["namespaced"], "verbs": sorted(r.get("verbs") or [])}
            if r.get("storageVersionHash"):
                item["storageVersionHash"] = r["storageVersionHash"]
            resources.append(item)
        out[f"{group}/{version}" if group else version] = sorted(resources, key=lambda x: x["name"])
    return out


def metrics_gates(port: int) -> dict[str, list]:
    gates = {}
    for line in get(port, "/metrics", timeout=30).decode().splitlines():
        m = METRIC.match(line)
        if m:
            gates[m.group(1)] = [m.group(2), int(m.group(3))]
    return gates


def record_live(release: str, bindir: Path, ranges: dict, outdir: Path, work: Path) -> int:
    etcd = Etcd(bindir / "etcd", work)
    count = 0
    try:
        low, high = parse_range(ranges["allowedEmulationVersionRange"])
        mc_floor, _ = parse_range(ranges["allowedMinCompatibilityVersionRange"])
        runs = []
        for emu in minors(low, high):
            for mc in minors(mc_floor, emu):
                runs.append((f"{emu}-{mc}", [f"--emulated-version={emu}", f"--min-compatibility-version={mc}"]))
            # every API the binary can serve at this emulated version
            runs.append((f"{emu}-all-apis", [f"--emulated-version={emu}", "--runtime-config=api/all=true"]))
        # everything the binary has: every API and every alpha and beta gate on (resources behind gates)
        runs.append((f"{high}-everything", ["--runtime-config=api/all=true", "--feature-gates=AllAlpha=true,AllBeta=true"]))
        for name, extra in runs:
            port = free_port()
            log = work / f"apiserver-{name}.log"
            start = time.monotonic()
            server = ApiServer(apiserver_args(bindir / "kube-apiserver", work, etcd.url, port, f"/registry-{name}", extra), port, log)
            record = {"binary": release, "flags": extra}
            try:
                server.wait_ready()
                record.update(version=get_json(port, "/version"), gates=metrics_gates(port), discovery=discovery(port))
            except RuntimeError:
                server.stop()
                lines = [ln for ln in log.read_text().splitlines() if ln.strip()]
                record.update(exitStatus=server.proc.returncode,
                              errorLines=[log_line(ln) for ln in ([ln for ln in lines if ln.startswith(("Error:", "E"))][:5] or lines[-3:])])
            finally:
                server.stop()
            write(outdir / "live" / f"{name}.json", record)
            count += 1
            print(f"{release} {name}: {len(record.get('gates', {}))} gates, {len(record.get('discovery', {}))} group-versions, "
                  f"{record.get('errorLines', [''])[0][:120]} {time.monotonic() - start:.1f} s", file=sys.stderr)
    finally:
        etcd.stop()
    return count


#: Inputs the binary refuses at start-up (each a list of extra flags), by name. {low} is the
#: lowest allowed emulated version, {below} one minor below it, {above} one above the binary.
REFUSALS = {
    "emulated-below-range": ["--emulated-version={below}"],
    "emulated-above-binary": ["--emulated-version={above}"],
    "min-compat-above-emulated": ["--emulated-version={low}", "--min-compatibility-version={binary}"],
    "min-compat-below-floor": ["--min-compatibility-version={below}"],
    "unknown-gate": ["--feature-gates=NoSuchGateAnywhere=true"],
    "not-a-bool": ["--feature-gates=AllAlpha=maybe"],
}


def refusal_cases(ranges: dict, gates: list[dict]) -> dict[str, list[str]]:
    binary = ".".join(ranges["binaryVersion"].split(".")[:2])
    low, _ = parse_range(ranges["allowedEmulationVersionRange"])
    lo = version_key(low)
    hi = version_key(binary)
    fmt = {"low": low, "below": f"{lo[0]}.{lo[1] - 1}", "above": f"{hi[0]}.{hi[1] + 1}", "binary": binary}
    cases = {name: [a.format(**fmt) for a in args] for name, args in REFUSALS.items()}

    def spec_at(g: dict, emu: str) -> dict | None:
        chosen = None
        for s in g["versionedSpecs"]:
            if version_key(s["version"]) <= version_key(emu) and not s.get("minCompatibilityVersion"):
                chosen = s
        return chosen

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


def record_refusals(release: str, bindir: Path, ranges: dict, gates: list[dict], apis: dict, outdir: Path, work: Path) -> int:
    cases = refusal_cases(ranges, gates)
    low, _ = parse_range(ranges["allowedEmulationVersionRange"])
    # a runtime-config of a group-version all of whose kinds were introduced after the lowest emulated version
    by_gv: dict[str, list[dict]] = {}
    for k in apis["kinds"]:
        if k["kind"].endswith("List"):
            continue
        by_gv.setdefault(f"{k['group']}/{k['version']}" if k["group"] else k["version"], []).append(k)
    for gv, kinds in sorted(by_gv.items()):
        if gv.endswith("alpha1") or "/" not in gv:
            continue
        intro = [k.get("introduced") for k in kinds]
        listed = {name for srv in apis["groupVersionEnabled"].values() for name in srv}
        if all(i and version_key(i) > version_key(low) for i in intro) and gv in listed:
            cases["runtime-config-introduced-later"] = [f"--emulated-version={low}", f"--runtime-config={gv}=true"]
            break
    cases["runtime-config-unknown"] = ["--runtime-config=no.such.group/v1=true"]
    results = {}
    etcd = Etcd(bindir / "etcd", work)
    try:
        for name, extra in cases.items():
            port = free_port()
            args = apiserver_args(bindir / "kube-apiserver", work, etcd.url, port, f"/refusal-{name}", extra)
            try:
                proc = subprocess.run(args, capture_output=True, text=True, timeout=120)
                status, output = proc.returncode, proc.stderr + proc.stdout
            except subprocess.TimeoutExpired as exc:
                status, output = None, (exc.stderr or b"").decode() if isinstance(exc.stderr, bytes) else (exc.stderr or "")
            lines = [ln for ln in output.splitlines() if ln.strip()]
            errors = [ln for ln in lines if ln.startswith("Error:") or ln.startswith("E") and "] " in ln][:5]
            results[name] = {"flags": extra, "exitStatus": status, "errorLines": [log_line(ln) for ln in errors or lines[-3:]]}
            print(f"{release} refusal {name}: exit {status}: {results[name]['errorLines'][:1]}", file=sys.stderr)
    finally:
        etcd.stop()
    write(outdir / "refusals.json", results)
    return len(results)


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


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("releases", nargs="+", help="pinned releases, e.g. v1.37.2 (oracle/modfiles/<release>.mod)")
    parser.add_argument("--bin", default=os.environ.get("KCOMPAT_ORACLE_BIN", "/tmp/kcompat-oracle-bin"),
                        help="where the binaries are built (default: $KCOMPAT_ORACLE_BIN or /tmp/kcompat-oracle-bin)")
    parser.add_argument("--skip-build", action="store_true", help="use binaries already built in --bin")
    parser.add_argument("--build-only", action="store_true", help="build kube-apiserver, etcd, kubectl and the oracles, record nothing")
    parser.add_argument("--only", default="gates,live,refusals", help="what to record: gates (oracle JSON), live, refusals")
    parser.add_argument("--gates-only", action="store_true",
                        help="build and run only the small gates program (oracle/gates): gates.json of a patch release")
    args = parser.parse_args(argv)
    only = set(args.only.split(","))
    for release in args.releases:
        modfile(release)
        bindir = Path(args.bin) / release
        outdir = OUT / release
        outdir.mkdir(parents=True, exist_ok=True)
        meta_path = outdir / "meta.json"
        meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
        meta.update(release=release, go=go_version(release), modules=module_versions(release))
        if args.gates_only:
            if not args.skip_build:
                meta["gatesBuildSeconds"] = build_gates(release, bindir)
            gates = json.loads(subprocess.run([str(bindir / "gates")], capture_output=True, text=True, check=True).stdout)
            write(outdir / "gates.json", gates)
            write(meta_path, meta)
            print(f"{release}: {len(gates)} gates", file=sys.stderr)
            continue
        if args.build_only:
            build(release, bindir)
            continue
        if not args.skip_build:
            meta["buildSeconds"] = build(release, bindir)
        oracle = bindir / "oracle"
        answers = {}
        for what in ("gates", "apis", "ranges"):
            answers[what] = json.loads(subprocess.run([str(oracle), what], capture_output=True, text=True, check=True).stdout)
        if (bindir / "gates").exists():
            light = json.loads(subprocess.run([str(bindir / "gates")], capture_output=True, text=True, check=True).stdout)
            differ = sorted({g["name"] for g in light} ^ {g["name"] for g in answers["gates"]}
                            | {g["name"] for g in light if g not in answers["gates"]})
            meta["gatesProgramAgrees"] = not differ
            if differ:  # the full oracle answers; gates-only recordings of this minor would be wrong
                meta["gatesProgramDiffers"] = differ
                print(f"{release}: oracle/gates differs from kube-apiserver's own gate on {', '.join(differ)}: "
                      "recorded from the full oracle; do not record this minor's patches with --gates-only", file=sys.stderr)
        if "gates" in only:
            for what, value in answers.items():
                write(outdir / f"{what}.json", value)
            write(outdir / "gated-resources.json", gated_resources(release, {g["name"] for g in answers["gates"]}))
        work = Path(tempfile.mkdtemp(prefix=f"kcompat-oracle-{release}-"))
        try:
            if "live" in only:
                shutil.rmtree(outdir / "live", ignore_errors=True)
                start = time.monotonic()
                meta["livePairs"] = record_live(release, bindir, answers["ranges"], outdir, work)
                meta["liveSeconds"] = round(time.monotonic() - start, 1)
            if "refusals" in only:
                meta["refusals"] = record_refusals(release, bindir, answers["ranges"], answers["gates"], answers["apis"], outdir, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        write(meta_path, meta)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
