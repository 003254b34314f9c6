"""What one input file says about a control-plane component, and where it says it.

Every reader returns a :class:`Reading`: the facts it found (binary version, the
``/version`` emulation and min compatibility fields, each component's flags, the gates on
``/metrics``), each with the file and line it came from, so a contradiction between two
files can name both places.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import KcompatError

#: The control-plane binaries that take ``--emulated-version`` (the component registry's
#: ``kube`` component, SPEC §2.4); the kubelet takes ``--feature-gates`` but no emulation flags.
CONTROL_PLANE = ("kube-apiserver", "kube-controller-manager", "kube-scheduler")
KUBELET = "kubelet"
COMPONENTS = CONTROL_PLANE + (KUBELET,)

#: The flags kcompat reads (everything else on a command line is kept out of the answer).
EMULATED = "emulated-version"
MIN_COMPAT = "min-compatibility-version"
FEATURE_GATES = "feature-gates"
RUNTIME_CONFIG = "runtime-config"
FORWARD_COMPAT = "emulation-forward-compatible"
RUNTIME_FORWARD_COMPAT = "runtime-config-emulation-forward-compatible"
FLAGS = (EMULATED, MIN_COMPAT, FEATURE_GATES, RUNTIME_CONFIG, FORWARD_COMPAT, RUNTIME_FORWARD_COMPAT)
#: Boolean flags: pflag takes ``--flag`` alone as true and never reads the next word as their value.
BOOL_FLAGS = frozenset({FORWARD_COMPAT, RUNTIME_FORWARD_COMPAT})
#: Flags only kube-apiserver has (apiserver ``ServerRunOptions`` / ``APIEnablementOptions``).
APISERVER_ONLY = frozenset({RUNTIME_CONFIG, FORWARD_COMPAT, RUNTIME_FORWARD_COMPAT})

#: Inputs larger than this are refused (a kube-apiserver's whole /metrics is a few MB).
MAX_INPUT_BYTES = 32 * 1024 * 1024
#: YAML and JSON inputs are small (a static pod manifest is a few kB).
MAX_DOCUMENT_BYTES = 1024 * 1024


class InspectError(KcompatError):
    """Input kcompat cannot use: every message names the file (and line where there is one)."""

    def __init__(self, problems: list[str] | tuple[str, ...] | str):
        self.problems = (problems,) if isinstance(problems, str) else tuple(problems)
        super().__init__("; ".join(self.problems))


@dataclass(frozen=True)
class Where:
    """A place in an input: the file name and, where known, the 1-based line."""

    file: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.file} line {self.line}" if self.line else self.file


@dataclass(frozen=True)
class Fact:
    """One value read from an input, with where it was read and how it was written there."""

    value: str
    where: Where
    text: str

    def describe(self) -> str:
        return f"{self.where}: {self.text}"


@dataclass(frozen=True)
class FlagSet:
    """The flags one input gives one component (only the ones in :data:`FLAGS`), in order.

    ``complete`` is False for a partial description (a patch that only adds flags)."""

    component: str
    flags: tuple[tuple[str, Fact], ...]
    where: Where
    complete: bool = True

    def values(self, name: str) -> list[str]:
        return [fact.value for flag, fact in self.flags if flag == name]

    def facts(self, name: str) -> list[Fact]:
        return [fact for flag, fact in self.flags if flag == name]


@dataclass(frozen=True)
class ObservedGate:
    """A ``kubernetes_feature_enabled{name,stage}`` sample from ``/metrics``."""

    name: str
    stage: str
    enabled: bool
    where: Where


@dataclass(frozen=True)
class Reading:
    """Everything one input says. ``kind`` names the format it was read as."""

    source: str
    kind: str
    binary: tuple[Fact, ...] = ()
    emulated: tuple[Fact, ...] = ()
    min_compat: tuple[Fact, ...] = ()
    flag_sets: tuple[FlagSet, ...] = ()
    observed: tuple[ObservedGate, ...] | None = None
    notes: tuple[str, ...] = field(default=())


def decode_text(data: bytes | str, source: str, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """The input as text, or a clear refusal (too large, binary, not UTF-8)."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    if len(raw) > max_bytes:
        raise InspectError(f"{source}: {len(raw):,} bytes, larger than the limit of {max_bytes:,} bytes")
    if b"\x00" in raw:
        raise InspectError(f"{source}: binary data (NUL bytes), not a text file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InspectError(f"{source}: not UTF-8 text (byte {exc.start})") from None
    return text.removeprefix("\ufeff")


def line_of(text: str, needle: str, start: int = 1) -> int | None:
    """The first line (1-based, from line ``start``) containing ``needle``, if any."""
    for number, line in enumerate(text.splitlines()[start - 1:], start):
        if needle in line:
            return number
    return None
