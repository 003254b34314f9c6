"""Kubernetes version strings: parsing, comparison and minor arithmetic.

A port of apimachinery ``pkg/util/version/version.go`` (SPEC §1): ``parse_version``
tries semantic parsing first and falls back to generic parsing, exactly like
``version.Parse``. Comparison follows ``compareInternal``: extra fields count only
when non-zero, and pre-release ordering applies only when both sides are semantic.
"""

from __future__ import annotations

import functools
import re

from .errors import ECHO_LIMIT, KcompatError, cut, go_quote, quote_cut  # noqa: F401 - go_quote is re-exported
from .record import Record, set_field

#: Longest version string read. Kubernetes versions are short ("v1.36.2", "1.37.0-alpha.1",
#: "v1.30.4-eks-a737599"); a longer value is refused before any parsing beyond a linear scan.
MAX_VERSION_LENGTH = 128

# Go's ``versionMatchRE`` is ``^\s*v?([0-9]+(?:\.[0-9]+)*)(.*)*$`` and ``extraMatchRE`` is
# ``^(?:-(IDENT))?(?:\+(IDENT))?\s*$``. Both are matched here by linear scans: leading ASCII
# whitespace stripped (RE2's ``\s`` is [\t\n\f\r ]), the numbers and identifiers taken greedily
# by patterns whose pieces cannot overlap (so the engine never backtracks more than one step),
# and ``(.*)*$`` is "the rest holds no newline" (``.`` does not match one; ``$`` is end of text).
_WS = "\t\n\f\r "
_NUMBERS_RE = re.compile(r"[0-9]+(?:\.[0-9]+)*")
_IDENT_RE = re.compile(r"[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*")
_UINT_MAX = 2**64 - 1
_UINT_DIGITS = len(str(_UINT_MAX))


@functools.total_ordering
class Version(Record):
    """A parsed version. ``semver`` says whether it was parsed semantically."""

    __slots__ = ("_key", "build_metadata", "components", "pre_release", "semver")
    _uncompared = ("_key",)
    _derived = ("_key",)
    components: tuple[int, ...]
    semver: bool
    pre_release: str
    build_metadata: str
    _key: tuple[int, ...]

    def __init__(self, components: tuple[int, ...], semver: bool = False, pre_release: str = "", build_metadata: str = "") -> None:
        set_field(self, "components", components)
        set_field(self, "semver", semver)
        set_field(self, "pre_release", pre_release)
        set_field(self, "build_metadata", build_metadata)
        key = list(components)
        while key and key[-1] == 0:
            key.pop()
        set_field(self, "_key", tuple(key))

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
    """``compareInternal``: the numbers first (an extra number counts only when not zero), then the
    pre-release of two semantic versions."""
    for a, b in zip(v.components, o.components, strict=False):
        if a != b:
            return 1 if a > b else -1
    vl, ol = len(v.components), len(o.components)
    if ol < vl and any(v.components[ol:]):
        return 1
    if ol > vl and any(o.components[vl:]):
        return -1
    if not (v.semver and o.semver):
        return 0
    return _compare_pre_release(v.pre_release, o.pre_release)


def _compare_pre_release(vp: str, op: str) -> int:
    """``comparePreRelease``: none sorts after any; dot-separated parts compare numerically when
    both are ASCII digits, else as text; more parts sort after fewer."""
    if vp == op:
        return 0
    if not vp:
        return 1
    if not op:
        return -1
    vparts, oparts = vp.split("."), op.split(".")
    for x, y in zip(vparts, oparts, strict=False):
        if x.isdigit() and y.isdigit() and x.isascii() and y.isascii():
            na, nb = int(x), int(y)
            if na != nb:
                return 1 if na > nb else -1
            continue
        if x != y:
            return 1 if x > y else -1
    if len(vparts) != len(oparts):
        return 1 if len(vparts) > len(oparts) else -1
    return 0


def _match_version(text: str) -> tuple[str, str] | None:
    """``versionMatchRE.FindStringSubmatch``: (numbers, extra), or None when it does not match."""
    start = len(text) - len(text.lstrip(_WS))
    if text.startswith("v", start):
        start += 1
    numbers = _NUMBERS_RE.match(text, start)
    if numbers is None:
        return None
    extra = text[numbers.end():]
    if "\n" in extra:
        return None
    return numbers.group(), extra


def _match_extra(extra: str) -> tuple[str, str] | None:
    """``extraMatchRE.FindStringSubmatch``: (pre-release, build metadata), or None."""
    pos, pre, build = 0, "", ""
    if extra.startswith("-"):
        m = _IDENT_RE.match(extra, 1)
        if m is None:
            return None
        pre, pos = m.group(), m.end()
    if extra.startswith("+", pos):
        m = _IDENT_RE.match(extra, pos + 1)
        if m is None:
            return None
        build, pos = m.group(), m.end()
    if extra[pos:].strip(_WS):
        return None
    return pre, build


def _parse_uint(comp: str, text: str) -> int:
    """``strconv.ParseUint(comp, 10, 0)`` on 64-bit: the digits are bounded before ``int()``."""
    digits = comp.lstrip("0") or "0"
    if len(digits) > _UINT_DIGITS or int(digits) > _UINT_MAX:
        raise KcompatError(
            f"illegal non-numeric version component {quote_cut(comp)} in {quote_cut(text)}: "
            f"strconv.ParseUint: parsing {quote_cut(comp)}: value out of range"
        )
    return int(digits)


def _parse(text: str, semver: bool) -> Version:
    """apimachinery ``parse``: linear in the length of ``text``; echoes of it are cut."""
    match = _match_version(text)
    if match is None:
        raise KcompatError(f"could not parse {quote_cut(text)} as version")
    numbers, extra = match
    fields = numbers.split(".")
    if (semver and len(fields) != 3) or (not semver and len(fields) < 2):
        raise KcompatError(f"illegal version string {quote_cut(text)}")
    components = []
    for i, comp in enumerate(fields):
        if (i == 0 or semver) and comp.startswith("0") and comp != "0":
            raise KcompatError(f"illegal zero-prefixed version component {quote_cut(comp)} in {quote_cut(text)}")
        components.append(_parse_uint(comp, text))
    pre = build = ""
    if semver and extra:
        parts = _match_extra(extra)
        if parts is None:
            raise KcompatError(f"could not parse pre-release/metadata ({cut(extra)}) in version {quote_cut(text)}")
        pre, build = parts
        for comp in pre.split("."):
            if comp.isdigit() and comp.startswith("0") and comp != "0":
                raise KcompatError(f"illegal zero-prefixed version component {quote_cut(comp)} in {quote_cut(text)}")
    return Version(tuple(components), semver, pre, build)


def parse_semantic(text: str) -> Version:
    """``version.ParseSemantic``: exactly major.minor.patch with optional -pre and +build."""
    return _parse(text, True)


def parse_generic(text: str) -> Version:
    """``version.ParseGeneric``: two or more numeric fields, anything after them ignored."""
    return _parse(text, False)


def parse_version(text: str) -> Version:
    """``version.Parse``: semantic first, generic as the fallback (whose error is reported).

    A string longer than :data:`MAX_VERSION_LENGTH` is refused: with the binary's own error
    when it would reject the value too (found by the same linear scan), else with the limit."""
    if not isinstance(text, str):
        raise KcompatError(f"a version must be a string, got {type(text).__name__} {cut(repr(text))}")
    if len(text) > MAX_VERSION_LENGTH:
        try:
            _parse_either(text)
        except KcompatError as exc:
            raise KcompatError(f"{exc} (and longer than the {MAX_VERSION_LENGTH} characters a version may have)") from None
        raise KcompatError(
            f"version {quote_cut(text, ECHO_LIMIT)} is longer than the {MAX_VERSION_LENGTH} characters a version "
            "may have (Kubernetes versions look like 1.36 or v1.36.2)"
        )
    return _parse_cached(text)


def _parse_either(text: str) -> Version:
    try:
        return _parse(text, True)
    except KcompatError:
        return _parse(text, False)


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str) -> Version:
    # Keyed by the raw text, at most MAX_VERSION_LENGTH characters: the cache holds at most
    # 4,096 x (128 characters + one Version), well under 4 MB. Errors are not cached.
    return _parse_either(text)


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
    minor = v.minor + diff if diff >= 0 else v.minor + diff if -diff <= v.minor else 0
    return major_minor(v.major, minor)


def subtract_minor(v: Version, n: int) -> Version:
    """``SubtractMinor``: n minors earlier, never below minor 0."""
    return offset_minor(v, -n)


def vmax(a: Version, b: Version) -> Version:
    return b if a < b else a
