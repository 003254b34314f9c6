"""The one error type the core raises for bad input, and how user input is echoed in messages.

Every echo of user input is cut (:func:`cut`, :func:`quote_cut`): a message never grows with
the input, and a long value says how long it was ("… (100,000 characters)"). Lists of messages
are shown at most :data:`MAX_SHOWN` at a time (:func:`shown`), then "and N more".
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

#: Characters of a user's value echoed back in a message.
ECHO_LIMIT = 60
#: Characters of one whole message (exception text included) before it is cut.
MESSAGE_LIMIT = 10_000
#: Messages shown at once (pages and CLI text output); the rest are counted.
MAX_SHOWN = 20


#: Characters that move the cursor, start a terminal escape, end a line or reorder text when
#: shown: C0 and C1 controls, DEL, line and paragraph separators, bidirectional marks,
#: embeddings, overrides and isolates, invisible separators and the BOM. Every one of them is
#: one ``str.isprintable`` says is not (categories Cc, Cf, Cn, Zl, Zp), so printable text has none.
UNSAFE_PATTERN = "[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]"


@functools.cache
def unsafe_characters() -> re.Pattern[str]:
    """:data:`UNSAFE_PATTERN` compiled, when first needed (its compilation is a third of a
    millisecond of every CLI start otherwise)."""
    return re.compile(UNSAFE_PATTERN)


def __getattr__(name: str) -> re.Pattern[str]:
    if name == "UNSAFE_CHARACTERS":  # the compiled pattern, by its old name
        return unsafe_characters()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _escape_unsafe(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in _GO_ESCAPES and ch not in '"\\':
        return _GO_ESCAPES[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object) -> str:
    """``text`` with every :data:`UNSAFE_PATTERN` character written as an escape (``\\n``, ``\\x1b``,
    ``\\u202e``): what input says can be read, but cannot start a line, style a terminal or
    reorder what is shown around it."""
    text = str(text)
    if text.isprintable():
        return text
    return unsafe_characters().sub(_escape_unsafe, text)


def terminal_text(text: str) -> str:
    """Text about to be written to a terminal, whole lines of it: every :data:`UNSAFE_PATTERN`
    character but the line break and the tab written as an escape (see :func:`printable`), so
    that no escape sequence, carriage return or bidirectional mark gets through, whatever wrote
    it. Text without any (nearly all) is returned as it is after one pass in C."""
    if text.isprintable() or text.replace("\n", "").replace("\t", "").isprintable():
        return text
    return _unsafe_in_lines().sub(_escape_unsafe, text)


@functools.cache
def _unsafe_in_lines() -> re.Pattern[str]:
    return re.compile(UNSAFE_PATTERN.replace("\x00-\x1f", "\x00-\x08\x0b-\x1f"))


def echo(text: object, limit: int = ECHO_LIMIT) -> str:
    """A user's value inside a message: :func:`cut` to ``limit`` characters, then :func:`printable`."""
    return printable(cut(text, limit))


def without_userinfo(url: str) -> str:
    """``url`` without its user-info (``https://admin:PW@host`` is ``https://host``): the one way a
    URL that may carry a password is shown. A URL with no scheme (``user:pw@proxy:3128``) too."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        scheme, rest = "", url
    end = min((i for i in (rest.find("/"), rest.find("?"), rest.find("#")) if i >= 0), default=len(rest))
    at = rest.rfind("@", 0, end)
    if at < 0:
        return url
    return f"{scheme}{sep}{rest[at + 1:]}"


class KcompatError(ValueError):
    """Bad input: a version, a flag value, a manifest. The message names what was wrong."""


class ComponentNotRecorded(KcompatError):
    """A control-plane component whose own gate set is not recorded for a release. Callers that
    can answer with kube-apiserver's gate set instead catch this kind, and say so with
    :attr:`reason`; the message is rendered from the values, never read back."""

    def __init__(self, component: str, release: str, recorded_for: tuple[str, ...]) -> None:
        self.component = component
        self.release = release
        self.recorded_for = recorded_for
        super().__init__(f"{self.reason}; kube-apiserver's is")

    @property
    def reason(self) -> str:
        """What is not recorded, and for which releases it is: the message without its tail."""
        where = ", ".join(self.recorded_for) or "none"
        return f"{self.component}'s gate set is not recorded for {self.release} (recorded for: {where})"

    def __reduce__(self) -> tuple[type[ComponentNotRecorded], tuple[str, str, tuple[str, ...]]]:
        return type(self), (self.component, self.release, self.recorded_for)  # pickled between processes whole


def cut(text: object, limit: int = ECHO_LIMIT) -> str:
    """``text`` itself when short, else its first ``limit`` characters, "…" and its length."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


_GO_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v", '"': '\\"', "\\": "\\\\"}


def go_quote(text: str) -> str:
    """Render a string the way Go's ``%q`` (``strconv.Quote``) does."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in _GO_ESCAPES:
            out.append(_GO_ESCAPES[ch])
        elif code < 0x80:
            out.append(ch if 0x20 <= code < 0x7F else f"\\x{code:02x}")
        elif ch.isprintable():
            out.append(ch)
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


def quote_cut(text: str, limit: int = ECHO_LIMIT) -> str:
    """``go_quote(text)``, of the first ``limit`` characters only when longer, then "… (N characters)"."""
    if len(text) <= limit:
        return go_quote(text)
    return f"{go_quote(text[:limit])}… ({len(text):,} characters)"


def repr_cut(text: str, limit: int = ECHO_LIMIT) -> str:
    """``repr(text)``, of the first ``limit`` characters only when longer, then "… (N characters)"."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"


def shown(messages: Iterable[str], limit: int = MAX_SHOWN, each: int = MESSAGE_LIMIT) -> list[str]:
    """At most ``limit`` messages, each cut to ``each`` characters, then "… and N more"."""
    messages = list(messages)
    out = [cut(m, each) for m in messages[:limit]]
    if len(messages) > limit:
        out.append(f"… and {len(messages) - limit:,} more")
    return out


def bounded(messages: Iterable[str], limit: int = MAX_SHOWN, each: int = MESSAGE_LIMIT) -> tuple[list[str], int]:
    """The first ``limit`` messages, each cut to ``each`` characters, and how many more there are:
    :func:`shown` for a document, which says the rest as a count (JSON ``"<key>Omitted": N``)."""
    out: list[str] = []
    omitted = 0
    for message in messages:
        if len(out) < limit:
            out.append(cut(message, each))
        else:
            omitted += 1
    return out, omitted
