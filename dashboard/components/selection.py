"""The selection bar shared by every page, kept in the URL.

The URL (``st.query_params``: ``binary``, ``emulated``, ``min_compat``, ``feature_gates``) is
the source of truth. Each run reads it, replaces bad values by their defaults (with a warning
naming the value), writes the canonical values back and draws the controls from it. A control's
``on_change`` callback writes the new value into the URL before the rerun, so controls and URL
never disagree. The last selection is also kept in the session: the navigation menu drops the
query string when switching pages, and the selection is restored from there.
"""

from __future__ import annotations

import functools

import streamlit as st

from dashboard.core.errors import KcompatError, shown

from . import data, hosting
from .state import PARAM_KEYS, Resolved, Selection, after_change, binary_choices, resolve_selection
from .text import md

hosting.harden_server()

WIDGET = {
    "binary": "sel_binary",
    "emulated": "sel_emulated",
    "min_compat": "sel_min_compat",
    "feature_gates": "sel_feature_gates",
}
SAVED = "_selection"


#: Longest raw query (all selection values together) used as a cache key; a longer one is
#: resolved uncached, so the memo below holds at most 256 x (2,000 characters + one Resolved).
_MEMO_KEY_MAX = 2_000


def _resolve(raw: tuple[tuple[str, str | None], ...]) -> Resolved:
    s = data.summary()
    if sum(len(v) for _, v in raw if v) > _MEMO_KEY_MAX:
        return resolve_selection(dict(raw), s.usable, s.default_binary, dict(s.broken))
    return _resolve_memo(raw, s.usable, s.default_binary, s.broken)


@functools.lru_cache(maxsize=256)
def _resolve_memo(raw, usable, default_binary, broken) -> Resolved:
    # Pure and immutable in, immutable out: memoised per process (every rerun resolves the URL).
    return resolve_selection(dict(raw), usable, default_binary, dict(broken))


def current() -> Selection:
    """The selection of this run (set by :func:`selection_bar` in the entry script)."""
    sel = st.session_state.get(SAVED)
    if sel is None:  # a page run on its own (tests): resolve from the URL without drawing anything
        sel = _resolve(_raw_items()).selection
    return sel


def _raw_items() -> tuple[tuple[str, str | None], ...]:
    params = st.query_params.to_dict()
    return tuple((k, params.get(k)) for k in PARAM_KEYS)


def write_url(params: dict[str, str]) -> None:
    """Make the selection keys of the URL equal ``params``; other keys (``gate``) are kept."""
    qp = st.query_params
    current_items = qp.to_dict()
    wanted = {k: v for k, v in current_items.items() if k not in PARAM_KEYS}
    wanted.update(params)
    if wanted != current_items:
        qp.from_dict(wanted)


def _on_change(name: str) -> None:
    sel = st.session_state.get(SAVED) or _resolve(_raw_items()).selection
    new = after_change(sel, name, st.session_state.get(WIDGET[name]))
    st.session_state[SAVED] = new
    write_url(new.params())


def selection_bar() -> Selection:
    """Draw the shared controls at the top of the page and return the selection."""
    raw = _raw_items()
    if all(v is None for _, v in raw) and SAVED in st.session_state:
        # The navigation menu drops the query string on a page switch: keep the selection.
        raw = tuple((k, st.session_state[SAVED].params().get(k)) for k in PARAM_KEYS)
    try:
        summary = data.summary()
    except KcompatError as exc:  # no release list, or not one release loads
        st.error(f"The bundled data cannot be used: {md(exc)}", icon=":material/error:")
        st.stop()
    resolved = _resolve(raw)
    for release, problem in summary.broken:
        st.error(f"The bundled data of release {md(release)} cannot be used: {md(problem)}", icon=":material/error:")
    for problem in shown(resolved.problems):
        st.warning(md(problem), icon=":material/link_off:")
    sel = resolved.selection
    write_url(sel.params())
    st.session_state[SAVED] = sel

    opts = binary_choices(sel.binary)
    default_mc = opts.default_min_compat[sel.emulated]
    state = st.session_state
    state[WIDGET["binary"]] = sel.binary
    state[WIDGET["emulated"]] = sel.emulated
    state[WIDGET["feature_gates"]] = sel.feature_gates

    with st.container(border=True, horizontal=True, vertical_alignment="bottom"):
        st.selectbox(
            "Binary release",
            summary.usable,
            key=WIDGET["binary"],
            format_func=summary.labels.get,
            on_change=_on_change,
            args=("binary",),
            width=190,
            help="The release the kube-apiserver / controller-manager / scheduler binary was built from. "
            "Only releases whose bundled data loads are listed.",
        )
        st.selectbox(
            "Emulated version",
            tuple(reversed(opts.emulated)),
            key=WIDGET["emulated"],
            format_func=lambda v: f"{v} (not emulating)" if v == sel.binary else v,
            on_change=_on_change,
            args=("emulated",),
            width=190,
            help=f"`--emulated-version`. A {sel.binary} binary accepts {opts.emulated_range}"
            + (f" (floor {opts.floor} = max(binary − 3, 1.31))." if opts.floor else ".")
            + " Feature-gate stages and defaults follow this version.",
        )
        if opts.min_compat_flag:
            state[WIDGET["min_compat"]] = sel.min_compat or default_mc
            st.selectbox(
                "Min compatibility version",
                tuple(reversed(opts.min_compat[sel.emulated])),
                key=WIDGET["min_compat"],
                format_func=lambda v: f"{v} (default)" if v == default_mc else v,
                on_change=_on_change,
                args=("min_compat",),
                width=190,
                help="`--min-compatibility-version` (1.35+): the oldest control-plane release this server stays "
                f"compatible with. Allowed: floor … emulated version; default {default_mc} (emulated − 1, not below the floor).",
            )
        else:
            state["sel_min_compat_fixed"] = default_mc
            st.selectbox(
                "Min compatibility version",
                (default_mc,),
                key="sel_min_compat_fixed",
                disabled=True,
                width=190,
                help=f"A {sel.binary} binary has no `--min-compatibility-version` flag (it exists from 1.35); "
                f"the value is derived: {default_mc}.",
            )
        st.text_input(
            "--feature-gates",
            key=WIDGET["feature_gates"],
            on_change=_on_change,
            args=("feature_gates",),
            placeholder="e.g. AllAlpha=true,JobManagedBy=false",
            help="The `--feature-gates` value, as on the command line: comma-separated `Name=true|false` items, "
            "optionally prefixed `kube:`. Applied like the binary does; a rejected value changes nothing.",
        )
    return sel


def flag_messages(sel: Selection) -> None:
    """The --feature-gates errors and warnings, right under the selection bar."""
    if not sel.feature_gates:
        return
    show_flag_messages(data.gates_view(sel))


def show_flag_messages(view: data.GatesView) -> None:
    """A gates view's errors and warnings (startup range errors included)."""
    for error in shown(view.errors):
        st.error(md(error), icon=":material/block:")
    for hint in view.hints:
        st.info(md(hint), icon=":material/lightbulb:")
    if view.flag_errors:
        st.caption("The binary would refuse this `--feature-gates` value: nothing is applied, every gate shows its default.")
    for warning in shown(view.warnings):
        st.warning(md(warning), icon=":material/warning:")
