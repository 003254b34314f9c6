"""``--feature-gates`` syntax (SPEC §5.1-§5.2).

kube-apiserver, kube-controller-manager and kube-scheduler register the flag through the
component registry: items may carry a ``component:`` prefix (only ``kube`` exists for
these binaries), the flag may be repeated, and all items of a component are joined into
one value that the gate parses (``SetWithLogger``). Errors here reject the whole value.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

from .errors import KcompatError, cut, quote_cut
from .record import Record, set_field

KUBE = "kube"
MAX_FLAG_LENGTH = 100_000

# Go's unicode.IsSpace (what strings.TrimSpace strips), which differs from str.isspace.
_GO_SPACE = frozenset(
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)


def go_trim_space(text: str) -> str:
    start, end = 0, len(text)
    while start < end and text[start] in _GO_SPACE:
        start += 1
    while end > start and text[end - 1] in _GO_SPACE:
        end -= 1
    return text[start:end]


_GO_BOOLS = {
    "1": True, "t": True, "T": True, "TRUE": True, "true": True, "True": True,
    "0": False, "f": False, "F": False, "FALSE": False, "false": False, "False": False,
}


def parse_go_bool(text: str) -> bool | None:
    """``strconv.ParseBool``: None when the text is not one of Go's boolean spellings."""
    return _GO_BOOLS.get(text)


class FeatureGateFlags(Record):
    """The parsed value: gate name -> bool in first-mention order, the last value winning."""

    __slots__ = ("values",)
    values: Mapping[str, bool]

    def __init__(self, values: Mapping[str, bool]) -> None:
        set_field(self, "values", values)

    @staticmethod
    def empty() -> FeatureGateFlags:
        return FeatureGateFlags(MappingProxyType({}))

    def __bool__(self) -> bool:
        return bool(self.values)


def split_components(flag_values: list[str]) -> dict[str, list[str]]:
    """``ColonSeparatedMultimapStringString`` with a default empty key, then the registry's
    component checks: items without a prefix belong to ``kube``."""
    by_component: dict[str, list[str]] = {}
    for value in flag_values:
        for pair in value.split(","):
            if not pair:
                continue
            if ":" in pair:
                component, item = pair.split(":", 1)
                component, item = go_trim_space(component), go_trim_space(item)
            else:
                component, item = "", go_trim_space(pair)
            by_component.setdefault(component, []).append(item)
    if "" in by_component and KUBE in by_component:
        raise KcompatError(
            "set kube feature gates with default empty prefix or kube: prefix consistently, do not mix use"
        )
    for component in by_component:
        if component not in ("", KUBE):
            raise KcompatError(f"component not registered: {cut(component)}")
    return by_component


def parse_gate_value(value: str) -> dict[str, bool]:
    """``featureGate.Set``: comma-separated ``Name=bool`` items, empty items skipped."""
    result: dict[str, bool] = {}
    for item in value.split(","):
        if not item:
            continue
        key, sep, raw = item.partition("=")
        key = go_trim_space(key)
        if not sep:
            raise KcompatError(f"missing bool value for {cut(key)}")
        raw = go_trim_space(raw)
        parsed = parse_go_bool(raw)
        if parsed is None:
            raise KcompatError(
                f"invalid value of {cut(key)}={cut(raw)}, err: strconv.ParseBool: parsing {quote_cut(raw)}: invalid syntax"
            )
        result[key] = parsed
    return result


def parse_feature_gates(flag_values: str | list[str] | tuple[str, ...]) -> FeatureGateFlags:
    """Parse one or more ``--feature-gates`` values as a kube control-plane binary does. The same
    values are parsed once (an upgrade plan evaluates them at every step and side: 10,000
    repeated values were parsed 12 times); a value refused raises again each time."""
    return _parse_feature_gates((flag_values,) if isinstance(flag_values, str) else tuple(flag_values))


@functools.lru_cache(maxsize=8)
def _parse_feature_gates(flag_values: tuple[str, ...]) -> FeatureGateFlags:
    # a pure function of immutable values with an immutable result (a MappingProxyType of bools)
    total = sum(len(v) for v in flag_values)
    if total > MAX_FLAG_LENGTH:
        raise KcompatError(f"--feature-gates value is {total:,} characters, more than the limit of {MAX_FLAG_LENGTH:,}")
    by_component = split_components(list(flag_values))
    items = by_component.get("", by_component.get(KUBE, []))
    return FeatureGateFlags(MappingProxyType(parse_gate_value(",".join(items))))
