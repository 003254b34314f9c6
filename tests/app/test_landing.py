"""The landing page (Gates): heading, one sentence on emulation, links, the default selection
named as such, plain words for code terms, the advanced upload after the answer; the browser
titles of every page."""

import pytest
from conftest import open_app, texts

from dashboard.frame.landing import COMPATIBILITY_DOC, FEATURE_GATES_DOC, KEP_4330
from dashboard.frame.pages import PAGES, WITHOUT_SELECTION, document_title


def test_heading_sentence_and_links():
    at = open_app()
    (title,) = at.title
    assert title.value == "What does a Kubernetes binary enable when it emulates an older release?"
    intro = at.markdown[0].value
    assert "`--emulated-version`" in intro and "behaves like that older release" in intro
    for url in (KEP_4330, FEATURE_GATES_DOC, COMPATIBILITY_DOC):
        assert f"]({url})" in intro
    assert "KEP-4330" in intro
    assert KEP_4330 == "https://github.com/kubernetes/enhancements/tree/master/keps/sig-architecture/4330-compatibility-versions"


def test_the_default_selection_is_named_as_the_default():
    at = open_app()
    assert any(c.startswith("Shown by default: a 1.37 binary (the newest release) at its own release") for c in texts(at.caption))
    assert at.query_params == {"binary": "1.37", "emulated": "1.37"}  # a copied link names what is shown
    # Another selection is not called the default.
    other = open_app(binary="1.36", emulated="1.33")
    assert not any(c.startswith("Shown by default") for c in texts(other.caption))
    assert other.title[0].value.startswith("What does a Kubernetes binary enable")


def test_only_the_landing_page_has_the_heading():
    at = open_app("timeline", binary="1.36", emulated="1.33")
    assert not at.title


def _walk(node):
    children = getattr(node, "children", None)
    if isinstance(children, dict):
        for child in children.values():
            yield from _walk(child)
    else:
        yield node


def test_custom_manifest_button_comes_after_the_answer():
    at = open_app(binary="1.36", emulated="1.33")
    order = [getattr(e, "key", None) or e.type for e in _walk(at.main)]
    table = order.index("gates_table_0")
    upload = order.index("custom_manifest_open")
    assert upload > table, order


@pytest.mark.parametrize(
    ("key", "binary", "emulated", "title"),
    [
        ("gates", "1.36", "1.33", "1.36 emulating 1.33 · Gates · kcompat"),
        ("gates", "1.36", "1.36", "1.36 · Gates · kcompat"),
        ("timeline", "1.35", "1.33", "1.35 emulating 1.33 · Timeline · kcompat"),
        ("gate", "1.36", "1.33", "1.36 emulating 1.33 · Gate detail · kcompat"),
        ("about", "1.36", "1.33", "About the data · kcompat"),
        ("matrix", "1.36", "1.33", "Release matrix · kcompat"),
    ],
)
def test_document_titles_name_the_selection_and_the_page(key, binary, emulated, title):
    assert document_title(key, binary, emulated) == title


def test_every_page_has_its_own_title():
    titles = {document_title(key, "1.36", "1.33") for key in PAGES}
    assert len(titles) == len(PAGES)
    assert set(PAGES) >= WITHOUT_SELECTION
