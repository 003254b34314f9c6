"""Kubernetes version strings: parsing, comparison and minor arithmetic.

A port of apimachinery ``pkg/util/version/version.go`` (SPEC §1): ``parse_version``
tries semantic parsing first and falls back to generic parsing, exactly like
``version.Parse``. Comparison follows ``compareInternal``: extra fields count only
when non-zero, and pre-release ordering applies only when both sides are semantic.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from .errors import KcompatError

# Go's RE2 ``\s`` is ASCII whitespace without \v; ``.`` does not match a newline; ``$`` is end of text.
_WS = "[\t\n\f\r ]"
_VERSION_RE = re.compile(rf"\A{_WS}*v?([0-9]+(?:\.[0-9]+)*)([^\n]*)\Z")
_IDENT = r"[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*"
_EXTRA_RE = re.compile(rf"\A(?:-({_IDENT}))?(?:\+({_IDENT}))?{_WS}*\Z")
_UINT_MAX = 2**64 - 1


@functools.total_ordering
@dataclass(frozen=True, eq=False)
class Version:
    """A parsed version. ``semver`` says whether it was parsed semantically."""

    components: tuple[int, ...]
    semver: bool = False
    pre_release: str = ""
    build_metadata: str = ""
    _key: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        key = list(self.components)
        while key and key[-1] == 0:
            key.pop()
        object.__setattr__(self, "_key", tuple(key))

    @property
    def major(self) -> int:
        return self.components[0]

    @property
    def minor(self) -> int:
        return self.components[1] if len(self.components) > 1 else 0

    @property
    def patch(self) -> int:
        return self.components[2] if len(self.components) > 2 else 0

    def __str__(self) -> str:
        text = ".".join(str(c) for c in self.components)
        if self.pre_release:
            text += "-" + self.pre_release
        if self.build_metadata:
            text += "+" + self.build_metadata
        return text

    def compare(self, other: Version) -> int:
        return _compare(self, other)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return _compare(self, other) == 0

    def __lt__(self, other: Version) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return _compare(self, other) < 0

    def __hash__(self) -> int:
        return hash(self._key)


def _compare(v: Version, o: Version) -> int:
    for a, b in zip(v.components, o.components):
        if a != b:
            return 1 if a > b else -1
    vl, ol = len(v.components), len(o.components)
    if ol < vl and any(v.components[ol:]):
        return 1
    if ol > vl and any(o.components[vl:]):
        return -1
    if not (v.semver and o.semver):
        return 0
    if v.pre_release == o.pre_release:
        return 0
    if not v.pre_release:
        return 1
    if not o.pre_release:
        return -1
    vp, op = v.pre_release.split("."), o.pre_release.split(".")
    for a, b in zip(vp, op):
        if a.isdigit() and b.isdigit() and a.isascii() and b.isascii():
            na, nb = int(a), int(b)
            if na != nb:
                return 1 if na > nb else -1
            continue
        if a != b:
            return 1 if a > b else -1
    if len(vp) != len(op):
        return 1 if len(vp) > len(op) else -1
    return 0


def _parse(text: str, semver: bool) -> Version:
    match = _VERSION_RE.match(text)
    if match is None:
        raise KcompatError(f"could not parse {_go_quote(text)} as version")
    numbers, extra = match.group(1), match.group(2)
    fields = numbers.split(".")
    if (semver and len(fields) != 3) or (not semver and len(fields) < 2):
        raise KcompatError(f"illegal version string {_go_quote(text)}")
    components = []
    for i, comp in enumerate(fields):
        if (i == 0 or semver) and comp.startswith("0") and comp != "0":
            raise KcompatError(f"illegal zero-prefixed version component {_go_quote(comp)} in {_go_quote(text)}")
        value = int(comp)
        if value > _UINT_MAX:
            raise KcompatError(
                f"illegal non-numeric version component {_go_quote(comp)} in {_go_quote(text)}: "
                f"strconv.ParseUint: parsing {_go_quote(comp)}: value out of range"
            )
        components.append(value)
    pre = build = ""
    if semver and extra:
        extra_match = _EXTRA_RE.match(extra)
        if extra_match is None:
            raise KcompatError(f"could not parse pre-release/metadata ({extra}) in version {_go_quote(text)}")
        pre, build = extra_match.group(1) or "", extra_match.group(2) or ""
        for comp in pre.split("."):
            if comp.isdigit() and comp.startswith("0") and comp != "0":
                raise KcompatError(f"illegal zero-prefixed version component {_go_quote(comp)} in {_go_quote(text)}")
    return Version(tuple(components), semver, pre, build)


def parse_semantic(text: str) -> Version:
    """``version.ParseSemantic``: exactly major.minor.patch with optional -pre and +build."""
    return _parse(text, True)


def parse_generic(text: str) -> Version:
    """``version.ParseGeneric``: two or more numeric fields, anything after them ignored."""
    return _parse(text, False)


def parse_version(text: str) -> Version:
    """``version.Parse``: semantic first, generic as the fallback (whose error is reported)."""
    if not isinstance(text, str):
        raise KcompatError(f"a version must be a string, got {type(text).__name__} {text!r}")
    if len(text) > 100_000:
        raise KcompatError(f"could not parse {_go_quote(text[:40])}... as version: longer than 100,000 characters")
    return _parse_cached(text)


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str) -> Version:
    # Versions are immutable, so a parsed string can be shared; errors are not cached.
    try:
        return _parse(text, True)
    except KcompatError:
        return _parse(text, False)


def major_minor(major: int, minor: int) -> Version:
    """``version.MajorMinor``."""
    return Version((major, minor))


def mm(v: Version) -> Version:
    """The major.minor of a version (patch, pre-release and build dropped)."""
    return Version((v.major, v.minor))


def with_patch_zero(v: Version) -> Version:
    """``WithPatch(0)`` as range validation uses it: major.minor.0, keeping pre-release and build."""
    return Version((v.major, v.minor, 0), v.semver, v.pre_release, v.build_metadata)


def with_pre_release(v: Version, pre_release: str) -> Version:
    """``WithPreRelease``: unchanged without a pre-release, else major.minor.patch-pre."""
    if not pre_release:
        return v
    return Version((v.major, v.minor, v.patch), v.semver, pre_release, v.build_metadata)


def offset_minor(v: Version, diff: int) -> Version:
    """``OffsetMinor``: keeps the major, saturates at minor 0, drops everything else."""
    if diff >= 0:
        minor = v.minor + diff
    else:
        minor = v.minor + diff if -diff <= v.minor else 0
    return major_minor(v.major, minor)


def subtract_minor(v: Version, n: int) -> Version:
    """``SubtractMinor``: n minors earlier, never below minor 0."""
    return offset_minor(v, -n)


def vmax(a: Version, b: Version) -> Version:
    return b if a < b else a


_GO_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v", '"': '\\"', "\\": "\\\\"}


def _go_quote(text: str) -> str:
    """Render a string the way Go's ``%q`` (``strconv.Quote``) does."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in _GO_ESCAPES:
            out.append(_GO_ESCAPES[ch])
        elif code < 0x80:
            out.append(ch if 0x20 <= code < 0x7F else f"\\x{code:02x}")
        elif ch.isprintable():
            out.append(ch)
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


go_quote = _go_quote
