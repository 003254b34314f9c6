"""Two pieces of the CLI's output guard: :func:`terminal_text` (control characters but line
breaks and tabs made visible) and :func:`without_userinfo` (a URL shown without its password).
The secret registry is tested in tests/cli/test_secrets.py."""

from __future__ import annotations

import pytest

from kcompat.core.errors import (
    UNSAFE_PATTERN,
    terminal_text,
    unsafe_characters,
    without_userinfo,
)


def test_terminal_text_keeps_lines_and_tabs_and_shows_the_rest():
    assert terminal_text("a\tb\nc\n") == "a\tb\nc\n"
    assert terminal_text("x\x1b]0;t\x07\x1b[31m\r\x9b\u202e\u2028\x7f\n") == "x\\x1b]0;t\\a\\x1b[31m\\r\\x9b\\u202e\\u2028\\x7f\n"
    assert terminal_text("gr\u00fc\u00dfe \u4e16\u754c\n") == "gr\u00fc\u00dfe \u4e16\u754c\n"  # printable non-ASCII stays


def test_terminal_text_leaves_no_unsafe_character_but_newline_and_tab():
    every = "".join(chr(c) for c in range(0x2100) if unsafe_characters().match(chr(c))) + "\ufeff\ufff9"
    shown = terminal_text(every)
    assert set(unsafe_characters().findall(shown)) == {"\n", "\t"}
    assert UNSAFE_PATTERN.startswith("[\x00")


@pytest.mark.parametrize(("url", "shown"), [
    ("https://admin:PW@host:6443/a@b", "https://host:6443/a@b"),
    ("http://u:p@w@proxy:3128", "http://proxy:3128"),
    ("u:pw@proxy:3128", "proxy:3128"),
    ("https://host/x@y?q=@#@", "https://host/x@y?q=@#@"),
    ("https://host", "https://host"),
    ("socks5://user:pw@127.0.0.1:1080", "socks5://127.0.0.1:1080"),
])
def test_without_userinfo(url, shown):
    assert without_userinfo(url) == shown
