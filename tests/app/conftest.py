"""AppTest helpers: the real entry script, the real bundled data, no mocks."""

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "dashboard" / "app.py"
TIMEOUT = 30

_ESCAPE = re.compile(r"\\(.)")


def plain(markdown: str) -> str:
    """Undo the app's Markdown escaping (every punctuation character gets a backslash)."""
    return _ESCAPE.sub(r"\1", markdown).replace("  \n", "\n")


def open_app(page: str | None = None, **params: str) -> AppTest:
    """Run app.py with these query parameters, then switch to ``app_pages/<page>.py`` if given.

    AppTest always starts on the default page; for another page the parameters are set again
    before switching, which is what opening ``/<page>?<params>`` in a browser amounts to."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    if page is not None:
        for key, value in params.items():
            at.query_params[key] = value
        at.switch_page(f"app_pages/{page}.py").run()
        assert not at.exception, [e.value for e in at.exception]
    return at


def rerun(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(elements) -> list[str]:
    return [plain(e.value) for e in elements]


def metric(at: AppTest, label_start: str) -> str:
    return next(m.value for m in at.metric if m.label.startswith(label_start))


def current_page(at: AppTest) -> str:
    """The app_pages/ module the last run ended on (from AppTest's record of st.navigation)."""
    pages = at._registered_pages  # noqa: SLF001
    return Path(pages[at._finished_page_script_hash]["script_path"]).stem  # noqa: SLF001


@pytest.fixture
def app():
    return open_app


@pytest.fixture
def csv_downloads(monkeypatch):
    """The texts of the pages' table CSV buttons (``dashboard.tables.downloads.table_csv``) by widget
    key, as a click would produce them; the buttons are still drawn."""
    from dashboard.tables import downloads

    texts: dict[str, str] = {}
    original = downloads.table_csv

    def recording(rows, columns, file_name, key, help=None, **kwargs):
        rows = [dict(r) for r in rows]
        texts[key] = downloads.csv_text(rows, columns, **kwargs)
        original(rows, columns, file_name, key, help, **kwargs)

    monkeypatch.setattr(downloads, "table_csv", recording)
    return texts


def open_export(at: AppTest, key: str) -> AppTest:
    """Click a table's "Download…" button (widget ``key``): the run draws its export dialog."""
    at.button(key=key).click()
    return rerun(at)


@pytest.fixture
def exports(monkeypatch):
    """The exports the pages' dialogs drew (``dashboard.tables.downloads.TableExport``, by the table's
    button key, see :func:`open_export`): ``exports[key].text(fmt)`` is the file a click on that
    format's button gives; the buttons are still drawn."""
    from dashboard.tables import downloads

    drawn: dict = {}
    original = downloads.export_buttons

    def recording(export, key, help=None):
        drawn[key] = export
        original(export, key, help)

    monkeypatch.setattr(downloads, "export_buttons", recording)
    return drawn
