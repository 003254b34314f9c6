"""Upgrade plan: from the selected binary and emulated version to a target binary, step by step.

The plan, its JSON and its Markdown export come from :mod:`kcompat.documents.plan`: the same as
``kcompat plan --from B@E --to T [--allow-multi-minor]``. The target is kept in the URL as ``to`` (the page's
:class:`~dashboard.state.view_state.ViewState`, written even when it is the default: the
newest bundled release moves with the data).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Literal

import pandas as pd
import streamlit as st

from dashboard import data
from dashboard.frame.selection_bar import current
from dashboard.state.view_state import ViewState
from dashboard.tables.downloads import table_csv
from dashboard.tables.table_text import (
    TextTable,
    config_labels,
    table_as_text,
    tables_as_text,
)
from dashboard.tables.text_width import fit_columns
from dashboard.text import code, md
from kcompat.answers.plan import PlanQuery, StepStartup, plan_report
from kcompat.core.errors import KcompatError
from kcompat.core.plan import PlanStep, UpgradePlan, parse_plan_endpoint
from kcompat.core.request import Request
from kcompat.core.versions import parse_version
from kcompat.documents.commands import same_as
from kcompat.documents.plan import plan_markdown

TO = "to"
#: The colours a badge may have (st.badge)
BadgeColor = Literal["red", "orange", "yellow", "blue", "green", "violet", "gray", "grey", "primary"]
KIND_LABELS: dict[str, tuple[str, str, BadgeColor]] = {
    "binary": ("Binary upgrade", ":material/upgrade:", "blue"),
    "emulation": ("Emulation step", ":material/history:", "violet"),
    "nodes": ("Kubelet upgrade", ":material/dns:", "green"),
}


def targets(binary: str) -> tuple[str, ...]:
    """Bundled usable releases at or after the binary (oldest first)."""
    b = parse_version(binary)
    return tuple(r for r in data.summary().usable if parse_version(r) >= b)


def default_target(options: tuple[str, ...]) -> str:
    newest = data.summary().default_binary
    return newest if newest in options else options[-1]


def target_reader(binary: str, options: tuple[str, ...]) -> Callable[[str], tuple[str | None, str | None]]:
    """Reads a ``to`` URL value that is not a target's text (``v1.36``, ``1.36.2``): ``(target,
    None)``, or ``(None, why it cannot be planned to)``."""

    def resolve(text: str) -> tuple[str | None, str | None]:
        try:
            release, emulated = parse_plan_endpoint(text)
        except KcompatError as exc:
            return None, f"is not a binary release ({exc})"
        if emulated is not None:
            return None, "names an emulated version: the target is a binary release only (the plan ends emulating the target's own version)"
        value = f"{release.major}.{release.minor}"
        if value in options:
            return value, None
        if parse_version(value) < parse_version(binary):
            return None, f"is older than the current {binary} binary"
        usable = data.summary().usable
        return None, f"names no bundled release: there is no bundled release {value} (bundled: {', '.join(usable)})"

    return resolve


@st.cache_data(show_spinner="Planning the upgrade…", max_entries=64)
def _plan(start: str, target: str, jumps: bool = False, feature_gates: str = "") -> tuple[UpgradePlan, str, dict[int, StepStartup]] | str:
    """(plan, Markdown, kube-apiserver's start-up by step number) for ``kcompat plan --from <start>
    --to <target> [--feature-gates ...]``, or why there is none."""
    try:
        # (the request's binary and versions are each point's own: only its --feature-gates is read)
        report = plan_report(data.catalog(), PlanQuery(start, target, jumps), Request.of(None, feature_gates=feature_gates or None))
        plan, startups = report.plan, report.startups
    except KcompatError as exc:
        return str(exc)
    return plan, plan_markdown(plan, startups=startups), {s.number: s for s in startups}


def _show_startup(startup: StepStartup | None) -> None:
    """A point of the plan kube-apiserver would refuse, or start but not become ready at, with the
    selection's --feature-gates kept through the upgrade (red / amber, with the remedies)."""
    if startup is None or startup.verdict == "starts":
        return
    head = f"kube-apiserver {md(startup.binary)} emulating {md(startup.emulated)} with these --feature-gates"
    if startup.verdict == "refuses":
        st.error("  \n".join([f"**{head} would refuse to start**:", *(code("error: " + e) for e in startup.errors)]), icon=":material/block:")
    else:
        st.warning("\n".join([f"**{head} would start but not become ready**:", *(f"- {md(r)}" for r in startup.not_ready)]),
                   icon=":material/hourglass_disabled:")
    for hint in startup.hints:
        st.info(md(hint), icon=":material/lightbulb:")


def _skew_ok(step: PlanStep) -> bool:
    return all(c.ok and c.classic_ok for c in step.skew_checks)


def _overview(plan: UpgradePlan) -> pd.DataFrame:
    rows = [
        {
            "step": s.number,
            "kind": KIND_LABELS.get(s.kind, (s.kind,))[0],
            "what": s.title,
            "binary": str(s.after.binary),
            "emulated": str(s.after.emulated),
            "min compat": str(s.after.min_compat),
            "gates": len(s.gate_changes),
            "APIs": len(s.api_changes),
            "storage": len(s.storage_changes),
            "skew": "ok" if _skew_ok(s) else "out of range",
            "supported": "yes" if s.supported else "no",
            "rollback": "yes" if s.rollback is not None and s.rollback.supported else "no",
        }
        for s in plan.steps
    ]
    columns = ["step", "kind", "what", "binary", "emulated", "min compat", "gates", "APIs", "storage", "skew", "supported", "rollback"]
    return pd.DataFrame(rows, columns=columns)


def _show_step(step: PlanStep, stem: str, startup: StepStartup | None = None) -> None:
    label, icon, color = KIND_LABELS.get(step.kind, (step.kind, ":material/circle:", "gray"))
    n = step.number
    with st.container(border=True, key=f"plan_step_{n}"):
        with st.container(horizontal=True):
            st.badge(label, icon=icon, color=color)
            if not step.supported:
                st.badge("Not supported", icon=":material/block:", color="red")
        st.markdown(f"**Step {n}: {md(step.title)}**")
        if step.supported:
            st.caption(f"Supported: {md(step.why)}")
        else:
            st.error(f"Not supported: {md(step.why)}", icon=":material/block:")
        if step.rollback is not None:
            st.markdown(f"Rollback: {md(step.rollback.text)}")
            st.markdown(f"Rehearsal: {md(step.rollback.rehearsal)}")
        after = step.after
        st.markdown(
            f"Flags after this step: binary {code(after.binary)}, {code(after.flags())}, min compatibility {code(after.min_compat)}"
        )
        st.markdown("Order:  \n" + "  \n".join(f"{i}\\. {md(o)}" for i, o in enumerate(step.order, 1)))
        _show_startup(startup)
        for error in step.errors:
            st.error(md(error), icon=":material/block:")
        on, off = len(step.gates_turned_on), len(step.gates_turned_off)
        changes = (
            ("gates", f"Feature gates that change ({len(step.gate_changes)}: {on} turn on, {off} turn off)",
             pd.DataFrame([{"gate": c.name, "before": c.before, "after": c.after} for c in step.gate_changes],
                          columns=["gate", "before", "after"])),
            ("apis", f"APIs that change ({len(step.api_changes)})",
             pd.DataFrame([{"api": c.group_version_kind, "change": "now served" if c.served_after else "no longer served"}
                           for c in step.api_changes], columns=["api", "change"])),
            ("storage", f"Storage versions that change, of the resources served after this step ({len(step.storage_changes)}; - = not served before)",
             pd.DataFrame([{"resource": c.group_kind, "before": c.before, "after": c.after} for c in step.storage_changes],
                          columns=["resource", "before", "after"])),
        )
        texts = []  # the step's grids as text, in one expander under them (expanders do not nest)
        for name, title, frame in changes:
            if frame.empty:
                st.caption(f"{title}: none.")
                continue
            what = f"Step {n}: {title}"
            texts.append(TextTable(frame, f"{what}: {len(frame)} rows"))
            with st.expander(title):
                st.dataframe(frame, key=f"plan_step_{n}_{name}", hide_index=True, height=min(36 + 35 * len(frame), 360), alt=what)
                table_csv(frame.to_dict("records"), frame.columns, file_name=f"{stem}-step-{n}-{name}.csv", key=f"plan_step_{n}_{name}_csv")
        skew = pd.DataFrame(
            [
                {
                    "component": c.component,
                    "binary": c.binary,
                    "at": c.version,
                    "allowed (emulation-aware)": c.allowed,
                    "emulation-aware": "ok" if c.ok else "out of range",
                    "allowed (classic)": c.classic_allowed,
                    "classic": "ok" if c.classic_ok else "out of range",
                }
                for c in step.skew_checks
            ],
            columns=["component", "binary", "at", "allowed (emulation-aware)", "emulation-aware", "allowed (classic)", "classic"],
        )
        with st.container(horizontal=True, vertical_alignment="center"):
            st.markdown("Skew checks during this step")
            table_csv(skew.to_dict("records"), skew.columns, file_name=f"{stem}-step-{n}-skew.csv", key=f"plan_step_{n}_skew_csv")
        skew_what = f"Step {n}: skew checks"
        st.dataframe(
            skew,
            key=f"plan_step_{n}_skew",
            hide_index=True,
            column_config={
                "binary": st.column_config.TextColumn("binary", help="The component's binary release during this step"),
                "at": st.column_config.TextColumn("at", help="The version the component presents during this step (its emulated version)"),
                "emulation-aware": st.column_config.TextColumn(
                    "emulation-aware", help="KEP-4330: skew measured against the emulated and min compatibility versions"
                ),
                "classic": st.column_config.TextColumn("classic", help="The Version Skew Policy, on the binaries"),
            },
            alt=skew_what,
        )
        tables_as_text(f"table_text_plan_step_{n}", [*texts, TextTable(skew, f"{skew_what}: {len(skew)} rows")])
        for c in step.skew_checks:
            if not c.ok:
                st.warning(
                    f"{md(c.component)} at {md(c.version)} is out of the emulation-aware range {md(c.allowed)} during this step.",
                    icon=":material/warning:",
                )
            if not c.classic_ok:
                st.warning(
                    f"{md(c.component)} binary {md(c.binary)} is out of the Version Skew Policy range {md(c.classic_allowed)} "
                    "during this step.",
                    icon=":material/warning:",
                )


# ---------------------------------------------------------------------------------------------
# The page

sel = current()
options = targets(sel.binary)
plan_view = ViewState("plan", url_keys={"to": TO})
url_problems = st.container()
heading = st.container()  # names the target, which the control under it reads
start = f"{sel.binary}@{sel.emulated}"
with st.container(horizontal=True, vertical_alignment="bottom"):
    newest = default_target(options)
    target = plan_view.selectbox(
        "to",
        "Target binary",
        tuple(reversed(options)),
        default=newest,
        pin=True,  # the default follows the bundled data: a link keeps its target
        follows_selection=True,
        resolve=target_reader(sel.binary, options),
        instead=f"planning to {newest}",
        width=190,
        help=f"The release to upgrade the control plane to: bundled releases from the current binary {sel.binary} on. "
        "The plan ends emulating the target's own version. The current binary and emulated version are the selection above.",
    )
    jumps = plan_view.toggle(
        "jumps",
        "Allow multi-minor binary jumps",
        help="Let a binary step skip minor releases. Outside the Version Skew Policy: every such step is marked not "
        "supported, with the reason (`kcompat plan --allow-multi-minor`).",
    )
heading.subheader(
    f"Upgrade plan: {sel.binary} (emulating {sel.emulated}) → {target}",
    anchor=False,
    help="Binaries one minor at a time (the Version Skew Policy) while holding the emulated version, then the emulated "
    "version one minor at a time, kubelets when the skew requires it; what every step changes and how to roll it back. "
    "The same plan as `kcompat plan`.",
)
with url_problems:
    plan_view.show_problems()
if sel.min_compat is not None:
    st.caption(
        "The plan uses the default min compatibility version at every step: the selection's min compatibility is not applied here."
    )
if sel.feature_gates:
    st.caption(
        "The selection's --feature-gates are kept through the upgrade: each step shows the gates with them, and whether "
        "kube-apiserver would start and become ready with them (`kcompat plan --feature-gates`)."
    )

result = _plan(start, target, jumps, sel.feature_gates)
if isinstance(result, str):
    st.error(f"No plan: {md(result)}", icon=":material/error:")
    st.stop()
plan, markdown, startups = result
_show_startup(startups.get(0))

for note in plan.notes:
    st.info(md(note), icon=":material/info:")

with st.container(horizontal=True, vertical_alignment="center"):
    st.download_button(
        "Download as Markdown",
        data=functools.partial(str, markdown),  # the file's text, handed over when the button is clicked
        file_name=f"upgrade-plan-{sel.binary}-emulating-{sel.emulated}-to-{target}.md",
        mime="text/markdown",
        key="plan_download",
        on_click="ignore",
        icon=":material/download:",
        help="The whole plan as a Markdown document: what `kcompat plan --format markdown` prints.",
    )
    st.code(same_as("plan", from_=start, to=target, allow_multi_minor=jumps, feature_gates=sel.feature_gates), language=None, width="content")  # no syntax colours: they fail contrast

if plan.steps:
    with st.container(horizontal=True):
        st.metric("Steps", len(plan.steps), help="Binary upgrades, emulation steps and kubelet upgrades, in order.")
        st.metric("Binary upgrades", sum(s.kind == "binary" for s in plan.steps), help="Control-plane binary upgrades.")
        st.metric("Emulation steps", sum(s.kind == "emulation" for s in plan.steps), help="--emulated-version raised one minor.")
        st.metric("Kubelet upgrades", sum(s.kind == "nodes" for s in plan.steps), help="Node upgrades the skew requires.")
    overview = _overview(plan)
    stem = f"upgrade-plan-{sel.binary}-emulating-{sel.emulated}-to-{target}"
    overview_what = f"Upgrade plan from {sel.binary} (emulating {sel.emulated}) to {target}"
    overview_config = {
        "what": st.column_config.TextColumn("what", width="large"),
        "binary": st.column_config.TextColumn("binary", help="Control-plane binary after the step"),
        "emulated": st.column_config.TextColumn("emulated", help="--emulated-version after the step"),
        "min compat": st.column_config.TextColumn("min compat", help="Min compatibility version after the step"),
        "gates": st.column_config.NumberColumn("gates", help="Feature gates whose stage, lock or value changes"),
        "APIs": st.column_config.NumberColumn("APIs", help="Kinds that start or stop being served"),
        "storage": st.column_config.NumberColumn("storage", help="Kinds whose storage version changes"),
        "skew": st.column_config.TextColumn("skew", help="Skew checks during the step, emulation-aware and classic"),
        "supported": st.column_config.TextColumn("supported", help="One binary minor at a time with every skew check in range"),
        "rollback": st.column_config.TextColumn("rollback", help="Whether min compatibility allows undoing the step"),
    }
    overview_config = fit_columns(overview_config, overview, ("what",))  # the step, in full: the grid scrolls sideways
    st.dataframe(overview, key="plan_overview", hide_index=True, column_config=overview_config, alt=overview_what)
    table_as_text(overview, "table_text_plan_overview", f"{overview_what}: {len(overview)} rows", labels=config_labels(overview_config))
    table_csv(
        overview.to_dict("records"), overview.columns, file_name=f"{stem}-steps.csv", key="plan_overview_csv",
        help="This table as CSV (`kcompat plan` writes JSON or Markdown only: the columns are the table's).",
    )
    for step in plan.steps:
        _show_step(step, stem, startups.get(step.number))
