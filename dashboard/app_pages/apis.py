"""APIs: the built-in APIs a kube-apiserver binary serves at the emulated version, with
``--runtime-config`` and the two forward-compatibility flags; storage versions and version skew.

The answers are :mod:`kcompat.answers.apis`' (what ``kcompat apis`` and ``kcompat storage`` ask)
and :mod:`kcompat.answers.skew`' (``kcompat skew``); the table and the downloads are what ``kcompat apis`` prints for
the same flags, built by :mod:`kcompat.documents.apis`; the storage tab shows what
``kcompat storage`` prints (:mod:`kcompat.documents.storage`). The page leads with the
resources whose answer differs from a real binary of the emulated release.

The page's own flags live in the URL next to the shared selection, bound by the page's
:class:`~dashboard.state.view_state.ViewState` under the keys of the first links:
``runtime_config`` (the flag value as typed), ``emulation_forward_compatible`` and
``runtime_config_emulation_forward_compatible`` (``true`` or absent), and
``enable_priority_and_fairness`` (``false`` or absent). The errors are kube-apiserver's whole
start-up (:func:`kcompat.answers.apis.apis_startup`): its option checks beside the API ones, and
an amber state when it would start but not become ready.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from urllib.parse import parse_qsl, urlencode

import pandas as pd
import streamlit as st

from dashboard import data
from dashboard.frame.selection_bar import current
from dashboard.state.view_state import ViewState
from dashboard.tables.downloads import table_csv, table_exports
from dashboard.tables.table_text import config_labels, flag_column, table_as_text
from dashboard.tables.text_width import fit_columns
from dashboard.text import md
from kcompat.answers.apis import apis_report, storage
from kcompat.answers.skew import skew
from kcompat.core.apis import ApiEntry
from kcompat.core.errors import KcompatError
from kcompat.core.request import Request
from kcompat.core.runtime_config import MAX_RUNTIME_CONFIG_LENGTH, parse_runtime_config
from kcompat.core.startup import read_options
from kcompat.documents import formats
from kcompat.documents.apis import (
    DIFFERENCE_COLUMNS,
    TABLE_COLUMNS,
    api_rows,
    apis_document,
    difference_rows,
)
from kcompat.documents.commands import same_as
from kcompat.documents.gates import startup_verdict_line
from kcompat.documents.skew import ROW_COLUMNS as SKEW_COLUMNS
from kcompat.documents.skew import skew_rows
from kcompat.documents.storage import RESOURCE_KEYS, storage_rows
from kcompat.documents.storage import TABLE_COLUMNS as STORAGE_COLUMNS

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any


RC, EFC, RCEFC = "runtime_config", "emulation_forward_compatible", "runtime_config_emulation_forward_compatible"
APF = "enable_priority_and_fairness"
#: The flags' controls (widget keys ``apis_<name>``) and their URL keys, kept from the first links.
URL_KEYS = {"runtime_config": RC, "efc": EFC, "rcefc": RCEFC, "apf": APF}
#: The core group ("") in the group filter and its URL value (no real group has this name).
CORE = "core"


# ---------------------------------------------------------------------------------------------
# The page's flags (in the URL through the page's ViewState)


@dataclass(frozen=True)
class ApiFlags:
    runtime_config: str = ""
    emulation_forward_compatible: bool = False
    runtime_config_emulation_forward_compatible: bool = False
    #: --enable-priority-and-fairness (on by default): kube-apiserver's check of --runtime-config reads it
    priority_and_fairness: bool = True

    def params(self) -> dict[str, str]:
        """The query parameters reproducing these flags (defaults left out)."""
        out = {}
        if not self.priority_and_fairness:
            out[APF] = "false"
        if self.runtime_config:
            out[RC] = self.runtime_config
        if self.emulation_forward_compatible:
            out[EFC] = "true"
        if self.runtime_config_emulation_forward_compatible:
            out[RCEFC] = "true"
        return out


def runtime_config_problem(text: str) -> str | None:
    """Why a ``runtime_config`` URL value cannot be used at all (too long...), or None: a value
    the apiserver would refuse is kept, and the page shows the apiserver's error."""
    try:
        parse_runtime_config(text)
    except KcompatError as exc:
        return f"cannot be used ({exc}); using no --runtime-config"
    return None


def flag_controls(state: ViewState) -> ApiFlags:
    with st.container(border=True, horizontal=True, vertical_alignment="bottom"):
        rc = state.text_input(
            "runtime_config",
            "--runtime-config",
            validate=runtime_config_problem,
            max_chars=MAX_RUNTIME_CONFIG_LENGTH,
            placeholder="e.g. networking.k8s.io/v1beta1=true,api/alpha=false",
            help="The kube-apiserver `--runtime-config` value, as on the command line: comma-separated "
            "`group/version[=true|false]`, `group/version/resource=…` or `api/all|ga|beta|alpha=…` items. "
            "Read and validated as the apiserver does; the errors are shown below.",
        )
        efc = state.toggle(
            "efc",
            "--emulation-forward-compatible",
            help="`--emulation-forward-compatible=true` (1.33+, only while emulating an older version): serve the "
            "higher-priority versions of an enabled API even when they were introduced after the emulated version.",
        )
        rcefc = state.toggle(
            "rcefc",
            "--runtime-config-emulation-forward-compatible",
            help="`--runtime-config-emulation-forward-compatible=true` (1.33+, only while emulating an older version): "
            "APIs enabled explicitly by `--runtime-config` are served even when introduced after the emulated version.",
        )
        apf = state.toggle(
            "apf",
            "--enable-priority-and-fairness",
            default=True,
            help="`--enable-priority-and-fairness` (on by default): while it is on, kube-apiserver refuses a `--runtime-config` "
            "that turns off flowcontrol.apiserver.k8s.io/v1 (`api/all=false`, `api/ga=false`, or the group/version itself).",
        )
    return ApiFlags(rc, efc, rcefc, apf)


# ---------------------------------------------------------------------------------------------
# Cached results (keyed by one plain string each)


def _query(binary: str, emulated: str, min_compat: str | None, flags: ApiFlags, feature_gates: str = "") -> str:
    values = {"binary": binary, "emulated": emulated, "min_compat": min_compat or "", "feature_gates": feature_gates, **flags.params()}
    return urlencode(values)


DIFF_COLUMNS = ("group", "version", "kind", "resource", "stage", "reason")
#: The text columns of the grids, each as wide as its longest cell: nothing the answer says is cut
TEXT_COLUMNS = (
    "group", "version", "kind", "resource", "subresources", "stage", "storageVersion", "deprecatedIn", "removedIn", "replacement", "reason",
)


def _diff_frame(entries: tuple[ApiEntry, ...], reason_of: Callable[[ApiEntry], str]) -> pd.DataFrame:
    rows = [
        {"group": e.group, "version": e.version, "kind": e.kind, "resource": e.resource, "stage": e.stage, "reason": reason_of(e)}
        for e in entries
    ]
    return pd.DataFrame(rows, columns=list(DIFF_COLUMNS))


@st.cache_data(show_spinner=False, max_entries=128)
def _apis_view(query: str) -> dict[str, Any]:
    """Everything the page shows for one input, as plain picklable values (a class defined in a
    page script cannot be pickled by the cache): ``failure`` (why nothing can be evaluated) or the
    engine's errors/warnings, the tables and the three download texts."""
    values = dict(parse_qsl(query, keep_blank_values=True))
    rc = values.get(RC) or None
    try:
        request = Request.of(
            values["binary"], values["emulated"], values["min_compat"] or None,
            values.get("feature_gates") or None,  # the selection's --feature-gates: they decide feature-gated storage
            rc, emulation_forward_compatible=values.get(EFC) == "true", runtime_config_emulation_forward_compatible=values.get(RCEFC) == "true",
        )
        # with kube-apiserver's whole start-up with these flags: its option checks and whether it becomes ready
        options = read_options([("enable-priority-and-fairness", values[APF])] if values.get(APF) else [])
        report = apis_report(data.catalog(), request.with_(options=options))
        result, startup = report.result, report.startup
        diff = result.compared_with_binary()
    except KcompatError as exc:
        return {"failure": str(exc)}
    rows = api_rows(result)
    baseline = {e.key: e for e in diff.baseline.entries}
    now = {e.key: e for e in result.entries}
    return dict(
        failure=None,
        binary=str(result.binary),
        emulated=str(result.emulated),
        errors=startup.errors,
        not_ready=startup.not_ready,
        warnings=startup.warnings,
        starts=startup_verdict_line(str(result.binary), str(result.emulated), startup),  # a good start in words
        # the remedies beside the errors (and the alpha-under-emulation warning), as kcompat apis prints them
        # (those of the version flags are the selection bar's)
        hints=tuple(dict.fromkeys(
            h.text for h in report.hints if result.selection is None or h.problem not in result.selection.problems
        )),
        table=pd.DataFrame(rows, columns=list(TABLE_COLUMNS)),
        differences=pd.DataFrame(difference_rows(result), columns=list(DIFFERENCE_COLUMNS)),
        release_known=all(e.served_by_release is not None for e in result.entries),
        # served now: why it is served; no longer served: why not, at the emulated version
        enabled=_diff_frame(diff.enabled, lambda e: e.detail),
        removed=_diff_frame(diff.removed, lambda e: (now.get(e.key) or baseline[e.key]).detail),
        default_lists=f"{result.default_enablement_release} ({result.default_enablement_source})",
        default_lists_exact=result.default_enablement_exact,
        csv=formats.rows_to_csv(rows, TABLE_COLUMNS),
        json=formats.to_json(apis_document(result, startup=startup)),
        markdown=formats.rows_to_markdown(rows, TABLE_COLUMNS),
    )


@st.cache_data(show_spinner=False, max_entries=128)
def _storage(binary: str, emulated: str, min_compat: str) -> tuple[str, str, tuple[str, ...], tuple[str, ...], pd.DataFrame, list[dict[str, Any]]]:
    """(rule, min compatibility used, errors, warnings, table, rows) at (emulated, min compat):
    the rows of ``kcompat storage``."""
    result = storage(data.catalog(), binary, emulated, min_compat or None)
    rows = storage_rows(result)
    frame = pd.DataFrame(rows, columns=list(RESOURCE_KEYS))
    return str(result.rule), str(result.min_compat), result.errors, result.warnings, frame, rows


@st.cache_data(show_spinner=False, max_entries=128)
def _skew(binary: str, emulated: str, min_compat: str) -> tuple[str, pd.DataFrame]:
    """(min compatibility used, component ranges): the rows of ``kcompat skew``."""
    policy = skew(binary, emulated, min_compat or None)
    return str(policy.min_compat), pd.DataFrame(skew_rows(policy), columns=list(SKEW_COLUMNS))


def cli_command(
    binary: str, emulated: str, flags: ApiFlags, fmt: str = "json", *, min_compat: str | None = None, feature_gates: str | None = None,
) -> str:
    """``kcompat apis`` with every flag the page applies (the same inputs as :func:`_query`): its
    answer is the page's."""
    return same_as(
        "apis", binary=binary, emulated=emulated, min_compat=min_compat, feature_gates=feature_gates, runtime_config=flags.runtime_config,
        emulation_forward_compatible=flags.emulation_forward_compatible,
        runtime_config_emulation_forward_compatible=flags.runtime_config_emulation_forward_compatible,
        enable_priority_and_fairness=None if flags.priority_and_fairness else "false", format=fmt,
    )


# ---------------------------------------------------------------------------------------------
# Filters and tables


def _filter(table: pd.DataFrame, served: str | None, stages: Sequence[str], groups: Sequence[str], text: str) -> pd.DataFrame:
    mask = pd.Series(True, index=table.index)
    if served is not None:
        mask &= table["served"] == (served == "served")
    if stages:
        mask &= table["stage"].isin(list(stages))
    if groups:
        mask &= table["group"].isin(list(groups))
    text = text.strip().lower()
    if text:
        haystack = table["group"] + "/" + table["version"] + " " + table["kind"] + " " + table["resource"]
        mask &= haystack.str.lower().str.contains(text, regex=False)
    return table[mask]


#: How the served columns read (in the grids and in their tables as text).
SERVED_WORDS = {"served": ("yes", "no"), "servedByRelease": ("yes", "no")}


def _api_config(emulated: str) -> dict[str, Any]:
    col = st.column_config
    return {
        "group": col.TextColumn("group", help="API group (empty: the core group)"),
        "version": col.TextColumn("version"),
        "kind": col.TextColumn("kind", pinned=True),
        "resource": col.TextColumn("resource", help="REST resource (plural) as the release's client-go typed client names it"),
        "subresources": col.TextColumn("subresources", help="Subresources the release's client-go typed client calls"),
        "stage": col.TextColumn("stage", help="Stage of the group/version (GA, beta, alpha)"),
        "served": flag_column("served", f"Served by this binary at {emulated} with these flags", SERVED_WORDS["served"]),
        "servedByRelease": flag_column(
            "served by real release",
            f"Served by a real {emulated} binary (its own version, the same --runtime-config); empty: no data",
            SERVED_WORDS["servedByRelease"],
        ),
        "deprecatedIn": col.TextColumn(
            "deprecated in", help="The release the API data deprecates it in (APILifecycleDeprecated); not recorded: the data has no lifecycle for it"
        ),
        "removedIn": col.TextColumn("removed in", help="The release the API data removes it in (APILifecycleRemoved)"),
        "replacement": col.TextColumn("replacement", help="The replacement the API data names (APILifecycleReplacement)"),
        "reason": col.TextColumn("reason", width="large", help="Why it is served or not (what `kcompat apis` prints)"),
    }


def _api_text(frame: pd.DataFrame, key: str, what: str, config: dict[str, Any]) -> None:
    """The grid's rows as text (:mod:`dashboard.tables.table_text`), the kind as row headers."""
    table_as_text(
        frame, f"table_text_{key}", f"{what}: {len(frame)} rows", labels=config_labels(config), words=SERVED_WORDS, row_header="kind"
    )


def _short_table(frame: pd.DataFrame, key: str, empty: str, reason_help: str, file_name: str, what: str) -> None:
    if frame.empty:
        st.caption(empty)
        return
    config = _api_config("")
    config["reason"] = st.column_config.TextColumn("reason", width="large", help=reason_help)
    config = fit_columns(config, frame, TEXT_COLUMNS)
    st.dataframe(frame, key=key, hide_index=True, column_config=config, height=min(36 + 35 * len(frame), 300), alt=what)
    _api_text(frame, key, what, config)
    table_csv(frame.to_dict("records"), frame.columns, file_name=file_name, key=f"{key}_csv")


# ---------------------------------------------------------------------------------------------
# The page

sel = current()
state = ViewState("apis", url_keys=URL_KEYS)
st.subheader(
    f"Built-in APIs of a {sel.binary} kube-apiserver emulating {sel.emulated}",
    anchor=False,
    help="Which REST resources of the binary's release are served, and why, and where a real binary of the emulated release answers differently; the same answer as `kcompat apis`.",
)
flags = flag_controls(state)
url_problems = st.container()
if sel.feature_gates:
    st.caption("--feature-gates decides the REST storage kube-apiserver installs only while a gate is on "
               "(ClusterTrustBundle, PodCertificateRequest, StorageVersionMigrator, pods/resize, ...), as `kcompat apis --feature-gates` does.")

view = SimpleNamespace(**_apis_view(_query(sel.binary_version, sel.emulated, sel.min_compat, flags, sel.feature_gates)))
if view.failure is not None:
    st.error(f"Cannot evaluate the APIs: {md(view.failure)}", icon=":material/error:")
    st.stop()

for error in view.errors:
    st.error(md(error), icon=":material/block:")
for hint in view.hints:
    st.info(md(hint), icon=":material/lightbulb:")
if view.errors:
    st.caption(
        "kube-apiserver would refuse to start with these flags (`kcompat apis` exits with status 2); "
        "the tables show what the rest of the flags give."
    )
elif view.not_ready:
    lines = ["**kube-apiserver would start but not become ready** with these flags (`kcompat apis` exits with status 3):",
             *(f"- {md(reason)}" for reason in view.not_ready)]
    st.warning("\n".join(lines), icon=":material/hourglass_disabled:")
elif view.starts:
    st.success(md(view.starts), icon=":material/check_circle:")
for warning in view.warnings:
    st.warning(md(warning), icon=":material/warning:")

if sel.is_emulating:
    differences = view.differences
    st.markdown(f"**Differences from a real {md(view.emulated)} kube-apiserver** ({len(differences)})")
    if not view.release_known:
        st.caption(f"No bundled API data for Kubernetes {md(view.emulated)}: cannot compare with a real {md(view.emulated)} binary.")
    elif differences.empty:
        st.success(
            f"This {md(sel.binary)} binary emulating {md(view.emulated)} serves exactly the resources a real "
            f"{md(view.emulated)} binary serves with the same --runtime-config.",
            icon=":material/check_circle:",
        )
    else:
        st.caption(
            f"**served**: this {md(sel.binary)} binary emulating {md(view.emulated)}. **served by real release**: a real "
            f"{md(view.emulated)} binary with the same --runtime-config. **reason**: why this binary serves it or not."
        )
        config = fit_columns(_api_config(view.emulated), differences, TEXT_COLUMNS)
        what = f"Differences from a real {view.emulated} kube-apiserver"
        st.dataframe(
            differences, key="apis_differences", hide_index=True, column_config=config, height=min(36 + 35 * len(differences), 300), alt=what
        )
        _api_text(differences, "apis_differences", what, config)
        table_csv(
            differences.to_dict("records"), differences.columns,
            file_name=f"apis-{sel.binary}-emulating-{view.emulated}-differences.csv", key="apis_differences_csv",
            help="This table as CSV: its rows and columns (the names of `kcompat apis --format json`).", as_is=True,
        )

table = view.table
served_count = int(table["served"].sum())
with st.container(horizontal=True):
    st.metric("Served", served_count, help=f"Group/version/resources served at {view.emulated} with these flags.")
    st.metric("Not served", len(table) - served_count, help="REST resources of the release that are not served (each row says why).")
    st.metric(
        f"Enabled vs {sel.binary}",
        len(view.enabled),
        help=f"Served at {view.emulated} but not by the same binary at its own version {sel.binary} (same --runtime-config, "
        "no forward-compatibility flags).",
    )
    st.metric(
        f"Removed vs {sel.binary}",
        len(view.removed),
        help=f"Served by the binary at its own version {sel.binary} (same --runtime-config) but not at {view.emulated}.",
    )
st.caption(
    f"Default API lists of {md(view.default_lists)}"
    + ("" if view.default_lists_exact else f" (the {md(sel.binary)} lists are not bundled)")
    + ". The core group is shown empty, as in `kcompat apis`."
)

if sel.is_emulating:
    left, right = st.columns(2)
    with left:
        st.markdown(f"**Enabled compared with the binary** ({len(view.enabled)})")
        _short_table(
            view.enabled,
            "apis_enabled",
            f"Nothing is served at {view.emulated} that {sel.binary} at its own version does not serve.",
            f"Why it is served at {view.emulated}",
            f"apis-{sel.binary}-emulating-{view.emulated}-enabled.csv",
            f"APIs served at {view.emulated} but not by {sel.binary} at its own version",
        )
    with right:
        st.markdown(f"**Removed compared with the binary** ({len(view.removed)})")
        _short_table(
            view.removed,
            "apis_removed",
            f"Everything {sel.binary} serves at its own version is served at {view.emulated} too.",
            f"Why it is not served at {view.emulated}",
            f"apis-{sel.binary}-emulating-{view.emulated}-removed.csv",
            f"APIs served by {sel.binary} at its own version but not at {view.emulated}",
        )
else:
    st.caption(f"Not emulating: nothing to compare with the {sel.binary} binary at its own version.")

tab_table, tab_storage, tab_skew = state.tabs("tab", ("table", "storage", "skew"), ("API table", "Storage versions", "Version skew"))

with tab_table:
    with st.container(horizontal=True, vertical_alignment="bottom"):
        served = state.segmented_control(
            "served",
            "Served",
            ["served", "not served"],
            optional=True,
            help="Show only served or only not served kinds; none selected = both.",
        )
        stages = state.pills(
            "stages",
            "Stage",
            sorted(set(table["stage"])),
            help="Stage of the group/version; several = any of them, none = all.",
        )
        groups = state.multiselect(
            "groups",
            "Group",
            sorted({g or CORE for g in table["group"]}),
            format_func=lambda g: "(core)" if g == CORE else g,
            placeholder="all groups",
            help="Show only these API groups; empty = all.",
        )
        text = state.text_input(
            "text",
            "Search",
            placeholder="kind, resource or group/version contains…",
            help="Case-insensitive substring of group/version, kind or resource.",
        )
    with url_problems:
        state.show_problems()
    groups = ["" if g == CORE else g for g in groups]
    shown = _filter(table, served, stages or (), groups, text or "")
    if len(shown) != len(table):
        st.caption(f"{len(shown)} of {len(table)} resources match the filters")
    api_config = fit_columns(_api_config(view.emulated), shown, TEXT_COLUMNS)
    what = f"Built-in APIs of a {sel.binary} kube-apiserver emulating {view.emulated}"
    st.dataframe(shown, key="apis_table", hide_index=True, column_config=api_config, height=min(36 + 35 * len(shown), 560), alt=what)
    _api_text(shown, "apis_table", what, api_config)

    stem = f"apis-{sel.binary}-emulating-{view.emulated}"
    with st.container(horizontal=True, vertical_alignment="center"):
        table_exports(
            shown, TABLE_COLUMNS, f"{stem}-shown.csv", "apis_table_export", as_is=True,
            help=f"The {len(shown)} resources shown (filters applied), with the columns of `kcompat apis --format csv`.",
        )
        with st.popover("Every resource (kcompat apis)…", icon=":material/download:"):
            st.caption("Every row, whatever the filters: byte for byte what `kcompat apis` prints with these flags (no header line).")
            for fmt, label, ext, mime, text_of in (
                ("csv", "CSV", "csv", "text/csv", lambda v=view: v.csv),
                ("json", "JSON", "json", "application/json", lambda v=view: v.json),
                ("markdown", "Markdown", "md", "text/markdown", lambda v=view: v.markdown),
            ):
                st.download_button(
                    label,
                    data=text_of,
                    file_name=f"{stem}.{ext}",
                    mime=mime,
                    key=f"apis_download_{fmt}",
                    on_click="ignore",
                    icon=":material/download:",
                    help=f"Every row (filters not applied): what `kcompat apis --format {fmt}` prints"
                    + (" (errors and warnings included)." if fmt == "json" else "."),
                )
    st.caption("Same as the command line:")
    st.code(  # no syntax colours: they fail contrast
        cli_command(sel.binary_version, sel.emulated, flags, min_compat=sel.min_compat, feature_gates=sel.feature_gates), language=None,
    )

with tab_storage:
    mc = sel.min_compat or ""
    rule, used_mc, storage_errors, storage_warnings, storage_table, storage_csv_rows = _storage(sel.binary_version, view.emulated, mc)
    st.markdown(
        f"Storage version of every REST resource at emulated {md(view.emulated)}, min compatibility {md(used_mc)}: "
        f"a per-resource override of the {md(sel.binary)} storage factory first, else the rule of a {md(sel.binary)} "
        f"binary: {md(rule)}."
    )
    for error in storage_errors:
        st.error(md(error), icon=":material/block:")
    for warning in storage_warnings:
        st.warning(md(warning), icon=":material/warning:")
    storage_config = {
        "resource": st.column_config.TextColumn("resource", pinned=True),
        "storageVersion": st.column_config.TextColumn("storage version", help="The group/version written to etcd (empty: no storage)"),
        "served": flag_column("served", f"Served at {view.emulated} (default --runtime-config)", SERVED_WORDS["served"]),
        "reason": st.column_config.TextColumn("reason", width="large"),
    }
    storage_config = fit_columns(storage_config, storage_table, TEXT_COLUMNS)
    storage_what = f"Storage versions at emulated {view.emulated}, min compatibility {used_mc}"
    st.dataframe(storage_table, key="apis_storage", hide_index=True, column_config=storage_config,
                 height=min(36 + 35 * len(storage_table), 420), alt=storage_what)
    table_as_text(
        storage_table, "table_text_apis_storage", f"{storage_what}: {len(storage_table)} rows", labels=config_labels(storage_config),
        words=SERVED_WORDS, row_header="resource",
    )
    table_csv(
        storage_csv_rows, STORAGE_COLUMNS, file_name=f"storage-{sel.binary}-emulating-{view.emulated}.csv", key="apis_storage_csv",
        help="This table: what `kcompat storage --format csv` prints.", as_is=True,
    )
    st.caption("Same as the command line:")
    st.code(same_as("storage", binary=sel.binary_version, emulated=view.emulated, min_compat=mc, format="json"), language=None)

with tab_skew:
    skew_mc, skew_table = _skew(sel.binary, view.emulated, sel.min_compat or "")
    st.markdown(
        f"Versions other components may run against this apiserver: by the emulation-aware rules (KEP-4330, from emulated "
        f"{md(view.emulated)} and min compatibility {md(skew_mc)}) and by the classic policy (from the binary "
        f"{md(sel.binary)} alone). Ranges are inclusive; nothing enforces them."
    )
    skew_what = f"Versions other components may run against a {sel.binary} apiserver emulating {view.emulated}"
    st.dataframe(skew_table, key="apis_skew", hide_index=True, alt=skew_what)
    table_as_text(skew_table, "table_text_apis_skew", f"{skew_what}: {len(skew_table)} rows")
    table_csv(
        skew_table.to_dict("records"), skew_table.columns, file_name=f"skew-{sel.binary}-emulating-{view.emulated}.csv", key="apis_skew_csv",
        help="This table: what `kcompat skew --format csv` prints.",
    )
    st.caption("Same as the command line:")
    st.code(same_as("skew", binary=sel.binary, emulated=view.emulated, min_compat=sel.min_compat, format="csv"), language=None)
