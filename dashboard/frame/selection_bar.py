"""The selection bar shared by every page, kept in the URL.

The URL (``st.query_params``: ``binary``, ``emulated``, ``min_compat``, ``feature_gates``,
``patch`` and ``component``) is
the source of truth. Each run reads it, replaces values that are not versions by their defaults
(with a warning naming the value), writes the canonical values back and draws the controls from
it. Versions the binary would refuse (out of range, a flag it does not have, no bundled data) are
kept, typed or linked, and :func:`show_refusal` shows the binary's errors in a red state instead
of an answer. A control's ``on_change`` callback writes the new value into the URL before the
rerun, so controls and URL never disagree. The last selection is also kept in the session: the navigation menu drops the
query string when switching pages, and the selection is restored from there.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import streamlit as st

from dashboard import data
from dashboard.gates_view import GatesView
from dashboard.state.selection import (
    PARAM_KEYS,
    Resolved,
    Selection,
    after_change,
    binary_choices,
    default_min_compat,
    missing_data,
    resolve_selection,
    startup_errors,
    startup_hints,
)
from dashboard.text import code, md
from kcompat.core.components import COMPONENTS, KUBE_APISERVER, apiserver_only
from kcompat.core.errors import KcompatError, shown

WIDGET = {
    "binary": "sel_binary",
    "emulated": "sel_emulated",
    "min_compat": "sel_min_compat",
    "feature_gates": "sel_feature_gates",
    "patch": "sel_patch",
    "component": "sel_component",
}
#: The key of the bar's container (its class ``st-key-kc-selection-bar``: what a picture without
#: the app's chrome hides, ``kcompat screenshots --no-chrome``).
BAR_KEY = "kc-selection-bar"
SAVED = "_selection"
NOTES = "_selection_notes"


#: Longest raw query (all selection values together) used as a cache key; a longer one is
#: resolved uncached, so the memo below holds at most 256 x (2,000 characters + one Resolved).
_MEMO_KEY_MAX = 2_000


def _resolve(raw: tuple[tuple[str, str | None], ...]) -> Resolved:
    s = data.summary()
    if sum(len(v) for _, v in raw if v) > _MEMO_KEY_MAX:
        return resolve_selection(dict(raw), s.usable, s.default_binary, dict(s.broken))
    return _resolve_memo(raw, s.usable, s.default_binary, s.broken)


@functools.lru_cache(maxsize=256)
def _resolve_memo(
    raw: tuple[tuple[str, str | None], ...], usable: tuple[str, ...], default_binary: str, broken: tuple[tuple[str, str], ...]
) -> Resolved:
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
    notes = adjustment_notes(sel, new, name)
    if notes:
        st.session_state[NOTES] = notes


def adjustment_notes(old: Selection, new: Selection, changed: str) -> tuple[str, ...]:
    """What else changed when one control did (a new binary that does not accept the emulated or
    min compatibility version): said on the next run, never done silently."""
    notes = []
    if changed == "binary" and new.binary != old.binary:
        try:
            accepted = binary_choices(new.binary).emulated_range
        except KcompatError:
            accepted = None
        if new.emulated != old.emulated:
            notes.append(
                f"A {new.binary} binary does not accept --emulated-version={old.emulated}"
                + (f" (it accepts {accepted})" if accepted else "")
                + f": the emulated version is now {new.emulated}."
            )
    if changed != "min_compat" and old.min_compat is not None and new.min_compat is None:
        notes.append(
            f"--min-compatibility-version={old.min_compat} does not fit a {new.binary} binary emulating {new.emulated}: "
            "the default is used now."
        )
    return tuple(notes)


def _keep(raw: tuple[tuple[str, str | None], ...]) -> Resolved:
    """Resolve the URL (or, when the navigation menu dropped it, the session's last selection),
    write the canonical values back and keep the selection in the session."""
    if all(v is None for _, v in raw) and SAVED in st.session_state:
        # The navigation menu drops the query string on a page switch: keep the selection.
        raw = tuple((k, st.session_state[SAVED].params().get(k)) for k in PARAM_KEYS)
    resolved = _resolve(raw)
    write_url(resolved.selection.params())
    st.session_state[SAVED] = resolved.selection
    return resolved


def keep_selection() -> Selection:
    """For a page the selection does not affect: keep it (session and URL) without drawing it."""
    try:
        return _keep(_raw_items()).selection
    except KcompatError:  # no usable data: the page itself says so
        return Selection("", "")


def selection_bar(intro: Callable[[Selection], None] | None = None) -> Selection:
    """Draw the shared controls at the top of the page and return the selection. ``intro`` is
    drawn first (the landing page's heading), with the selection about to be shown."""
    try:
        summary = data.summary()
    except KcompatError as exc:  # no release list, or not one release loads
        st.error(f"The bundled data cannot be used: {md(exc)}", icon=":material/error:")
        st.stop()
    resolved = _keep(_raw_items())
    sel = resolved.selection
    if intro is not None:
        intro(sel)
    for release, problem in summary.broken:
        st.error(f"The bundled data of release {md(release)} cannot be used: {md(problem)}", icon=":material/error:")
    for problem in shown(resolved.problems):
        st.warning(md(problem), icon=":material/link_off:")
    for note in st.session_state.pop(NOTES, ()):
        st.info(md(note), icon=":material/sync_alt:")

    try:
        opts = binary_choices(sel.binary)
    except KcompatError:  # a release before compatibility versions: no ranges to offer
        opts = None
    emulated_opts = tuple(reversed(opts.emulated)) if opts else ()
    min_compat_flag = opts.min_compat_flag if opts else False
    default_mc = default_min_compat(sel.binary, sel.emulated)
    accepted_mc = tuple(reversed(opts.min_compat.get(sel.emulated, ()))) if opts else ()
    state = st.session_state
    state[WIDGET["binary"]] = sel.binary
    state[WIDGET["emulated"]] = sel.emulated
    state[WIDGET["feature_gates"]] = sel.feature_gates
    state[WIDGET["component"]] = sel.component

    def with_current(options: tuple[str, ...], value: str | None) -> tuple[str, ...]:
        return options if value is None or value in options else (value, *options)

    with st.container(border=True, horizontal=True, vertical_alignment="bottom", key=BAR_KEY):
        st.selectbox(
            "Component",
            COMPONENTS,
            key=WIDGET["component"],
            on_change=_on_change,
            args=("component",),
            width=210,
            help="The control-plane component: each registers its own feature gate (kube's gates, client-go's and what its "
            "own main adds or overrides), read from its recording. Built-in APIs and storage are kube-apiserver's only.",
        )
        st.selectbox(
            "Binary release",
            with_current(summary.usable, sel.binary),
            key=WIDGET["binary"],
            # a picked patch is what the label names ("1.35 (v1.35.0)"), not the release's newest
            format_func=lambda v: (f"{v} (v{v}.{sel.patch})" if v == sel.binary and sel.patch else summary.labels.get(v))
            or (f"{v} (data cannot be used)" if v in dict(summary.broken) else f"{v} (no bundled data)"),
            on_change=_on_change,
            args=("binary",),
            accept_new_options=True,
            width=190,
            help="The release the kube-apiserver / controller-manager / scheduler binary was built from. "
            "The listed releases have bundled data; another version can be typed.",
        )
        patches = data.patch_options(sel.binary)
        if len(patches) > 1:
            state[WIDGET["patch"]] = sel.patch or ""
            st.selectbox(
                "Patch",
                ("", *patches[:-1]) if sel.patch in (None, "", *patches[:-1]) else ("", sel.patch, *patches[:-1]),
                key=WIDGET["patch"],
                format_func=lambda n: f"v{sel.binary}.{patches[-1]} (newest)" if n == "" else f"v{sel.binary}.{n}",
                on_change=_on_change,
                args=("patch",),
                width=150,
                help=f"The binary's patch release: gate defaults can change between patches. Recorded from the real "
                f"releases: {', '.join(f'v{sel.binary}.{n}' for n in patches)}; a plain {sel.binary} means the newest.",
            )
        st.selectbox(
            "Emulated version",
            with_current(emulated_opts, sel.emulated),
            key=WIDGET["emulated"],
            format_func=lambda v: f"{v} (not emulating)"
            if v == sel.binary
            else (v if v in emulated_opts else f"{v} (out of range)"),
            on_change=_on_change,
            args=("emulated",),
            accept_new_options=True,
            width=190,
            help=(
                f"`--emulated-version`. A {sel.binary} binary accepts {opts.emulated_range}"
                + (f" (floor {opts.floor} = max(binary − 3, 1.31))." if opts.floor else ".")
                if opts
                else "`--emulated-version`."
            )
            + " Feature-gate stages and defaults follow this version. Any version can be typed: "
            "one the binary refuses shows its startup errors.",
        )
        if min_compat_flag:
            state[WIDGET["min_compat"]] = sel.min_compat or default_mc
            st.selectbox(
                "Min compatibility version",
                with_current(with_current(accepted_mc, default_mc), sel.min_compat),
                key=WIDGET["min_compat"],
                format_func=lambda v: f"{v} (default)" if v == default_mc else (v if v in accepted_mc else f"{v} (out of range)"),
                on_change=_on_change,
                args=("min_compat",),
                accept_new_options=True,
                width=190,
                help="`--min-compatibility-version` (1.35+): the oldest control-plane release this server stays "
                f"compatible with. Allowed: floor … emulated version; default {default_mc} (emulated − 1, not below the floor). "
                "Any version can be typed: one the binary refuses shows its startup errors.",
            )
        else:
            fixed = sel.min_compat or default_mc or "—"
            state["sel_min_compat_fixed"] = fixed
            st.selectbox(
                "Min compatibility version",
                (fixed,),
                key="sel_min_compat_fixed",
                disabled=True,
                width=190,
                help=f"A {sel.binary} binary has no `--min-compatibility-version` flag (it exists from 1.35); "
                f"the value is derived: {default_mc or 'none'}.",
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


def version_flags(sel: Selection) -> str:
    """The version flags of a selection as they would be typed on the command line."""
    flags = [f"--emulated-version={sel.emulated}"] if sel.is_emulating else []
    if sel.min_compat is not None:
        flags.append(f"--min-compatibility-version={sel.min_compat}")
    return " ".join(flags)


@functools.lru_cache(maxsize=256)
def _refusal(sel: Selection, usable: tuple[str, ...], broken: tuple[tuple[str, str], ...]) -> tuple[tuple[str, ...], str | None]:
    # pure and immutable in and out: memoised per process (every rerun asks)
    return startup_errors(sel), missing_data(sel, usable, dict(broken))


def show_refusal(sel: Selection) -> bool:
    """The red state of a selection the binary would not start with (its exact startup errors),
    or for which there is no bundled data. Returns True when shown: the page must not answer."""
    summary = data.summary()
    errors, no_data = _refusal(sel, summary.usable, summary.broken)
    if not errors and no_data is None:
        return False
    if errors:
        flags = version_flags(sel)
        lines = [
            f"**A {md(sel.binary)} binary would refuse to start** "
            + (f"with {code(flags)}" if flags else "")
            + ": kube-apiserver, kube-controller-manager and kube-scheduler exit at startup with",
            *(f"{code('error: ' + e)}" for e in errors),
        ]
        st.error("  \n".join(lines), icon=":material/block:")
        for hint in startup_hints(sel):
            st.info(md(hint), icon=":material/lightbulb:")
    if no_data is not None:
        st.error(f"**Nothing to show**: {md(no_data)}.", icon=":material/error:")
    if errors:
        rng = binary_choices(sel.binary).emulated_range if no_data is None else None
        st.caption(
            "No gate, API or change is shown for a selection the binary refuses"
            + (f": pick an emulated version in {rng} above." if rng else ".")
        )
    return True


#: the pages that answer with the selection's component's own gate set
COMPONENT_PAGES = ("gates", "changes")


def show_component_state(sel: Selection, key: str) -> bool:
    """What the selection's component means on page ``key``: nothing for kube-apiserver; on the
    APIs page, that only kube-apiserver serves APIs (``kcompat apis --component``'s refusal); on
    Gates and What changes, that its gate set is not recorded for the release when it is not;
    elsewhere, that the page shows kube-apiserver's gates. Returns True when the page must not
    answer."""
    if sel.component == KUBE_APISERVER:
        return False
    if key == "apis":
        try:
            apiserver_only(sel.component, "built-in APIs")
        except KcompatError as exc:
            st.error(md(exc), icon=":material/block:")
            return True
    if key in COMPONENT_PAGES:
        problem = data.component_problem(sel.binary_version, sel.component)
        if problem is not None:
            st.error(f"**Nothing to show**: {md(problem)}.", icon=":material/error:")
            return True
        return False
    st.caption(f"This page shows kube-apiserver's gates: the component ({md(sel.component)}) applies to Gates and What changes.")
    return False


def flag_messages(sel: Selection) -> None:
    """The --feature-gates errors and warnings, right under the selection bar."""
    if not sel.feature_gates:
        return
    show_flag_messages(data.gates_view(sel))


def show_flag_messages(view: GatesView) -> None:
    """A gates view's errors and warnings (startup range errors included), and the amber state of
    a selection kube-apiserver starts with but never becomes ready (the reasons, then the remedies)."""
    for error in shown(view.errors):
        st.error(md(error), icon=":material/block:")
    if view.not_ready and not view.errors:
        lines = ["**kube-apiserver would start but not become ready** with these flags "
                 "(`kcompat gates` exits with status 3; kube-controller-manager and kube-scheduler start):",
                 *(f"- {md(reason)}" for reason in shown(view.not_ready))]
        st.warning("\n".join(lines), icon=":material/hourglass_disabled:")
    for hint in view.hints:
        st.info(md(hint), icon=":material/lightbulb:")
    if view.flag_errors:
        st.caption("The binary would refuse this `--feature-gates` value: nothing is applied, every gate shows its default.")
    for warning in shown(view.warnings):
        st.warning(md(warning), icon=":material/warning:")
