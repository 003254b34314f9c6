"""The ``kcompat skew`` document, written from :class:`~kcompat.core.skew.SkewPolicy` (what
:func:`kcompat.answers.skew.skew` returns; the APIs page's "Version skew" tab shows
:func:`skew_rows`)::

    {"binary", "emulated", "minCompatibility",
     "components": [{"component", "emulationAware": {"low", "high", "rule", "documented"},
                     "classic": {"low", "high", "rule"}}]}

Ranges are inclusive major.minor versions; ``documented`` is false for a range this project
derives where KEP-4330 states no rule (kube-apiserver peers).
"""

from __future__ import annotations

from kcompat.core.skew import SkewPolicy
from kcompat.documents import formats

#: The table columns (the CLI's text formats and the page's grid).
ROW_COLUMNS = ("component", "emulation-aware range", "emulation-aware rule", "classic range", "classic rule")


def skew_document(policy: SkewPolicy) -> dict[str, object]:
    """The JSON contract of ``kcompat skew``."""
    components = []
    for aware in policy.emulation_aware:
        classic = policy.classic_for(aware.component)
        components.append({
            "component": aware.component,
            "emulationAware": {"low": str(aware.low), "high": str(aware.high), "rule": aware.rule, "documented": aware.documented},
            "classic": {"low": str(classic.low), "high": str(classic.high), "rule": classic.rule},
        })
    return {"binary": str(policy.binary), "emulated": str(policy.emulated), "minCompatibility": str(policy.min_compat), "components": components}


def skew_rows(policy: SkewPolicy) -> list[dict[str, str]]:
    """One row per component: both ranges and the rules that give them."""
    rows = []
    for aware in policy.emulation_aware:
        classic = policy.classic_for(aware.component)
        rows.append({
            "component": aware.component,
            "emulation-aware range": str(aware),
            "emulation-aware rule": aware.rule if aware.documented else f"{aware.rule} [not a documented rule]",
            "classic range": str(classic),
            "classic rule": classic.rule,
        })
    return rows


def skew_text(policy: SkewPolicy, fmt: str) -> str:
    """What ``kcompat skew --format <fmt>`` prints on stdout."""
    if fmt == "json":
        return formats.to_json(skew_document(policy))
    return formats.render_rows(fmt, skew_rows(policy), ROW_COLUMNS)
