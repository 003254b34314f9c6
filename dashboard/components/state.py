"""The shared selection (binary, emulated, min compatibility, --feature-gates) as plain strings,
and how raw URL values become a valid selection. Pure: no Streamlit import.

The ranges come from the core (:func:`dashboard.core.compat.allowed_versions`,
:func:`~dashboard.core.compat.select_versions`); this module only decides what to show when a
URL value is not acceptable: the default, plus a message naming the bad value.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from urllib.parse import parse_qsl, urlencode

from dashboard.core.compat import allowed_versions, parse_binary_version, parse_version_flag, select_versions
from dashboard.core.errors import KcompatError, repr_cut
from dashboard.core.versions import mm

#: The query parameters that make up the selection, in URL order.
PARAM_KEYS = ("binary", "emulated", "min_compat", "feature_gates")
#: The gate shown by the gate detail page.
GATE_PARAM = "gate"
#: Longest raw value echoed back in a message.
_ECHO = 60


@dataclass(frozen=True)
class Selection:
    """What every page shows. ``min_compat`` is None for "the default"; ``feature_gates`` is the
    flag value as typed ("" for none). Hashable: the cache key of every derived table."""

    binary: str
    emulated: str
    min_compat: str | None = None
    feature_gates: str = ""

    def params(self) -> dict[str, str]:
        """The query parameters reproducing this selection (defaults left out, binary and emulated
        always written so a copied URL does not depend on the bundled data's newest release)."""
        out = {"binary": self.binary, "emulated": self.emulated}
        if self.min_compat is not None:
            out["min_compat"] = self.min_compat
        if self.feature_gates:
            out["feature_gates"] = self.feature_gates
        return out

    @property
    def is_emulating(self) -> bool:
        return self.binary != self.emulated

    @property
    def query(self) -> str:
        """The canonical query string: one plain string, the cache key of derived tables."""
        return urlencode(self.params())

    @classmethod
    def from_query(cls, query: str) -> Selection:
        """Inverse of :attr:`query` (for canonical strings only; no validation)."""
        values = dict(parse_qsl(query, keep_blank_values=True))
        return cls(values["binary"], values["emulated"], values.get("min_compat"), values.get("feature_gates", ""))


@dataclass(frozen=True)
class BinaryChoices:
    """What a binary of one release accepts (from the core's release rules)."""

    release: str
    emulated: tuple[str, ...]
    default_emulated: str
    min_compat_flag: bool
    min_compat: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    default_min_compat: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    floor: str | None = None

    @property
    def emulated_range(self) -> str:
        return f"{self.emulated[0]}–{self.emulated[-1]}" if len(self.emulated) > 1 else self.emulated[0]


@functools.lru_cache(maxsize=64)
def binary_choices(release: str) -> BinaryChoices:
    """The core's ranges for a binary release (memoised: the result is immutable)."""
    info = allowed_versions(parse_binary_version(release))
    return BinaryChoices(
        release=info["release"],
        emulated=tuple(e["emulated"] for e in info["emulated"]),
        default_emulated=info["defaultEmulated"],
        min_compat_flag=info["minCompatibilityFlag"],
        min_compat=MappingProxyType({e["emulated"]: tuple(e["minCompatibility"]) for e in info["emulated"]}),
        default_min_compat=MappingProxyType({e["emulated"]: e["defaultMinCompatibility"] for e in info["emulated"]}),
        floor=info["floor"],
    )


@dataclass(frozen=True)
class Resolved:
    selection: Selection
    #: One message per URL value that was replaced, naming the value and what is shown instead.
    problems: tuple[str, ...] = ()


def _echo(value: str) -> str:
    return repr_cut(value, _ECHO)


def _release_of(text: str) -> str:
    v = mm(parse_binary_version(text))
    return f"{v.major}.{v.minor}"


def resolve_selection(
    raw: Mapping[str, str | None],
    usable: Sequence[str],
    default_binary: str,
    broken: Mapping[str, str] | None = None,
) -> Resolved:
    """Turn raw query parameters into a valid selection.

    ``usable``: the releases whose bundled data loads; ``broken``: release -> why it cannot be
    used. Every rejected value is replaced by its default and explained in ``problems``."""
    broken = broken or {}
    problems: list[str] = []

    binary = default_binary
    text = raw.get("binary")
    if text not in (None, ""):
        try:
            release = _release_of(text)
        except KcompatError as exc:
            problems.append(f"binary={_echo(text)} in the URL is not a version ({exc}); showing the {default_binary} binary.")
        else:
            if release in usable:
                binary = release
            elif release in broken:
                problems.append(
                    f"binary={_echo(text)} in the URL: the bundled data of release {release} cannot be used "
                    f"({broken[release]}); showing the {default_binary} binary."
                )
            else:
                problems.append(
                    f"binary={_echo(text)} in the URL: there is no bundled release {release} "
                    f"(bundled: {', '.join(usable)}); showing the {default_binary} binary."
                )
    choices = binary_choices(binary)

    emulated = choices.default_emulated
    text = raw.get("emulated")
    if text not in (None, ""):
        try:
            parsed = parse_version_flag(text, "emulated-version")
        except KcompatError as exc:
            problems.append(f"emulated={_echo(text)} in the URL is not a valid emulated version ({exc}); showing {emulated}.")
        else:
            value = f"{parsed.major}.{parsed.minor}" if parsed is not None else None
            if value in choices.emulated:
                emulated = value
            else:
                why = "; ".join(e for e in select_versions(parse_binary_version(binary), text).errors if "emulation" in e)
                problems.append(
                    f"emulated={_echo(text)} in the URL is outside what a {binary} binary accepts "
                    f"({choices.emulated_range}{': ' + why if why else ''}); showing {emulated}."
                )

    min_compat = None
    default_mc = choices.default_min_compat[emulated]
    text = raw.get("min_compat")
    if text not in (None, ""):
        if not choices.min_compat_flag:
            problems.append(
                f"min_compat={_echo(text)} in the URL: a {binary} binary has no --min-compatibility-version flag "
                f"(it exists from 1.35); using the derived default {default_mc}."
            )
        else:
            try:
                parsed = parse_version_flag(text, "min-compatibility-version")
            except KcompatError as exc:
                problems.append(
                    f"min_compat={_echo(text)} in the URL is not a valid min compatibility version ({exc}); "
                    f"using the default {default_mc}."
                )
            else:
                value = f"{parsed.major}.{parsed.minor}" if parsed is not None else None
                allowed = choices.min_compat[emulated]
                if value in allowed:
                    min_compat = None if value == default_mc else value
                else:
                    problems.append(
                        f"min_compat={_echo(text)} in the URL is outside {allowed[0]}–{allowed[-1]}, what a {binary} "
                        f"binary emulating {emulated} accepts; using the default {default_mc}."
                    )

    feature_gates = raw.get("feature_gates") or ""
    return Resolved(Selection(binary, emulated, min_compat, feature_gates), tuple(problems))


def after_change(selection: Selection, changed: str, value: str | None) -> Selection:
    """The selection after the user changed one control: a new binary keeps the emulated and min
    compatibility versions when it accepts them (else their defaults); a new emulated version keeps
    min compatibility when still in range; picking the default min compatibility stores None."""
    binary, emulated, mc, fg = selection.binary, selection.emulated, selection.min_compat, selection.feature_gates
    if changed == "binary":
        binary = value or binary
    elif changed == "emulated":
        emulated = value or emulated
    elif changed == "min_compat":
        mc = value
    elif changed == "feature_gates":
        fg = value or ""
    choices = binary_choices(binary)
    if emulated not in choices.emulated:
        emulated = choices.default_emulated
    if mc is not None and (
        not choices.min_compat_flag or mc not in choices.min_compat[emulated] or mc == choices.default_min_compat[emulated]
    ):
        mc = None
    return Selection(binary, emulated, mc, fg)
