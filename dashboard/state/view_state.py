"""A page's own view state (search, filters, sort, start release, tab) kept in the URL.

The shared selection lives in the URL (:mod:`dashboard.frame.selection_bar`); so does what each
page's own controls show, so that a copied link opens the same view in a new tab. A
:class:`ViewState` binds a page's widgets to query parameters named ``<prefix>_<name>``:

.. code-block:: python

    from dashboard.state.view_state import ViewState

    view = ViewState("timeline")                  # URL keys timeline_stages, timeline_text, ...
    stages = view.multiselect("stages", "Stage", STAGE_NAMES, placeholder="all stages")  # -> list
    text = view.text_input("text", "Search", placeholder="gate name contains…")         # -> str
    sort = view.selectbox("sort", "Order", SORTS)  # -> an option; the default is the first one
    start = view.select_slider("from", "From release", starts, default=first)           # -> an option
    picked = view.pills("quick", "Quick filters", options)                              # -> list
    tab = view.segmented_control("tab", "Show", ("Specs", "Releases"))                  # -> an option
    served = view.segmented_control("served", "Served", ("yes", "no"), optional=True)    # -> an option or None
    changed = view.toggle("changed", "Changed only")                                    # -> bool
    a, b = view.tabs("tab", ("a", "b"), ("First tab", "Second tab"))                   # -> st.tabs containers
    view.show_problems()                          # a warning per URL value that was not an option

Rules, the same for every widget:

* The widget key is the URL key (``timeline_text``; for a control in ``url_keys``, the widget key
  stays ``<prefix>_<name>``): ``st.session_state`` and tests can address it.
* The URL is the source of truth. Each run the widget shows the URL's value (or ``default``);
  a change writes the new value into the URL before the rerun (``on_change``).
* A value equal to its default is left out of the URL, so links stay short. ``default`` may
  change from run to run (the timeline's start follows the rows shown) until a user picks one.
* Values travel as text: an option as ``str(option)``, a list as comma-separated items. A URL
  value that is not an option is dropped (from the view and the URL) and named by
  :meth:`ViewState.show_problems`; a free text is cut to :data:`MAX_TEXT` characters.
* The navigation menu drops the query string on a page switch: the page's last view is kept in
  the session and put back in the URL when the page is opened again without any of its keys.
* ``optional=True`` (selectbox, segmented_control): nothing chosen (``None``) is the default and
  a valid state, e.g. a selectbox showing its placeholder. A toggle travels as ``true``/``false``.
  :meth:`ViewState.tabs` keeps the chosen tab of ``st.tabs`` under a stable id (the labels may
  name the selection), e.g. ``changes_tab=native``.
* Other keyword arguments go to the Streamlit widget unchanged (``help``, ``format_func``,
  ``placeholder``, ``width``...); an ``on_change`` given there runs after the URL is written.

Values that need more than a list of options:

.. code-block:: python

    view = ViewState("apis", url_keys={"runtime_config": "runtime_config"})   # a key kept from older links
    rc = view.text_input("runtime_config", "--runtime-config", validate=why_not)  # why_not(text) -> reason | None
    view = ViewState("plan", url_keys={"to": "to"})
    to = view.selectbox("to", "Target", options, default=newest, pin=True, follows_selection=True,
                        resolve=parse_target, instead=f"planning to {newest}")

* ``url_keys`` maps a control's name to the URL key it had before the ``<prefix>_<name>``
  naming (``to``, ``gate``, ``runtime_config``): links already shared keep working. The widget
  key stays ``<prefix>_<name>``.
* ``validate`` (text_input): a URL text it gives a reason for is named and dropped.
* ``resolve`` (selectbox): reads a URL text that is not an option's text (``v1.36`` for
  ``1.36``): returns ``(option, None)``, or ``(None, reason)`` to name and drop it; the message
  ends with ``instead`` (default "it is ignored").
* ``pin=True``: the value is written to the URL even when it equals the default (a default
  that moves with the bundled data must not change what a shared link shows).
* ``follows_selection=True``: a URL value this page wrote itself that the options no longer
  offer (the selection above changed) is dropped without a warning.

Only this module and :mod:`dashboard.frame.selection_bar` read or write ``st.query_params``
(a test greps the dashboard for it). :func:`page_view` gives the URL values of the current
page's controls, for the header line of exports (:mod:`dashboard.tables.downloads`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from dashboard.text import md
from kcompat.core.errors import repr_cut

#: Longest free text kept from the URL (a search box).
MAX_TEXT = 200
_SEP = ","


def _text(option: object) -> str:
    return str(option)


#: Session key: page script hash -> {prefix: URL keys of its controls named in ``url_keys``}.
_PAGES = "_view_pages"
_IGNORED = "it is ignored"


def _page_hash() -> str:
    from dashboard.server.internals import script_run_ctx

    ctx = script_run_ctx()
    return ctx.page_script_hash if ctx is not None else ""


def page_prefixes() -> tuple[str, ...]:
    """The prefixes of the :class:`ViewState` objects the current page has made in this session
    (``("apis",)``); a page's first prefix is its key in :data:`dashboard.frame.pages.PAGES`."""
    return tuple(st.session_state.get(_PAGES, {}).get(_page_hash(), {}))


def page_view() -> dict[str, str]:
    """The URL values of the current page's own controls (every :class:`ViewState` the page
    has made in this session), sorted by key: the view an export names besides the selection."""
    views = st.session_state.get(_PAGES, {}).get(_page_hash(), {})
    out = {}
    for key, value in sorted(st.query_params.to_dict().items()):
        if any(key.startswith(prefix + "_") or key in extra for prefix, extra in views.items()):
            out[key] = value
    return out


def url_value(key: str) -> str | None:
    """The URL's value of ``key``, a key of the whole app rather than of one page (``compact``)."""
    return st.query_params.get(key)


def drop_url_keys(*keys: str) -> None:
    """Remove ``keys`` from the URL (a key only another page reads, e.g. ``gate``)."""
    for key in keys:
        if key in st.query_params:
            del st.query_params[key]


class ViewState:
    """The URL-bound controls of one page (see the module docstring)."""

    def __init__(self, prefix: str, url_keys: dict[str, str] | None = None):
        self.prefix = prefix
        self.url_keys = dict(url_keys or {})
        self.problems: list[str] = []
        self._saved_key = f"_view_{prefix}"
        self._previous: dict[str, str] = {}
        self._register()
        self._restore()

    # -- URL plumbing ------------------------------------------------------------------------

    def key(self, name: str) -> str:
        """The widget key of control ``name`` (also its URL key unless ``url_keys`` names one)."""
        return f"{self.prefix}_{name}"

    def url_key(self, name: str) -> str:
        """The URL key of control ``name``."""
        return self.url_keys.get(name, self.key(name))

    def _mine(self, params: dict[str, str]) -> dict[str, str]:
        start = self.prefix + "_"
        extra = set(self.url_keys.values())
        return {k: v for k, v in params.items() if k.startswith(start) or k in extra}

    def _register(self) -> None:
        pages = st.session_state.setdefault(_PAGES, {})
        views = pages.setdefault(_page_hash(), {})
        keys = tuple(sorted(self.url_keys.values()))
        if views.get(self.prefix) != keys:
            views[self.prefix] = keys

    def _restore(self) -> None:
        """Put the page's last view back when the URL has none of its keys; else remember the URL's."""
        mine = self._mine(st.query_params.to_dict())
        saved = st.session_state.get(self._saved_key)
        self._previous = dict(saved or {})
        if saved and not mine:
            for k, v in saved.items():
                st.query_params[k] = v
        elif mine != saved:
            st.session_state[self._saved_key] = mine

    def _save(self) -> None:
        st.session_state[self._saved_key] = self._mine(st.query_params.to_dict())

    def _write(self, key: str, text: str | None) -> None:
        if text in (None, ""):
            if key in st.query_params:
                del st.query_params[key]
        elif st.query_params.get(key) != text:
            st.query_params[key] = text
        self._save()

    def _bind(self, name: str, value: Any, encode: Callable[[Any], str | None], kwargs: dict[str, Any]) -> dict[str, Any]:
        """Put ``value`` in the widget's state and make its change write the URL."""
        key = self.key(name)
        url_key = self.url_key(name)
        st.session_state[key] = value
        user_on_change = kwargs.pop("on_change", None)
        user_args = kwargs.pop("args", ())

        def on_change() -> None:
            self._write(url_key, encode(st.session_state.get(key)))
            if user_on_change is not None:
                user_on_change(*user_args)

        return {**kwargs, "key": key, "on_change": on_change}

    def _reject(self, name: str, text: str, why: str, instead: str = _IGNORED) -> None:
        self.problems.append(f"{self.url_key(name)}={repr_cut(text)} in the URL {why}; {instead}.")
        self._write(self.url_key(name), None)

    def _url(self, name: str) -> str | None:
        return st.query_params.get(self.url_key(name))

    # -- values --------------------------------------------------------------------------------

    def _one(
        self,
        name: str,
        options: Sequence[Any],
        default: Any,
        resolve: Callable[[str], tuple[Any, str | None]] | None = None,
        instead: str = _IGNORED,
        follows_selection: bool = False,
    ) -> Any:
        text = self._url(name)
        if text is None:
            return default
        by_text = {_text(o): o for o in options}
        if text in by_text:
            return by_text[text]
        if follows_selection and self._previous.get(self.url_key(name)) == text:
            self._write(self.url_key(name), None)  # written here for another selection: follow the new one
            return default
        if resolve is not None:
            value, why = resolve(text)
            if why is None and _text(value) in by_text:
                self._write(self.url_key(name), _text(value))
                return by_text[_text(value)]
            self._reject(name, text, why or "is not one of " + ", ".join(by_text)[:200], instead)
            return default
        self._reject(name, text, "is not one of " + ", ".join(by_text)[:200], instead)
        return default

    def _many(self, name: str, options: Sequence[Any], default: Sequence[Any]) -> list[Any]:
        text = self._url(name)
        if text is None:
            return list(default)
        by_text = {_text(o): o for o in options}
        items = [t for t in text.split(_SEP) if t]
        unknown = [t for t in items if t not in by_text]
        if unknown:
            self._reject(name, text, f"names {', '.join(unknown)[:120]}, not one of " + ", ".join(by_text)[:200])
            return list(default)
        return list(dict.fromkeys(by_text[t] for t in items))

    def _one_encoder(self, default: Any) -> Callable[[Any], str | None]:
        return lambda v: None if v is None or v == default else _text(v)

    def _many_encoder(self, options: Sequence[Any], default: Sequence[Any]) -> Callable[[Any], str | None]:
        order = {_text(o): i for i, o in enumerate(options)}

        def encode(values: Any) -> str | None:
            values = list(values or ())
            if sorted(map(_text, values)) == sorted(map(_text, default)):
                return None
            return _SEP.join(sorted(map(_text, values), key=lambda t: order.get(t, len(order)))) or _SEP

        return encode

    # -- widgets -------------------------------------------------------------------------------

    def text_input(
        self,
        name: str,
        label: str,
        default: str = "",
        *,
        validate: Callable[[str], str | None] | None = None,
        max_chars: int = MAX_TEXT,
        target: Any = st,
        **kwargs: Any,
    ) -> str:
        """A free text (cut to ``max_chars``); ``validate(text)`` returns why a URL text cannot be
        used (it is then named and dropped) or None."""
        text = self._url(name)
        value = default if text is None else text[:max_chars]
        if text is not None and validate is not None:
            why = validate(text)
            if why is not None:
                self._reject(name, text, why)
                value = default
        bound = self._bind(name, value, lambda v: None if (v or "") == default else (v or "")[:max_chars], kwargs)
        return target.text_input(label, **bound) or ""

    def selectbox(
        self,
        name: str,
        label: str,
        options: Sequence[Any],
        default: Any = None,
        *,
        optional: bool = False,
        pin: bool = False,
        follows_selection: bool = False,
        resolve: Callable[[str], tuple[Any, str | None]] | None = None,
        instead: str = _IGNORED,
        target: Any = st,
        **kwargs: Any,
    ) -> Any:
        """One option; with ``optional`` nothing chosen (``None``, the placeholder) is the default.
        ``pin``, ``follows_selection``, ``resolve`` and ``instead``: see the module docstring."""
        default = options[0] if default is None and options and not optional else default
        value = self._one(name, options, default, resolve, instead, follows_selection)
        if pin and value is not None and self._url(name) != _text(value):
            self._write(self.url_key(name), _text(value))
        encode = (lambda v: None if v is None else _text(v)) if pin else self._one_encoder(default)
        bound = self._bind(name, value, encode, kwargs)
        if optional:
            bound.setdefault("index", None)
        return target.selectbox(label, options, **bound)

    def segmented_control(
        self, name: str, label: str, options: Sequence[Any], default: Any = None, *, optional: bool = False, target: Any = st, **kwargs: Any
    ) -> Any:
        """One choice of a few (a tab bar); clicking the chosen one again keeps it chosen, unless
        ``optional``: then it unselects it and ``None`` (nothing chosen) is the default."""
        default = options[0] if default is None and options and not optional else default
        value = self._one(name, options, default)
        bound = self._bind(name, value, self._one_encoder(default), kwargs)
        return target.segmented_control(label, options, selection_mode="single", **bound) or default

    def toggle(self, name: str, label: str, default: bool = False, *, target: Any = st, **kwargs: Any) -> bool:
        """On or off; ``true`` or ``false`` in the URL (the default stays out)."""
        value = self._one(name, ("true", "false"), "true" if default else "false") == "true"
        encode = lambda v: None if bool(v) == default else ("true" if v else "false")  # noqa: E731
        bound = self._bind(name, value, encode, kwargs)
        return bool(target.toggle(label, **bound))

    def tabs(self, name: str, ids: Sequence[str], labels: Sequence[str] | None = None, default: str | None = None, *, target: Any = st, **kwargs: Any) -> Any:
        """``st.tabs`` that remembers the open tab: ``ids`` are the URL values (stable), ``labels``
        the tab titles (they may change with the selection). Every tab's content still runs."""
        ids = list(ids)
        labels = list(labels) if labels is not None else ids
        default = ids[0] if default is None else default
        by_label = dict(zip(labels, ids, strict=True))
        value = self._one(name, ids, default)
        encode = lambda label: None if by_label.get(label, default) == default else by_label[label]  # noqa: E731
        bound = self._bind(name, labels[ids.index(value)], encode, kwargs)
        return target.tabs(labels, **bound)

    def select_slider(self, name: str, label: str, options: Sequence[Any], default: Any = None, *, target: Any = st, **kwargs: Any) -> Any:
        default = options[0] if default is None and options else default
        value = self._one(name, options, default)
        bound = self._bind(name, value, self._one_encoder(default), kwargs)
        return target.select_slider(label, options, **bound)

    def multiselect(self, name: str, label: str, options: Sequence[Any], default: Sequence[Any] = (), *, target: Any = st, **kwargs: Any) -> list[Any]:
        value = self._many(name, options, default)
        bound = self._bind(name, value, self._many_encoder(options, default), kwargs)
        return list(target.multiselect(label, options, **bound) or ())

    def pills(self, name: str, label: str, options: Sequence[Any], default: Sequence[Any] = (), *, target: Any = st, **kwargs: Any) -> list[Any]:
        value = self._many(name, options, default)
        bound = self._bind(name, value, self._many_encoder(options, default), kwargs)
        return list(target.pills(label, options, selection_mode="multi", **bound) or ())

    def show_problems(self) -> None:
        """A warning per URL value of this page that was not an option (named, and ignored); each
        is shown once, so a page may call this again after drawing more controls."""
        for problem in self.problems:
            st.warning(md(problem), icon=":material/link_off:")
        self.problems = []
