"""Binary, emulation and min compatibility versions: defaults, flags and ranges (SPEC §2).

Where releases differ, the rules of the binary's own release apply
(:class:`ReleaseRules`). ``rules_for(None)`` gives the unconstrained rules used for a
custom manifest of a component that is not a Kubernetes release.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from .errors import KcompatError, cut, quote_cut, repr_cut
from .flags import go_trim_space
from .judged import Judged
from .record import Record, set_field
from .versions import (
    Version,
    major_minor,
    mm,
    parse_version,
    subtract_minor,
    vmax,
    with_patch_zero,
    with_pre_release,
)

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    # the problem kinds are imported where one is found: a selection the binary accepts
    # (``kcompat gates`` on valid flags) needs none of them
    from .problems import Problem

FIRST_EMULATION_RELEASE = major_minor(1, 31)
KUBE_COMPONENT = "kube"


class ReleaseRules(Record):
    """What a binary of one release does. ``binary`` is None for a non-Kubernetes component."""

    __slots__ = ("binary", "release")
    _uncompared = _derived = ("release",)
    binary: Version | None
    release: Version | None

    def __init__(self, binary: Version | None) -> None:
        set_field(self, "binary", binary)
        set_field(self, "release", mm(binary) if binary is not None else None)

    def _at_least(self, minor: int) -> bool:
        r = self.release
        return r is None or r.major > 1 or (r.major == 1 and r.minor >= minor)

    @property
    def has_min_compat_flag(self) -> bool:
        """``--min-compatibility-version`` exists from 1.35."""
        return self._at_least(35)

    @property
    def gates_use_min_compat(self) -> bool:
        """Per-spec ``minCompatibilityVersion`` is honoured from 1.35."""
        return self._at_least(35)

    @property
    def has_dependencies(self) -> bool:
        return self._at_least(35)

    @property
    def prealpha_error_names_min_compat(self) -> bool:
        return self._at_least(35)

    @property
    def structured_gate_warnings(self) -> bool:
        """1.36 logs GA/Deprecated settings as structured messages."""
        return self._at_least(36)

    @property
    def unknown_api_groups_as_group_versions(self) -> bool:
        """1.36+ ``APIEnablementOptions.Validate`` names unknown group/versions, sorted and once each
        (``sets.List``); before, the bare groups in the flag map's (random) order."""
        return self._at_least(36)

    @property
    def api_all_false_noun(self) -> str:
        """What ``APIEnablementOptions.Validate`` calls a lone ``--runtime-config=api/all=false``:
        "invalid key with only ..." up to 1.35, "invalid runtime-config with only ..." from 1.36
        (apiserver@v0.31-v0.35 and v0.36+ ``pkg/server/options/api_enablement.go``)."""
        return "runtime-config" if self._at_least(36) else "key"

    @property
    def warns_alpha_while_emulating(self) -> bool:
        return self._at_least(34)

    @property
    def emulation_version_carries_pre_release(self) -> bool:
        """1.31/1.32 ``EmulationVersion()`` adds the binary's pre-release (apiserver@v0.31
        ``util/version``, component-base@v0.32 ``version``); from 1.33 (component-base
        ``compatibility``) it is the bare major.minor, as a v1.38.0-beta.0 kube-apiserver prints it."""
        return not self._at_least(33)

    @property
    def has_forward_compat_flags(self) -> bool:
        return self._at_least(33)

    @property
    def version_reports_emulation(self) -> bool:
        """``/version`` has emulationMajor/Minor and minCompatibilityMajor/Minor from 1.33
        (component-base ``compatibility`` fills apimachinery's ``version.Info``)."""
        return self._at_least(33)

    @property
    def uses_floors(self) -> bool:
        """1.33+: emulation and min compat may go down to a floor; 1.31/1.32: binary-1 only."""
        return self._at_least(33)

    @property
    def floor(self) -> Version:
        """The kube floor: max(binary-3, 1.31) (SPEC §2.4); 0.0 without a binary."""
        if self.binary is None:
            return major_minor(0, 0)
        return vmax(subtract_minor(self.binary, 3), FIRST_EMULATION_RELEASE)

    def emulation_range(self) -> tuple[Version, Version] | None:
        if self.binary is None:
            return None
        top = mm(self.binary)
        if self.release == FIRST_EMULATION_RELEASE:
            return top, top
        if not self.uses_floors:
            return subtract_minor(self.binary, 1), top
        return self.floor, top

    def min_compat_range(self, emulated: Version) -> tuple[Version, Version] | None:
        if self.binary is None:
            return None
        if not self.uses_floors:
            fixed = subtract_minor(self.binary, 1)
            return fixed, fixed
        return self.floor, emulated

    def default_min_compat(self, emulated: Version | None) -> Version:
        """mc after the emulation flag is applied (or at construction when it is not)."""
        if emulated is None:
            base = self.binary if self.binary is not None else major_minor(0, 0)
            return subtract_minor(base, 1)
        if self.binary is not None and not self.uses_floors:
            return subtract_minor(self.binary, 1)
        return vmax(subtract_minor(emulated, 1), self.floor)

    def validate(self, emulated: Version, min_compat: Version) -> list[Problem]:
        """Range checks run at startup (component-base ``Validate``), in their order. (Each kind of
        problem is imported where it is found: a selection the binary accepts needs none.)"""
        problems: list[Problem] = []
        if self.binary is None:
            if min_compat > emulated:
                from .problems import MinCompatOutOfRange

                problems.append(MinCompatOutOfRange(min_compat, major_minor(0, 0), emulated, None, emulated))
            return problems
        top = with_patch_zero(self.binary)
        if self.uses_floors:
            emu_low, mc_low, mc_high = self.floor, self.floor, emulated
        else:
            emu_low = subtract_minor(self.binary, 1)
            mc_low = mc_high = subtract_minor(self.binary, 1)
        if emulated > top or emulated < emu_low:
            from .problems import EmulationOutOfRange

            problems.append(EmulationOutOfRange(emulated, emu_low, top, self.binary))
        if min_compat > mc_high or min_compat < mc_low:
            from .problems import MinCompatOutOfRange

            problems.append(MinCompatOutOfRange(min_compat, mc_low, mc_high, self.binary, emulated))
        if self.release == FIRST_EMULATION_RELEASE and emulated != mm(self.binary):
            from .problems import EmulationMustEqualBinary

            problems.append(EmulationMustEqualBinary(self.binary, with_pre_release(emulated, self.binary.pre_release)))
        return problems


def rules_for(binary: Version | None) -> ReleaseRules:
    if binary is not None and mm(binary) < FIRST_EMULATION_RELEASE:
        raise KcompatError(
            f"binary version {binary} predates compatibility versions: --emulated-version exists from 1.31"
        )
    return ReleaseRules(binary)


def parse_binary_version(text: str) -> Version:
    """A binary version as a user types it (``1.36``, ``v1.36.2``, ``1.37.0-alpha.1``)."""
    try:
        return parse_version(text)
    except KcompatError as exc:
        raise KcompatError(f"invalid binary version {repr_cut(text) if isinstance(text, str) else cut(repr(text))}: {exc}") from None


#: Longest ``--emulated-version`` / ``--min-compatibility-version`` value read: a few
#: ``component=version`` items; a longer value is refused before it is split.
MAX_VERSION_FLAG_LENGTH = 1_000


#: The characters that make a CSV reader do more than return the value as one field.
_CSV_SPECIAL = frozenset(',"\r\n\x00')


def read_flag_csv(value: str) -> list[str]:
    """pflag's ``readAsCSV`` for string-slice flags: the first CSV record of the value."""
    if value == "":
        return []
    if len(value) > MAX_VERSION_FLAG_LENGTH:
        raise KcompatError(
            f"value {quote_cut(value)} is longer than the {MAX_VERSION_FLAG_LENGTH:,} characters a version flag may have"
        )
    if not _CSV_SPECIAL.intersection(value):
        return [value]  # what the CSV reader gives for a field without a separator, quote or line end
    import csv  # (only for a value the reader has to read: not on every command's start)
    import io

    try:
        for row in csv.reader(io.StringIO(value), strict=True):
            if row:
                return row
    except csv.Error as exc:
        raise KcompatError(f"parse error on line 1: {exc}") from None
    raise KcompatError("EOF")


def parse_version_flag(values: str | list[str] | tuple[str, ...], flag: str) -> Version | None:
    """``toVersionMap`` for ``--emulated-version`` / ``--min-compatibility-version``.

    Items are ``component=version`` or ``version`` (component ``kube``); the result is the
    major.minor of the kube entry, or None when the flag names no version. Error texts are
    the ones the binary prints.
    """
    if isinstance(values, str):
        values = [values]
    found: dict[str, Version] = {}
    for value in values:
        for item in read_flag_csv(value):
            component, text = KUBE_COMPONENT, item
            if "=" in item:
                component, text = (go_trim_space(part) for part in item.split("=", 1))
            version = parse_version(text)
            if version.patch != 0:
                raise KcompatError(f"patch version not allowed, got: {cut(component)}={version}")
            if component in found:
                raise KcompatError(f"duplicate version flag, {cut(component)}={found[component]} and {cut(component)}={version}")
            found[component] = version
    for component in found:
        if component != KUBE_COMPONENT:
            raise KcompatError(f"component not registered: {cut(component)}")
    kube = found.get(KUBE_COMPONENT)
    return mm(kube) if kube is not None else None


class VersionSelection(Record, Judged):
    """The (binary, emulated, min compat) a binary ends up with after its flags, and the
    problems found. ``emulated``/``min_compat`` are what the feature gate holds: the flag
    values when they parsed (even out of range, as the real gate keeps them), else defaults."""

    __slots__ = ("emulated", "flags_rejected", "min_compat", "problems", "rules")
    rules: ReleaseRules
    emulated: Version
    min_compat: Version
    #: what the binary says about the version flags (a flag it cannot read, a range)
    problems: tuple[Problem, ...]
    flags_rejected: bool

    def __init__(self, rules: ReleaseRules, emulated: Version, min_compat: Version, problems: tuple[Problem, ...] = (), flags_rejected: bool = False) -> None:
        set_field(self, "rules", rules)
        set_field(self, "emulated", emulated)
        set_field(self, "min_compat", min_compat)
        set_field(self, "problems", problems)
        set_field(self, "flags_rejected", flags_rejected)

    @property
    def binary(self) -> Version | None:
        return self.rules.binary

    @property
    def emulated_display(self) -> Version:
        """``EmulationVersion()`` as messages print it: with the binary's pre-release on 1.31/1.32
        (1.31.0-alpha.1), the bare major.minor from 1.33."""
        if self.binary is None or not self.rules.emulation_version_carries_pre_release:
            return self.emulated
        return with_pre_release(self.emulated, self.binary.pre_release)

    @property
    def is_emulating(self) -> bool:
        return self.rules.release is not None and self.rules.release > self.emulated



#: A version flag as callers pass it: the flag's value, its repeated values, or a Version.
FlagInput = str | Version | Sequence[str | Version] | None
#: The same as a cache key (hashable): a string, a tuple of strings, or None.
FlagKey = str | tuple[str, ...] | None
#: A binary version by all its parts: components, semver, pre-release, build metadata.
BinaryKey = tuple[tuple[int, ...], bool, str, str]


def select_versions(binary: Version | None, emulated: FlagInput = None, min_compat: FlagInput = None) -> VersionSelection:
    """Apply ``--emulated-version`` and ``--min-compatibility-version`` as the binary would
    (SPEC §2.2, §2.6), then validate the ranges (§2.3)."""
    key = None if binary is None else (binary.components, binary.semver, binary.pre_release, binary.build_metadata)
    emu_key, mc_key = _flag_key(emulated), _flag_key(min_compat)
    if _key_length(emu_key) + _key_length(mc_key) > 2 * MAX_VERSION_FLAG_LENGTH:
        # raw input is a cache key only below a length bound: a long value is answered uncached
        return _select_versions.__wrapped__(key, emu_key, mc_key)
    return _select_versions(key, emu_key, mc_key)


def _key_length(value: FlagKey) -> int:
    if value is None:
        return 0
    if isinstance(value, str):
        return len(value)
    return sum(len(v) for v in value) + len(value)


def _flag_key(value: FlagInput) -> FlagKey:
    """Flag values as a hashable cache key: a string, a tuple of strings, or None."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Version):
        return str(value)
    return tuple(str(v) if isinstance(v, Version) else v for v in value)


@functools.lru_cache(maxsize=1024)
def _select_versions(binary_key: BinaryKey | None, emulated: FlagKey, min_compat: FlagKey) -> VersionSelection:
    # a pure function of immutable inputs with an immutable result: safe to share. The binary is
    # keyed by all its parts (Version equality ignores a pre-release against a major.minor).
    binary = None if binary_key is None else Version(*binary_key)
    rules = rules_for(binary)
    if binary is None and not emulated:
        raise KcompatError("without a binary version, an emulated version is required")
    default_emu = mm(binary) if binary is not None else major_minor(0, 0)
    default_mc = rules.default_min_compat(None)
    emu, mc, rejected = _read_version_flags(rules, emulated, min_compat)
    if rejected is not None:
        return VersionSelection(rules, default_emu, default_mc, (rejected,), flags_rejected=True)
    if emu is None:
        emu, mc_now = default_emu, default_mc
    else:
        mc_now = rules.default_min_compat(emu)
    if mc is not None:
        mc_now = mc
    return VersionSelection(rules, emu, mc_now, tuple(rules.validate(emu, mc_now)))


def _read_version_flags(
    rules: ReleaseRules, emulated: FlagKey, min_compat: FlagKey
) -> tuple[Version | None, Version | None, Problem | None]:
    """(emulated, min compat, None) as the flags give them (None: not given), or the problem of
    the first flag the binary cannot read, in the order it reads them."""
    try:
        emu = parse_version_flag(emulated, "emulated-version") if emulated else None
    except KcompatError as exc:
        return None, None, _rejected("emulated-version", str(exc))
    if min_compat and not rules.has_min_compat_flag:
        from .problems import UnknownFlag

        return None, None, UnknownFlag("min-compatibility-version")
    try:
        mc = parse_version_flag(min_compat, "min-compatibility-version") if min_compat else None
    except KcompatError as exc:
        return None, None, _rejected("min-compatibility-version", str(exc))
    return emu, mc, None


def _rejected(flag: str, words: str) -> Problem:
    from .problems import FlagValueRejected

    return FlagValueRejected(flag, words)


class EmulatedChoice(Record):
    """One emulated version a binary accepts, with the min compatibility versions it then accepts."""

    __slots__ = ("default_min_compat", "emulated", "min_compat")
    emulated: str
    default_min_compat: str
    #: what --min-compatibility-version may be; the default alone when the binary has no such flag
    min_compat: tuple[str, ...]

    def __init__(self, emulated: str, default_min_compat: str, min_compat: tuple[str, ...]) -> None:
        set_field(self, "emulated", emulated)
        set_field(self, "default_min_compat", default_min_compat)
        set_field(self, "min_compat", min_compat)


class AllowedVersions(Record):
    """What a binary accepts: ranges, defaults and which flags exist (``kcompat versions``)."""

    __slots__ = ("binary", "default_emulated", "emulated", "emulated_range", "floor", "forward_compat_flags", "min_compat_flag", "release")
    binary: str
    release: str
    #: the emulation floor (binary - 3) of releases that have one, else None
    floor: str | None
    emulated_range: tuple[str, str]
    default_emulated: str
    min_compat_flag: bool
    forward_compat_flags: bool
    emulated: tuple[EmulatedChoice, ...]

    def __init__(self, binary: str, release: str, floor: str | None, emulated_range: tuple[str, str], default_emulated: str, min_compat_flag: bool, forward_compat_flags: bool, emulated: tuple[EmulatedChoice, ...]) -> None:
        set_field(self, "binary", binary)
        set_field(self, "release", release)
        set_field(self, "floor", floor)
        set_field(self, "emulated_range", emulated_range)
        set_field(self, "default_emulated", default_emulated)
        set_field(self, "min_compat_flag", min_compat_flag)
        set_field(self, "forward_compat_flags", forward_compat_flags)
        set_field(self, "emulated", emulated)


def allowed_versions(binary: Version) -> AllowedVersions:
    """What ``kcompat versions`` reports for a binary: ranges, defaults and which flags exist."""
    rules = rules_for(binary)
    span = rules.emulation_range()
    if span is None:  # pragma: no cover - every rule set of a binary version has a range
        raise KcompatError("a binary version is required")
    low, high = span
    emulated = []
    for v in minor_range(low, high):
        mc_span = rules.min_compat_range(v)
        if mc_span is None:  # pragma: no cover - as above
            raise KcompatError("a binary version is required")
        mc_low, mc_high = mc_span
        default_mc = str(rules.default_min_compat(v))
        allowed = tuple(str(x) for x in minor_range(mc_low, mc_high)) if rules.has_min_compat_flag else (default_mc,)
        emulated.append(EmulatedChoice(str(v), default_mc, allowed))
    return AllowedVersions(
        binary=str(binary),
        release=str(rules.release),
        floor=str(rules.floor) if rules.uses_floors else None,
        emulated_range=(str(low), str(high)),
        default_emulated=str(mm(binary)),
        min_compat_flag=rules.has_min_compat_flag,
        forward_compat_flags=rules.has_forward_compat_flags,
        emulated=tuple(emulated),
    )


def minor_range(low: Version, high: Version) -> list[Version]:
    """Every major.minor from low to high inclusive (same major)."""
    out = []
    v = low
    while v <= high:
        out.append(v)
        v = major_minor(v.major, v.minor + 1)
    return out
