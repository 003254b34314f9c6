"""``--feature-gates`` (component-base ``featuregate.unsafeSetFromMap``, ``validateDependencies``,
``Set`` and ``featureGate.SetEmulationVersion`` warnings)."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import cut, echo
from ..stages import Stage
from ..versions import Version
from .base import Problem, Verdict, bool_word


@dataclass(frozen=True, slots=True)
class UnknownGate(Problem):
    """``unrecognized feature gate: NAME``."""

    name: str

    @property
    def gate(self) -> str:
        return cut(self.name)

    @property
    def message(self) -> str:
        return f"unrecognized feature gate: {echo(self.name)}"


@dataclass(frozen=True, slots=True)
class LockedGate(Problem):
    """``cannot set feature gate G to V, feature is locked to D``."""

    name: str
    value: bool
    locked_to: bool

    @property
    def gate(self) -> str:
        return self.name

    @property
    def message(self) -> str:
        return f"cannot set feature gate {self.name} to {bool_word(self.value)}, feature is locked to {bool_word(self.locked_to)}"


@dataclass(frozen=True, slots=True)
class PreAlphaGate(Problem):
    """``cannot set feature gate G to V, feature is PreAlpha at emulated version E`` (1.35+: ``,
    min compatibility version M``). ``emulated`` is ``EmulationVersion()`` as the binary prints it."""

    name: str
    value: bool
    emulated: Version
    min_compat: Version | None = None

    @property
    def gate(self) -> str:
        return self.name

    @property
    def message(self) -> str:
        suffix = f", min compatibility version {self.min_compat}" if self.min_compat is not None else ""
        return f"cannot set feature gate {self.name} to {bool_word(self.value)}, feature is PreAlpha at emulated version {self.emulated}{suffix}"


@dataclass(frozen=True, slots=True)
class DependencyDisabled(Problem):
    """``G is enabled, but depends on features that are disabled: [D ...]`` (1.35+)."""

    name: str
    disabled: tuple[str, ...]

    @property
    def gate(self) -> str:
        return self.name

    @property
    def message(self) -> str:
        return f"{self.name} is enabled, but depends on features that are disabled: [{' '.join(self.disabled)}]"


@dataclass(frozen=True, slots=True)
class AlphaGatesWhileEmulating(Problem):
    """1.34+: a binary emulating an older release with Alpha gates on."""

    verdict = Verdict.WARNS
    names: tuple[str, ...]

    @property
    def message(self) -> str:
        return f"component has alpha features enabled in emulated version, this is unsupported: features=[{' '.join(self.names)}]"


@dataclass(frozen=True, slots=True)
class RetiringGateSet(Problem):
    """A GA or Deprecated gate set by the flag ("It will be removed in a future release"); from
    1.36 a structured message."""

    verdict = Verdict.WARNS
    name: str
    value: bool
    stage: Stage
    structured: bool

    @property
    def gate(self) -> str:
        return self.name

    @property
    def message(self) -> str:
        kind = "GA" if self.stage is Stage.GA else "deprecated"
        if self.structured:
            return f"Warning: setting {kind} feature gate. It will be removed in a future release. featureGate={self.name} value={bool_word(self.value)}"
        return f"Setting {kind} feature gate {self.name}={bool_word(self.value)}. It will be removed in a future release."
