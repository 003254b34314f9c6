"""Version skew of other components against this kube-apiserver (SPEC §7.4; KEP-4330 "Skew").

Two answers side by side, as ranges of major.minor versions (inclusive):

* the classic version-skew policy, from the apiserver's binary version
  (kubernetes.io/releases/version-skew-policy): kube-apiserver peers within one minor;
  kube-controller-manager, kube-scheduler and cloud-controller-manager binary-1..binary;
  kubelet and kube-proxy binary-3..binary; kubectl binary-1..binary+1;
* the KEP's rules in terms of the emulated (emu) and min compatibility (mc) versions:
  controller-manager/scheduler/cloud-controller-manager mc..emu; kubelet/kube-proxy
  mc-2..emu; kubectl mc..emu+1. The KEP states no rule for apiserver peers; the range
  given here, mc..emu+1, is derived (this server keeps compatibility down to mc, and a
  peer one emulated minor ahead still has mc <= this emu by default) and marked so.

Nothing here is enforced by Kubernetes; "n minors earlier" saturates at minor 0 (§1.4).
"""

from __future__ import annotations

from dataclasses import dataclass

from .compat import rules_for
from .versions import Version, mm, offset_minor, parse_version, subtract_minor

KUBE_APISERVER = "kube-apiserver (HA peers)"
CONTROLLER_MANAGER = "kube-controller-manager"
SCHEDULER = "kube-scheduler"
CLOUD_CONTROLLER_MANAGER = "cloud-controller-manager"
KUBELET = "kubelet"
KUBE_PROXY = "kube-proxy"
KUBECTL = "kubectl"
COMPONENTS = (KUBE_APISERVER, CONTROLLER_MANAGER, SCHEDULER, CLOUD_CONTROLLER_MANAGER, KUBELET, KUBE_PROXY, KUBECTL)


@dataclass(frozen=True)
class SkewRange:
    """Versions of ``component`` allowed against this apiserver, ``low``..``high`` inclusive."""

    component: str
    low: Version
    high: Version
    rule: str
    #: False when the range is this project's derivation rather than a documented rule
    documented: bool = True

    def allows(self, version: Version | str) -> bool:
        v = mm(parse_version(version) if isinstance(version, str) else version)
        return self.low <= v <= self.high

    def __str__(self) -> str:
        return f"{self.low}..{self.high}"


@dataclass(frozen=True)
class SkewPolicy:
    binary: Version
    emulated: Version
    min_compat: Version
    classic: tuple[SkewRange, ...]
    emulation_aware: tuple[SkewRange, ...]

    def classic_for(self, component: str) -> SkewRange:
        return _find(self.classic, component)

    def emulation_aware_for(self, component: str) -> SkewRange:
        return _find(self.emulation_aware, component)


def _find(ranges: tuple[SkewRange, ...], component: str) -> SkewRange:
    for r in ranges:
        if r.component == component:
            return r
    raise KeyError(component)


def classic_skew(binary: Version) -> tuple[SkewRange, ...]:
    """The version-skew policy computed from the binary version alone."""
    b = mm(binary)
    minus1, minus3, plus1 = subtract_minor(b, 1), subtract_minor(b, 3), offset_minor(b, 1)
    return (
        SkewRange(KUBE_APISERVER, minus1, plus1, "newest and oldest apiserver within one minor: binary-1..binary+1"),
        SkewRange(CONTROLLER_MANAGER, minus1, b, "binary-1..binary"),
        SkewRange(SCHEDULER, minus1, b, "binary-1..binary"),
        SkewRange(CLOUD_CONTROLLER_MANAGER, minus1, b, "binary-1..binary"),
        SkewRange(KUBELET, minus3, b, "binary-3..binary"),
        SkewRange(KUBE_PROXY, minus3, b, "binary-3..binary"),
        SkewRange(KUBECTL, minus1, plus1, "binary-1..binary+1"),
    )


def emulation_aware_skew(emulated: Version, min_compat: Version) -> tuple[SkewRange, ...]:
    """KEP-4330 "Skew": ranges from the emulated and min compatibility versions."""
    emu, mc = mm(emulated), mm(min_compat)
    return (
        SkewRange(KUBE_APISERVER, mc, offset_minor(emu, 1), "mc..emu+1 (derived: the KEP gives no apiserver-peer rule)", documented=False),
        SkewRange(CONTROLLER_MANAGER, mc, emu, "mc..emu"),
        SkewRange(SCHEDULER, mc, emu, "mc..emu"),
        SkewRange(CLOUD_CONTROLLER_MANAGER, mc, emu, "mc..emu"),
        SkewRange(KUBELET, subtract_minor(mc, 2), emu, "mc-2..emu"),
        SkewRange(KUBE_PROXY, subtract_minor(mc, 2), emu, "mc-2..emu"),
        SkewRange(KUBECTL, mc, offset_minor(emu, 1), "mc..emu+1"),
    )


def skew_policy(
    binary: Version | str, emulated: Version | str | None = None, min_compat: Version | str | None = None
) -> SkewPolicy:
    """Both policies for a binary at (emulated, min compat); defaults as the binary derives them."""
    b = parse_version(binary) if isinstance(binary, str) else binary
    rules = rules_for(b)
    emu = mm(parse_version(emulated) if isinstance(emulated, str) else emulated) if emulated is not None else mm(b)
    if min_compat is not None:
        mc = mm(parse_version(min_compat) if isinstance(min_compat, str) else min_compat)
    else:
        mc = rules.default_min_compat(emu if emulated is not None else None)
    return SkewPolicy(b, emu, mc, classic_skew(b), emulation_aware_skew(emu, mc))
