"""What one input file says about a control-plane component, and where it says it.

Every reader returns a :class:`Reading`: the facts it found (binary version, the
``/version`` emulation and min compatibility fields, each component's flags, the gates on
``/metrics``), each with the file and line it came from, so a contradiction between two
files can name both places.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from ..errors import ECHO_LIMIT, KcompatError, cut
from ..startup import BOOL_OPTION_FLAGS, OPTION_FLAG_NAMES
from ..text_input import decode_input

#: The control-plane binaries that take ``--emulated-version`` (the component registry's
#: ``kube`` component, SPEC §2.4); the kubelet takes ``--feature-gates`` but no emulation flags.
CONTROL_PLANE = ("kube-apiserver", "kube-controller-manager", "kube-scheduler")
KUBELET = "kubelet"
COMPONENTS = (*CONTROL_PLANE, KUBELET)

#: The flags kcompat reads (everything else on a command line is kept out of the answer).
EMULATED = "emulated-version"
MIN_COMPAT = "min-compatibility-version"
FEATURE_GATES = "feature-gates"
RUNTIME_CONFIG = "runtime-config"
FORWARD_COMPAT = "emulation-forward-compatible"
RUNTIME_FORWARD_COMPAT = "runtime-config-emulation-forward-compatible"
#: kube-apiserver's flags that its start-up checks read (kcompat.core.startup.OPTION_FLAGS)
OPTION_FLAGS = tuple(sorted(OPTION_FLAG_NAMES))
FLAGS = (EMULATED, MIN_COMPAT, FEATURE_GATES, RUNTIME_CONFIG, FORWARD_COMPAT, RUNTIME_FORWARD_COMPAT, *OPTION_FLAGS)
#: Boolean flags: pflag takes ``--flag`` alone as true and never reads the next word as their value.
BOOL_FLAGS = frozenset({FORWARD_COMPAT, RUNTIME_FORWARD_COMPAT, *BOOL_OPTION_FLAGS})
#: Flags only kube-apiserver has (apiserver ``ServerRunOptions`` / ``APIEnablementOptions``, and
#: the options its start-up checks read).
APISERVER_ONLY = frozenset({RUNTIME_CONFIG, FORWARD_COMPAT, RUNTIME_FORWARD_COMPAT, *OPTION_FLAGS})

#: Inputs larger than this are refused (a kube-apiserver's whole /metrics is a few MB).
MAX_INPUT_BYTES = 32 * 1024 * 1024
#: YAML and JSON inputs are small (a static pod manifest is a few kB).
MAX_DOCUMENT_BYTES = 1024 * 1024
#: The Check a cluster page: largest pasted text and uploaded file (a whole kube-apiserver
#: /metrics is a few MB; the server also refuses uploads above ``server.maxUploadSize`` and
#: websocket messages above ``server.maxWidgetStateSize``, 4 MB), files read in one check, and
#: bytes of all inputs of one check together (a whole /metrics is uploaded as a file; a paste is
#: for the lines that matter). Sized so that 20 sessions at these limits fit the Deployment's
#: memory limit (docs/hosting.md).
MAX_PASTE_CHARS = 1_000_000
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
MAX_UPLOADS = 5
MAX_CHECK_BYTES = 6 * 1024 * 1024
#: YAML inputs (a static pod manifest or a kubeadm config is a few kB; parsing is the costly
#: part, about 1 s per MB).
MAX_YAML_BYTES = 256 * 1024
#: YAML documents in one file (a kubeadm config has a handful: Init, Cluster, Kubelet...).
MAX_DOCUMENTS = 64
#: ``kubernetes_feature_enabled`` samples in one /metrics (a real kube-apiserver has about 700).
MAX_OBSERVED_GATES = 5_000


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
        """Where and how the value was written; a long value is cut (messages never grow with input)."""
        return f"{self.where}: {cut(self.text, ECHO_LIMIT + 40)}"


@dataclass(frozen=True)
class Unread:
    """A flag the inputs name whose value they cannot tell (``--emulated-version=$(EMU)`` with
    EMU from a ConfigMap), or, with ``flag`` None, a part of a command line that may hold flags
    kcompat cannot see (``$EXTRA_FLAGS``, a script file). ``why`` names the variable and its source."""

    flag: str | None
    where: Where
    written: str
    why: str


@dataclass(frozen=True)
class FlagParseError:
    """A word the binary's flag parser (spf13/pflag) refuses at start-up: ``kind`` is
    ``unknown-shorthand`` (``-emulated-version=1.34``: one dash), ``needs-argument``,
    ``bad-syntax`` or ``help`` (``-h``: the binary prints its usage and exits). Its text is
    pflag's own: :func:`.messages.pflag_error`."""

    kind: str
    where: Where
    word: str
    #: the shorthand letters pflag was reading (``emulated-version=1.34``) or the flag's name
    name: str


@dataclass(frozen=True)
class FlagSet:
    """The flags one input gives one component (only the ones in :data:`FLAGS`), in order.

    ``complete`` is False for a partial description (a patch that only adds flags). ``unread``
    are the flags (or parts of the command line) whose values the inputs cannot tell;
    ``refused`` the words the binary's flag parser would refuse."""

    component: str
    flags: tuple[tuple[str, Fact], ...]
    where: Where
    complete: bool = True
    unread: tuple[Unread, ...] = ()
    refused: tuple[FlagParseError, ...] = ()

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
class UnusableVersion:
    """Something an input gives as the binary that names no release, and why (``why`` completes
    "cannot be used: ..."), e.g. an image by digest or a kubeadm label resolved when kubeadm ran."""

    where: Where
    written: str
    why: str

    def describe(self) -> str:
        return f"{self.where}: {cut(self.written, ECHO_LIMIT + 40)}: {self.why}"


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
    #: what an input names as the binary that is not a release (``:latest``, a digest, ``stable``)
    unusable_binary: tuple[UnusableVersion, ...] = ()


def decode_text(data: bytes | str, source: str, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """The input as text, or a clear refusal naming what it is (too large, gzip past the limit,
    an image, UTF-16 without a byte-order mark, not UTF-8): :func:`kcompat.core.text_input.decode_input`."""
    try:
        text = decode_input(data, source, max_bytes)
    except KcompatError as exc:
        raise InspectError(str(exc)) from None
    return text.removeprefix("\ufeff")


#: Line boundaries as ``str.splitlines`` sees them.
_LINE_BREAK = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


class Lines:
    """Line numbers in one text, found in linear time overall.

    The line starts are computed once; :meth:`find` searches the text itself (no copy, no split)
    and remembers each answer, and :meth:`next` searches only a bounded window after the last
    word found, so locating every word of a 20,000-item list costs one pass, not 20,000."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]
        self._found: dict[tuple[str, int], int | None] = {}
        self._at = 0  # the offset :meth:`next` searches from

    def line(self, offset: int) -> int:
        """The 1-based line of a character offset."""
        return bisect_right(self.starts, offset)

    def offset(self, line: int | None) -> int:
        """The offset where 1-based ``line`` starts (0 for None)."""
        if not line:
            return 0
        return self.starts[min(line, len(self.starts)) - 1]

    def find(self, needle: str, start: int | None = 1) -> int | None:
        """The first line from line ``start`` containing ``needle`` (as :func:`line_of`)."""
        key = (needle, start or 1)
        if key not in self._found:
            pos = self.text.find(needle, self.offset(start)) if needle else -1
            self._found[key] = self.line(pos) if pos >= 0 else None
        return self._found[key]

    def start_at(self, line: int | None) -> None:
        """Where the next :meth:`next` searches from."""
        self._at = self.offset(line)

    def next(self, needle: str) -> int | None:
        """The line of ``needle`` at most a few times its length after the last one found (the
        items of a YAML list, in order), or None; a miss costs the window, not the text."""
        if not needle:
            return None
        window = 8 * len(needle) + 4096
        pos = self.text.find(needle, self._at, self._at + window + len(needle))
        if pos < 0:
            return None
        self._at = pos
        return self.line(pos)


def line_of(text: str, needle: str, start: int = 1) -> int | None:
    """The first line (1-based, from line ``start``) containing ``needle``, if any (one search;
    for many searches in one text use :class:`Lines`)."""
    return Lines(text).find(needle, start)
