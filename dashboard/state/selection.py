"""The shared selection (binary, emulated, min compatibility, --feature-gates) as plain strings,
and how raw URL values become a valid selection. Pure: no Streamlit import.

The ranges come from :func:`kcompat.answers.versions.allowed_ranges` (what ``kcompat versions``
answers) and :func:`kcompat.core.compat.select_versions`. A value that is a version is kept as given, even
when the binary would refuse it (out of range, no such flag, no bundled data): the pages then show
the binary's refusal (:func:`startup_errors`, :func:`missing_data`) instead of falling back to something else. Only a value that
is not a version at all is replaced by its default, with a message naming the value.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from urllib.parse import parse_qsl, urlencode

from kcompat.answers.versions import VersionCheck, allowed_ranges, version_check
from kcompat.core.compat import (
    parse_binary_version,
    parse_version_flag,
    select_versions,
)
from kcompat.core.components import COMPONENTS, KUBE_APISERVER
from kcompat.core.errors import KcompatError, repr_cut
from kcompat.core.request import Request
from kcompat.core.versions import mm

#: The query parameters that make up the selection, in URL order.
PARAM_KEYS = ("binary", "emulated", "min_compat", "feature_gates", "patch", "component")
#: The gate shown by the gate detail page: its URL key, and its session key (the last gate
#: opened, for a gate page reached without one in the URL).
GATE_PARAM = "gate"
GATE_SESSION_KEY = "_gate"


@dataclass(frozen=True)
class Selection:
    """What every page shows. ``min_compat`` is None for "the default"; ``feature_gates`` is the
    flag value as typed ("" for none). Hashable: the cache key of every derived table."""

    binary: str
    emulated: str
    min_compat: str | None = None
    feature_gates: str = ""
    #: the binary's patch level ("2" for v1.35.2); None: the release's newest recorded patch
    patch: str | None = None
    #: the control-plane component whose own gate set answers (kube-apiserver by default)
    component: str = KUBE_APISERVER

    @property
    def binary_version(self) -> str:
        """The binary as the engine takes it: the release, or release.patch when a patch is chosen."""
        return f"{self.binary}.{self.patch}" if self.patch else self.binary

    def params(self) -> dict[str, str]:
        """The query parameters reproducing this selection (defaults left out, binary and emulated
        always written so a copied URL does not depend on the bundled data's newest release)."""
        out = {"binary": self.binary, "emulated": self.emulated}
        if self.min_compat is not None:
            out["min_compat"] = self.min_compat
        if self.feature_gates:
            out["feature_gates"] = self.feature_gates
        if self.patch:
            out["patch"] = self.patch
        if self.component != KUBE_APISERVER:
            out["component"] = self.component
        return out

    @property
    def is_emulating(self) -> bool:
        return self.binary != self.emulated

    @property
    def request(self) -> Request:
        """The selection as every answer takes it (:class:`kcompat.core.request.Request`): the
        binary (at its patch, when one is chosen), the versions, ``--feature-gates`` and the component."""
        return Request.of(self.binary_version, self.emulated, self.min_compat, self.feature_gates or None, component=self.component)

    @property
    def query(self) -> str:
        """The canonical query string: one plain string, the cache key of derived tables."""
        return urlencode(self.params())

    @classmethod
    def from_query(cls, query: str) -> Selection:
        """Inverse of :attr:`query` (for canonical strings only; no validation)."""
        values = dict(parse_qsl(query, keep_blank_values=True))
        return cls(values["binary"], values["emulated"], values.get("min_compat"), values.get("feature_gates", ""), values.get("patch"),
                   values.get("component", KUBE_APISERVER))


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
    """The ranges of a binary release, as ``kcompat versions`` gives them (memoised: the result is immutable)."""
    allowed = allowed_ranges(release)
    return BinaryChoices(
        release=allowed.release,
        emulated=tuple(e.emulated for e in allowed.emulated),
        default_emulated=allowed.default_emulated,
        min_compat_flag=allowed.min_compat_flag,
        min_compat=MappingProxyType({e.emulated: e.min_compat for e in allowed.emulated}),
        default_min_compat=MappingProxyType({e.emulated: e.default_min_compat for e in allowed.emulated}),
        floor=allowed.floor,
    )


@dataclass(frozen=True)
class Resolved:
    selection: Selection
    #: One message per URL value that was replaced (it is not a version), naming the value and
    #: what is shown instead. Versions the binary would refuse are kept: see :func:`startup_errors`.
    problems: tuple[str, ...] = ()



def _release_of(text: str) -> str:
    v = mm(parse_binary_version(text))
    return f"{v.major}.{v.minor}"


def _flag_value(text: str, flag: str) -> str | None:
    """A ``--emulated-version`` / ``--min-compatibility-version`` value as ``x.y`` (None: names no
    version). Raises :class:`KcompatError` with the binary's message when it does not parse."""
    parsed = parse_version_flag(text, flag)
    return f"{parsed.major}.{parsed.minor}" if parsed is not None else None


def _choices_or_none(binary: str) -> BinaryChoices | None:
    """The binary's ranges, or None for a release before compatibility versions (1.30 and older)."""
    try:
        return binary_choices(binary)
    except KcompatError:
        return None


@functools.lru_cache(maxsize=256)
def default_min_compat(binary: str, emulated: str) -> str | None:
    """The min compatibility version a ``binary`` emulating ``emulated`` ends up with when the flag
    is not given (the core's rule, also for an emulated version out of range); None when the
    binary predates compatibility versions."""
    try:
        chosen = select_versions(parse_binary_version(binary), emulated)
    except KcompatError:
        return None
    return f"{chosen.min_compat.major}.{chosen.min_compat.minor}"


def landing_selection(default_binary: str) -> Selection:
    """What an empty URL shows: the default binary at its own release, as the binary starts without
    ``--emulated-version`` and as the CLI answers without ``--emulated``; the link then names it."""
    return Selection(default_binary, default_binary)


def startup_errors(selection: Selection) -> tuple[str, ...]:
    """Why a binary started with this selection's version flags would exit at startup: the binary's
    own messages (component-base's flag parsing and ``Validate``, via the core), in its order.
    Empty when it starts. The --feature-gates value is checked separately (see the gates view)."""
    return _version_check(selection).errors


def startup_hints(selection: Selection) -> tuple[str, ...]:
    """The remedies beside :func:`startup_errors` (the range and the nearest valid value)."""
    return _version_check(selection).hints


@functools.lru_cache(maxsize=256)
def _version_check(selection: Selection) -> VersionCheck:
    return version_check(selection.binary, selection.emulated, selection.min_compat)


def missing_data(selection: Selection, usable: Sequence[str], broken: Mapping[str, str] | None = None) -> str | None:
    """Why the bundled data cannot answer for this binary release (None when it can)."""
    if selection.binary in usable:
        return None
    if broken and selection.binary in broken:
        return f"the bundled data of release {selection.binary} cannot be used ({broken[selection.binary]})"
    return f"there is no bundled data for release {selection.binary} (bundled: {', '.join(usable)})"


def resolve_selection(  # noqa: C901 - the checks in the order the real code runs them, kept in one place
    raw: Mapping[str, str | None],
    usable: Sequence[str],
    default_binary: str,
    broken: Mapping[str, str] | None = None,
) -> Resolved:
    """Turn raw query parameters into the selection they name.

    ``usable``: the releases whose bundled data loads; ``broken``: release -> why it cannot be
    used. Every value that is a version is kept, also when the binary would refuse it or there is
    no data for it (:func:`startup_errors`, :func:`missing_data` say so); a value that is not a
    version is replaced by its default and explained in ``problems``. An empty URL gives
    :func:`landing_selection`."""
    problems: list[str] = []
    component = KUBE_APISERVER
    text = raw.get("component")
    if text not in (None, ""):
        if text in COMPONENTS:
            component = text
        else:
            problems.append(f"component={repr_cut(text)} in the URL is not one of {', '.join(COMPONENTS)}; showing {KUBE_APISERVER}.")
    if all(raw.get(k) in (None, "") for k in ("binary", "emulated", "min_compat")):
        landing = landing_selection(default_binary)
        return Resolved(Selection(landing.binary, landing.emulated, None, raw.get("feature_gates") or "", None, component), tuple(problems))

    binary = default_binary
    patch = None
    text = raw.get("binary")
    if text not in (None, ""):
        try:
            binary = _release_of(text)
            patch = _patch_of(text)
        except KcompatError as exc:
            problems.append(f"binary={repr_cut(text)} in the URL is not a version ({exc}); showing the {default_binary} binary.")
    choices = _choices_or_none(binary)

    emulated = binary
    text = raw.get("emulated")
    if text not in (None, ""):
        try:
            emulated = _flag_value(text, "emulated-version") or emulated
        except KcompatError as exc:
            problems.append(f"emulated={repr_cut(text)} in the URL is not a valid emulated version ({exc}); showing {emulated}.")

    min_compat = None
    text = raw.get("min_compat")
    if text not in (None, ""):
        try:
            min_compat = _flag_value(text, "min-compatibility-version")
        except KcompatError as exc:
            default_mc = default_min_compat(binary, emulated)
            problems.append(
                f"min_compat={repr_cut(text)} in the URL is not a valid min compatibility version ({exc}); "
                f"using the default{' ' + default_mc if default_mc else ''}."
            )
        else:
            if choices is not None and choices.min_compat_flag and min_compat == default_min_compat(binary, emulated):
                min_compat = None

    feature_gates = raw.get("feature_gates") or ""
    text = raw.get("patch")
    if text not in (None, ""):
        if text.isascii() and text.isdigit() and len(text) <= 4:
            patch = str(int(text))
        else:
            problems.append(f"patch={repr_cut(text)} in the URL is not a patch number; showing the newest recorded patch.")
    return Resolved(Selection(binary, emulated, min_compat, feature_gates, patch, component), tuple(problems))


def _patch_of(text: str) -> str | None:
    """The patch of a binary typed as x.y.z ("2" for v1.35.2), None for x.y."""
    v = parse_binary_version(text)
    return str(v.components[2]) if len(v.components) > 2 else None


def _canonical(text: str | None, flag: str | None) -> str | None:
    """A typed version as ``x.y`` (``v1.30`` -> ``1.30``); text that is not a version is kept
    as typed, so the URL shows it and the next run explains it."""
    if text in (None, ""):
        return None
    try:
        return _release_of(text) if flag is None else _flag_value(text, flag) or text
    except KcompatError:
        return text


def after_change(selection: Selection, changed: str, value: str | None) -> Selection:
    """The selection after the user changed one control. The changed value is kept as chosen or
    typed (even when the binary would refuse it). A new binary keeps the emulated and min
    compatibility versions when it accepts them (else their defaults); a new emulated version
    keeps min compatibility when still accepted; the default min compatibility is stored as None."""
    binary, emulated, mc, fg = selection.binary, selection.emulated, selection.min_compat, selection.feature_gates
    patch, component = selection.patch, selection.component
    if changed == "binary":
        binary = _canonical(value, None) or binary
        try:
            patch = _patch_of(value) if value else None
        except KcompatError:
            patch = None
    elif changed == "patch":
        patch = value or None
    elif changed == "emulated":
        emulated = _canonical(value, "emulated-version") or emulated
    elif changed == "min_compat":
        mc = _canonical(value, "min-compatibility-version")
    elif changed == "feature_gates":
        fg = value or ""
    elif changed == "component":
        component = value if value in COMPONENTS else KUBE_APISERVER
    choices = _choices_or_none(binary)
    if choices is None:
        return Selection(binary, emulated, mc, fg, patch, component)
    if changed == "binary" and emulated not in choices.emulated:
        emulated = choices.default_emulated
    accepted = choices.min_compat.get(emulated, ())
    if mc is not None and (
        (changed != "min_compat" and (not choices.min_compat_flag or mc not in accepted))
        or (choices.min_compat_flag and mc == default_min_compat(binary, emulated))
    ):
        mc = None
    return Selection(binary, emulated, mc, fg, patch, component)
