"""The landing page's code asked for with the page itself (see :mod:`dashboard.server`).

Streamlit's frontend loads the code of each kind of element (a selectbox, a data grid, a metric)
only when the first element of that kind arrives over the websocket: on a first visit the
browser fetches the page and the app's core code, connects, receives the Gates page's elements
and only then starts a second wave of about 60 small files, each waiting for the last to be
read before its own imports are asked for. Announced in the served ``index.html`` as
``<link rel="modulepreload">`` (and the code font as ``<link rel="preload">``), the browser fetches
them alongside the core code, before the websocket is even open.

The files are found in the installed Streamlit's build (their names carry a hash of their
content): the module of each element kind in :data:`ELEMENTS`, then every module those import,
transitively, except what ``index.html`` already preloads.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

#: The frontend modules of the elements the landing page (Gates) shows: the Copy link button's
#: HTML, the selection bar's selectboxes and text box, the metrics, the quick-filter pills, the
#: gate grid and the buttons under it.
ELEMENTS = ("Html", "Selectbox", "TextInput", "Metric", "ButtonGroup", "DataFrame", "Button")
#: Fonts the landing page uses besides the text font Streamlit preloads (code: ``--emulated-version``).
FONTS = ("SourceCodeVF-Upright",)

_STATIC_IMPORT = re.compile(r'(?:\bfrom|\bimport)\s*"\./([\w.-]+\.js)"')
_PRELOADED = re.compile(r'href="\./static/(?:js|css)/([\w.-]+)"')
_HASHED = r"\.[\w-]{6,12}\."


def module_closure(js_dir: Path, names: tuple[str, ...]) -> list[str]:
    """The modules of ``names`` (``Selectbox`` -> ``Selectbox.<hash>.js``) and every module they
    import statically, each once, in the order found. A name without a module is skipped."""
    found: list[str] = []
    pending = [p.name for name in names for p in sorted(js_dir.glob(f"{name}.*.js")) if re.fullmatch(re.escape(name) + _HASHED + "js", p.name)]
    while pending:
        name = pending.pop(0)
        if name in found:
            continue
        found.append(name)
        try:
            text = (js_dir / name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        pending += [m for m in _STATIC_IMPORT.findall(text) if m not in found and (js_dir / m).is_file()]
    return found


def preload_html(index_html: str, static_dir: Path) -> tuple[str, int]:
    """``index.html`` with the landing page's modules, their style sheets and fonts announced
    before ``</head>``; and how many links were added."""
    js_dir = static_dir / "static" / "js"
    already = set(_PRELOADED.findall(index_html))
    links = [
        f'<link rel="modulepreload" crossorigin href="./static/js/{name}">'
        for name in module_closure(js_dir, ELEMENTS)
        if name not in already
    ]
    css_dir = static_dir / "static" / "css"
    for name in ELEMENTS:
        for css in sorted(css_dir.glob(f"{name}.*.css")) if css_dir.is_dir() else ():
            if re.fullmatch(re.escape(name) + _HASHED + "css", css.name) and css.name not in already:
                links.append(f'<link rel="preload" as="style" crossorigin href="./static/css/{css.name}">')
    media = static_dir / "static" / "media"
    for font in FONTS:
        for path in sorted(media.glob(f"{font}.*.woff2")) if media.is_dir() else ():
            links.append(f'<link rel="preload" as="font" type="font/woff2" crossorigin href="./static/media/{path.name}">')
    if not links or "</head>" not in index_html:
        return index_html, 0
    return index_html.replace("</head>", "\n".join(links) + "\n</head>", 1), len(links)


def serve_preloads() -> str:
    """Serve ``index.html`` with :func:`preload_html`'s links (the page at ``/`` and at every
    page's path)."""
    from starlette.responses import HTMLResponse
    from streamlit import file_util
    from streamlit.web.server.starlette import starlette_static_routes as routes

    static_dir = Path(file_util.get_static_dir())
    index = static_dir / "index.html"
    html, added = preload_html(index.read_text(encoding="utf-8"), static_dir)
    if not added:
        raise RuntimeError(f"no module of {', '.join(ELEMENTS)} in {static_dir}")
    original: Any = routes.create_streamlit_static_handler
    if getattr(original, "kcompat_preloads", False):
        return f"{added} files announced in index.html"

    def create(directory: str, base_url: str | None) -> Any:
        handler = original(directory, base_url)
        if Path(directory).resolve() != static_dir.resolve():
            return handler
        get_response = handler.get_response

        async def with_preloads(path: str, scope: Any) -> Any:
            response = await get_response(path, scope)
            if response.status_code == 200 and Path(str(getattr(response, "path", ""))).resolve() == index.resolve():
                return HTMLResponse(html, headers={"Cache-Control": "no-cache"})
            return response

        handler.get_response = with_preloads
        return handler

    create.kcompat_preloads = True  # type: ignore[attr-defined]
    routes.create_streamlit_static_handler = create
    return f"{added} files announced in index.html"
