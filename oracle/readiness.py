"""Will it start, and will it become ready? What record.py asks a real kube-apiserver about its
start-up beyond the version and gate rules (standard library only).

Three kinds of runs, each judged by :func:`servers.watch` (ready, refused, exited, not-ready):

1. **Option cases** (:data:`OPTION_CASES`): flag sets that other options' checks read
   (``--runtime-config`` with ``--enable-priority-and-fairness``, feature-feature requirements
   checked outside the dependency map). Each applies where the gates and group-versions it names
   exist in the release.
2. **Gates that keep it from getting ready**: at every emulated version the binary allows,
   ``AllAlpha=true`` and ``AllBeta=true`` with the default runtime-config (where one is refused,
   the gates it would turn on that can be set there, each with the gates it depends on). A start that does not
   get ready is narrowed down by halving the set of gates the meta-gate turned on (each gate with
   the gates it depends on) to a smallest failing set; that set is started alone with the full
   time limit (how it ends: the hook line, the failing ``/readyz`` checks), then with every API on
   (``api/all=true``): when that gets ready, the group-versions it needs are narrowed down the same
   way among those ``api/all=true`` adds at that emulated version.
3. **APIs it needs**: at the binary's own version, each group-version served by default turned off
   alone (``--runtime-config=<gv>=false``); where that is refused, each of its resources alone.

The findings name the evidence runs by id; the Go code is read afterwards to confirm each reason.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from servers import Etcd, apiserver_args, free_port, watch

#: how long a start may take before it counts as not ready while narrowing down (a default start
#: is ready in 3-6 s here), and for the confirming run of a finding (hooks give up after 30-60 s)
PROBE_WAIT = 20.0
CONFIRM_WAIT = 100.0
PARALLEL = 3
MAX_CULPRITS = 4

#: option cases: name -> (flags, gates that must be registered, group-versions that must be known)
OPTION_CASES: dict[str, tuple[list[str], list[str], list[str]]] = {
    "api-all-false": (["--runtime-config=api/all=false"], [], []),
    "api-all-false-v1": (["--runtime-config=api/all=false,api/v1=true"], [], []),
    "api-all-false-v1-no-apf": (["--runtime-config=api/all=false,api/v1=true", "--enable-priority-and-fairness=false"], [], []),
    "api-all-false-minimal": (["--runtime-config=api/all=false,api/v1=true,apiregistration.k8s.io/v1=true",
                               "--enable-priority-and-fairness=false"], [], ["apiregistration.k8s.io/v1"]),
    "api-ga-false": (["--runtime-config=api/ga=false"], [], []),
    "api-ga-false-no-apf": (["--runtime-config=api/ga=false", "--enable-priority-and-fairness=false"], [], []),
    "flowcontrol-v1-false": (["--runtime-config=flowcontrol.apiserver.k8s.io/v1=false"], [], ["flowcontrol.apiserver.k8s.io/v1"]),
    "flowcontrol-v1-false-no-apf": (["--runtime-config=flowcontrol.apiserver.k8s.io/v1=false", "--enable-priority-and-fairness=false"],
                                    [], ["flowcontrol.apiserver.k8s.io/v1"]),
    "apiregistration-v1-false": (["--runtime-config=apiregistration.k8s.io/v1=false"], [], ["apiregistration.k8s.io/v1"]),
    "no-apf": (["--enable-priority-and-fairness=false"], [], []),
    "authorize-node-with-selectors-alone": (["--feature-gates=AuthorizeNodeWithSelectors=true,AuthorizeWithSelectors=false"],
                                            ["AuthorizeNodeWithSelectors", "AuthorizeWithSelectors"], []),
    "authorize-node-with-selectors-alone-lowest": (["--emulated-version={low}", "--feature-gates=AuthorizeNodeWithSelectors=true,AuthorizeWithSelectors=false"],
                                                   ["AuthorizeNodeWithSelectors", "AuthorizeWithSelectors"], []),
    "uvip-without-storage-version-api": (["--feature-gates=UnknownVersionInteroperabilityProxy=true,StorageVersionAPI=false"],
                                         ["UnknownVersionInteroperabilityProxy", "StorageVersionAPI"], []),
    "storage-version-api": (["--feature-gates=StorageVersionAPI=true"], ["StorageVersionAPI"], []),
    "storage-version-api-with-api": (["--feature-gates=StorageVersionAPI=true", "--runtime-config=internal.apiserver.k8s.io/v1alpha1=true"],
                                     ["StorageVersionAPI"], ["internal.apiserver.k8s.io/v1alpha1"]),
    "coordinated-leader-election": (["--feature-gates=CoordinatedLeaderElection=true"], ["CoordinatedLeaderElection"], []),
    "coordinated-leader-election-with-api": (["--feature-gates=CoordinatedLeaderElection=true", "--runtime-config=coordination.k8s.io/v1beta1=true"],
                                             ["CoordinatedLeaderElection"], ["coordination.k8s.io/v1beta1"]),
    "coordinated-leader-election-with-alpha-api": (["--feature-gates=CoordinatedLeaderElection=true", "--runtime-config=coordination.k8s.io/v1alpha2=true"],
                                                   ["CoordinatedLeaderElection"], ["coordination.k8s.io/v1alpha2"]),
    "admissionregistration-v1-false": (["--runtime-config=admissionregistration.k8s.io/v1=false"], [], ["admissionregistration.k8s.io/v1"]),
    "flowschemas-false": (["--runtime-config=flowcontrol.apiserver.k8s.io/v1/flowschemas=false"], [], ["flowcontrol.apiserver.k8s.io/v1"]),
    "all-beta-all-apis-lowest": (["--emulated-version={low}", "--feature-gates=AllBeta=true", "--runtime-config=api/all=true"], [], []),
    "all-alpha": (["--feature-gates=AllAlpha=true"], [], []),
    "all-beta": (["--feature-gates=AllBeta=true"], [], []),
    "multi-cidr-lowest": (["--emulated-version={low}", "--feature-gates=MultiCIDRServiceAllocator=true"], ["MultiCIDRServiceAllocator"], []),
    # the other option checks that read the gates (kcompat/core/startup.py): a flag that needs a gate
    # on, a feature-feature pair checked outside the dependency map, a range size the gates decide
    "peer-ca-file-without-uvip": (["--peer-ca-file=/nonexistent/peer-ca.crt", "--feature-gates=UnknownVersionInteroperabilityProxy=false"],
                                  ["UnknownVersionInteroperabilityProxy"], []),
    "peer-advertise-without-uvip": (["--peer-advertise-ip=127.0.0.1", "--peer-advertise-port=6443",
                                     "--feature-gates=UnknownVersionInteroperabilityProxy=false"], ["UnknownVersionInteroperabilityProxy"], []),
    "authentication-config-gate-off-lowest": (["--emulated-version={low}", "--authentication-config=/nonexistent/authn.yaml",
                                               "--feature-gates=StructuredAuthenticationConfiguration=false"],
                                              ["StructuredAuthenticationConfiguration"], []),
    "authorization-config-gate-off-lowest": (["--emulated-version={low}", "--authorization-config=/nonexistent/authz.yaml",
                                              "--feature-gates=StructuredAuthorizationConfiguration=false"],
                                             ["StructuredAuthorizationConfiguration"], []),
    "uid-headers-gate-off-lowest": (["--emulated-version={low}", "--requestheader-uid-headers=X-Remote-Uid",
                                     "--feature-gates=RemoteRequestHeaderUID=false"], ["RemoteRequestHeaderUID"], []),
    "uid-headers-without-standard": (["--requestheader-uid-headers=X-Custom-Uid"], ["RemoteRequestHeaderUID"], []),
    "signing-key-and-endpoint": (["--service-account-signing-endpoint=@kcompat-signer"], ["ExternalServiceAccountTokenSigner"], []),
    "token-node-binding-without-validation-lowest": (["--emulated-version={low}",
                                                      "--feature-gates=ServiceAccountTokenNodeBinding=true,ServiceAccountTokenNodeBindingValidation=false"],
                                                     ["ServiceAccountTokenNodeBinding", "ServiceAccountTokenNodeBindingValidation"], []),
    "dra-control-plane-controller-without-dra": (["--feature-gates=DRAControlPlaneController=true,DynamicResourceAllocation=false"],
                                                 ["DRAControlPlaneController", "DynamicResourceAllocation"], []),
    "cloud-provider-gce": (["--cloud-provider=gce"], ["DisableCloudProviders"], []),
    "service-cluster-ip-range-large-lowest": (["--emulated-version={low}", "--service-cluster-ip-range=10.0.0.0/8"],
                                              ["MultiCIDRServiceAllocator", "DisableAllocatorDualWrite"], []),
}


def option_cases(gate_names: set[str], known_gvs: set[str], low: str) -> dict[str, list[str]]:
    """The option cases that apply to a release (their gates registered, their group-versions known)."""
    cases = {}
    for name, (flags, gates, gvs) in OPTION_CASES.items():
        if all(g in gate_names for g in gates) and all(gv in known_gvs for gv in gvs):
            cases[name] = [f.format(low=low) for f in flags]
    return cases


class Prober:
    """Starts kube-apiservers of one release against one etcd, a few at a time, and keeps every run."""

    def __init__(self, release: str, bindir: Path, work: Path):
        self.release = release
        self.bindir = bindir
        self.work = work
        self.etcd = Etcd(bindir / "etcd", work)
        self.runs: list[dict] = []
        self.lock = threading.Lock()
        self.cache: dict[tuple[str, ...], dict] = {}

    def close(self) -> None:
        self.etcd.stop()

    def run(self, flags: list[str], wait: float = PROBE_WAIT, purpose: str = "") -> dict:
        key = (*flags, str(wait))
        with self.lock:
            if key in self.cache:
                return self.cache[key]
            ident = f"r{len(self.runs) + 1}"
            self.runs.append({"id": ident})  # placeholder keeps ids unique while running
            slot = len(self.runs) - 1
        port = free_port()
        args = apiserver_args(self.bindir / "kube-apiserver", self.work, self.etcd.url, port, f"/ready-{ident}", flags)
        outcome = watch(args, port, self.work / f"ready-{ident}.log", wait)
        record = {"id": ident, "purpose": purpose, "wait": wait, **outcome.as_dict(flags)}
        with self.lock:
            self.runs[slot] = record
            self.cache[key] = record
        print(f"{self.release} readiness {ident} {purpose}: {outcome.verdict} {outcome.seconds:.0f} s {flags} "
              f"{outcome.failing[:3]} {outcome.lines[:1]}", file=sys.stderr)
        return record

    def many(self, flag_sets: Iterable[tuple[list[str], str]], wait: float = PROBE_WAIT) -> list[dict]:
        with ThreadPoolExecutor(PARALLEL) as pool:
            return list(pool.map(lambda fp: self.run(fp[0], wait, fp[1]), flag_sets))


def _version_key(text: str) -> tuple[int, int]:
    major, minor = text.split(".")[:2]
    return int(major), int(minor)


def _spec_at(gate: dict, emu: str) -> dict | None:
    chosen = None
    for s in gate["versionedSpecs"]:
        if _version_key(s["version"]) <= _version_key(emu) and not s.get("minCompatibilityVersion"):
            chosen = s
    return chosen


def meta_candidates(gates: list[dict], emu: str, stage: str) -> list[str]:
    """The gates AllAlpha (stage Alpha) or AllBeta (stage Beta) turns on at ``emu``: that stage,
    off by default, not locked."""
    out = []
    for g in gates:
        s = _spec_at(g, emu)
        if s and s["preRelease"] == stage and not s["default"] and not s["lockToDefault"]:
            out.append(g["name"])
    return sorted(out)


def closure(names: Iterable[str], by_name: dict[str, dict], emu: str) -> list[str]:
    """The gates with every gate they depend on (1.35+), those off by default at ``emu``."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo += by_name.get(name, {}).get("dependencies") or []
    out = []
    for name in sorted(seen):
        s = _spec_at(by_name[name], emu) if name in by_name else None
        if s is None or not s["default"]:
            out.append(name)
    return out


def settable(names: Iterable[str], by_name: dict[str, dict], emu: str) -> list[str]:
    """The gates of ``names`` that can be turned on at ``emu`` with what they depend on: none of
    those is PreAlpha there (``cannot set feature gate X to true, feature is PreAlpha``)."""
    return [n for n in names if all(_spec_at(by_name[d], emu) is not None for d in closure([n], by_name, emu) if d in by_name)]


def gate_flags(names: Iterable[str], by_name: dict[str, dict], emu: str, extra: list[str]) -> list[str]:
    on = closure(names, by_name, emu)
    return [*extra, "--feature-gates=" + ",".join(f"{n}=true" for n in on)] if on else list(extra)


def smallest_failing(prober: Prober, items: list[str], failing: callable, label: str) -> list[str]:
    """Halve ``items`` (known to fail together) while one half fails alone; returns the set reached."""
    current = list(items)
    while len(current) > 1:
        half = len(current) // 2
        first, second = current[:half], current[half:]
        if failing(first, f"{label}: {len(first)} of {len(current)}"):
            current = first
        elif failing(second, f"{label}: other {len(second)} of {len(current)}"):
            current = second
        else:
            break  # only together: keep the set
    return current


def _not_ready(record: dict) -> bool:
    return record["verdict"] in ("not-ready", "exited")


def record_readiness(release: str, bindir: Path, work: Path, ranges: dict, gates: list[dict], live_dir: Path,
                     apis: dict, low: str, high: str, minors: list[str]) -> dict:
    """Option cases, the gates that keep it from getting ready, and the APIs it needs (module docstring)."""
    import json

    by_name = {g["name"]: g for g in gates}
    known_gvs = {gv for server in apis["groupVersionEnabled"].values() for gv in server} | {"v1"}
    prober = Prober(release, bindir, work)
    findings: list[dict] = []
    try:
        cases = option_cases(set(by_name), known_gvs, low)
        case_results = dict(zip(cases, prober.many([(flags, f"case {name}") for name, flags in cases.items()], CONFIRM_WAIT)))

        def served(run_name: str) -> set[str]:
            path = live_dir / f"{run_name}.json"
            if not path.is_file():
                return set()
            return set(json.loads(path.read_text()).get("discovery") or {})

        default_runs = sorted(p.stem for p in live_dir.glob("*.json") if "all-apis" not in p.stem and "everything" not in p.stem)

        def default_served(emu: str) -> set[str]:
            names = [n for n in default_runs if n.split("-")[0] == emu]
            # the default min compatibility: the last pair listed for this emulated version is mc = emu,
            # the first mc = floor; any of them serves the same group-versions without gates
            return served(names[0]) if names else set()

        for emu in minors:
            base = [f"--emulated-version={emu}"]
            metas = prober.many([([*base, f"--feature-gates={m}=true"], f"{m} at {emu}") for m in ("AllAlpha", "AllBeta")])
            for meta, record in zip(("AllAlpha", "AllBeta"), metas):
                if record["verdict"] == "ready":
                    continue
                stage = "Alpha" if meta == "AllAlpha" else "Beta"
                remaining = meta_candidates(gates, emu, stage)
                if record["verdict"] == "refused":
                    # the meta-gate is refused (a gate it turns on depends on one it leaves off, as
                    # AllAlpha and GenericWorkload from 1.36 on): its gates are started with the gates
                    # they depend on instead; refused too, they stay unsearched (the refresh says so)
                    remaining = settable(remaining, by_name, emu)
                    record = prober.run(gate_flags(remaining, by_name, emu, base), PROBE_WAIT, f"{meta} gates at {emu}")
                    if not _not_ready(record):
                        continue
                excluded: list[str] = []
                # the smallest failing sets found at other emulated versions are tried first, alone
                seeds = [f["gates"] for f in findings if f["kind"] == "gates" and set(f["gates"]) <= set(remaining)]
                for _ in range(MAX_CULPRITS):
                    def failing(subset: list[str], label: str, emu: str = emu) -> bool:
                        return _not_ready(prober.run(gate_flags(subset, by_name, emu, [f"--emulated-version={emu}"]), PROBE_WAIT, label))

                    seed = None
                    while seeds and seed is None:
                        tried = seeds.pop(0)
                        if not set(tried) & set(excluded) and failing(tried, f"{meta} at {emu}: {tried} as found before"):
                            seed = tried
                    if seed is not None:
                        culprit = seed
                    elif not remaining or not failing(remaining, f"{meta} gates at {emu}"):
                        break
                    else:
                        culprit = smallest_failing(prober, remaining, failing, f"{meta} at {emu}")
                    flags = gate_flags(culprit, by_name, emu, base)
                    confirm = prober.run(flags, CONFIRM_WAIT, f"confirm {culprit} at {emu}")
                    if not _not_ready(confirm):
                        break  # a slow start taken for a stuck one while narrowing down: no finding
                    finding = {"kind": "gates", "emulated": emu, "gates": culprit, "flags": flags, "verdict": confirm["verdict"],
                               "evidence": [record["id"], confirm["id"]], "needs": None}
                    with_all = prober.run([*flags, "--runtime-config=api/all=true"], PROBE_WAIT, f"{culprit} with api/all at {emu}")
                    finding["evidence"].append(with_all["id"])
                    if with_all["verdict"] == "ready":
                        extra = sorted(served(f"{emu}-all-apis") - default_served(emu))

                        def api_failing(subset: list[str], label: str, flags: list[str] = flags) -> bool:
                            run = prober.run([*flags, "--runtime-config=" + ",".join(f"{gv}=true" for gv in subset)], PROBE_WAIT, label)
                            return run["verdict"] != "ready"

                        # narrow the group-versions down: a set is enough when the server gets ready with it
                        current = extra
                        while len(current) > 1:
                            half = len(current) // 2
                            if not api_failing(current[:half], f"APIs for {culprit}: {half} of {len(current)}"):
                                current = current[:half]
                            elif not api_failing(current[half:], f"APIs for {culprit}: other {len(current) - half}"):
                                current = current[half:]
                            else:
                                break
                        fix = prober.run([*flags, "--runtime-config=" + ",".join(f"{gv}=true" for gv in current)], CONFIRM_WAIT,
                                         f"confirm APIs {current} for {culprit} at {emu}")
                        finding["evidence"].append(fix["id"])
                        if fix["verdict"] == "ready":
                            finding["needs"] = current
                    findings.append(finding)
                    excluded += culprit
                    remaining = [g for g in remaining if g not in excluded]

        # the APIs a default start needs, at the binary's own version
        emu = high
        default = sorted(default_served(emu))
        sweep = prober.many([([f"--runtime-config={gv}=false" if "/" in gv else f"--runtime-config=api/{gv}=false"], f"{gv} off")
                             for gv in default])
        for gv, record in zip(default, sweep):
            if _not_ready(record):
                confirm = prober.run(record["flags"], CONFIRM_WAIT, f"confirm {gv} off")
                if _not_ready(confirm):  # a slow start taken for a stuck one is no finding
                        findings.append({"kind": "api-off", "emulated": emu, "api": gv, "flags": record["flags"], "verdict": confirm["verdict"],
                                     "evidence": [record["id"], confirm["id"]]})
            elif record["verdict"] == "refused" and "/" in gv:
                live = json.loads((live_dir / f"{[n for n in default_runs if n.split('-')[0] == emu][0]}.json").read_text())
                resources = [r["name"] for r in live["discovery"].get(gv, []) if "/" not in r["name"]]
                flags = [[f"--runtime-config={gv}/{r}=false"] for r in resources]
                results = prober.many([(f, f"{f[0]}") for f in flags])
                for r, res in zip(resources, results):
                    if _not_ready(res):
                        confirm = prober.run(res["flags"], CONFIRM_WAIT, f"confirm {gv}/{r} off")
                        if _not_ready(confirm):
                            findings.append({"kind": "api-off", "emulated": emu, "api": f"{gv}/{r}", "flags": res["flags"],
                                             "verdict": confirm["verdict"], "evidence": [res["id"], confirm["id"]]})
    finally:
        prober.close()
    return {"cases": case_results, "findings": findings, "runs": prober.runs,
            "probeWait": PROBE_WAIT, "confirmWait": CONFIRM_WAIT}
