"""Rendering rows as table, JSON, CSV or Markdown text (shared by the CLI and the downloads)."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping, Sequence

from kcompat.core.errors import MAX_SHOWN, MESSAGE_LIMIT, bounded, cut, printable

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import TextIO, TypeVar

    from kcompat.answers.startup import SelectionRefused

    #: A JSON document (a TypedDict or a plain dict).
    Document = TypeVar("Document", bound=Mapping[str, object])

#: The unsafe characters (:data:`~kcompat.core.errors.UNSAFE_PATTERN`) that ``json.dumps``
#: leaves unescaped (it escapes C0 controls itself); of ASCII only DEL.
_JSON_RAW_UNSAFE = "[\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]"

FORMATS = ("table", "json", "csv", "markdown")
#: What a table cell shows for "no value" in the tables of the pages and their texts (never
#: ``None`` or an empty string).
MISSING = "—"
#: Plain words for code terms in tables and labels; the code term stays in the data and in JSON.
PLAIN = {"PreAlpha": "not yet introduced"}


def plain(term: str) -> str:
    """A code term in plain words (``PreAlpha`` -> "not yet introduced"), other terms as they are."""
    return PLAIN.get(term, term)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell_text(value: object) -> str:
    if value is None or (isinstance(value, float) and value != value):  # None, or NaN: a missing number
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def csv_safe(text: str) -> str:
    """Neutralise spreadsheet formulas (CSV injection): a leading = + - @ tab or CR gets a quote,
    also in their full-width and small forms (＝ ＋ － ＠ ﹦ ﹢ ﹣ ﹫, which spreadsheets read as the
    ASCII ones); control and bidirectional characters are written as escapes (:func:`printable`)."""
    import unicodedata  # (imported by CSV output only: not on every command's start)

    if text[:1] and (text.startswith(_FORMULA_START) or unicodedata.normalize("NFKC", text[:1]).startswith(_FORMULA_START)):
        return "'" + printable(text)
    return printable(text)


def rows_to_csv(rows: Sequence[Mapping[str, object]], columns: Sequence[str]) -> str:
    import csv  # (imported by CSV output only: not on every command's start)

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([csv_safe(cell_text(row.get(c))) for c in columns])
    return out.getvalue()


#: Characters with a meaning in (GitHub-flavoured) Markdown inside a line: code, emphasis,
#: strikethrough, links and images, HTML and entities, headings, math.
_MD_SPECIAL = r"([\\`*_\[\]<>#!~&$|])"
#: What starts an autolink (GFM extended autolinks: www., a scheme, an e-mail address).
_MD_AUTOLINK = r"(?i)(www)\.|(:)(//)|(@)"


def _md_escape(text: str) -> str:
    # (re caches the compiled patterns: compiled on first use, not on every command's start)
    text = printable(text)
    text = re.sub(_MD_SPECIAL, r"\\\1", text)
    return re.sub(_MD_AUTOLINK, lambda m: f"{m.group(1)}\\." if m.group(1) else ("\\://" if m.group(2) else "\\@"), text)


def md_escape(text: str) -> str:
    """Text for a Markdown line: control characters as escapes, and everything Markdown would
    read as markup (pipes, code, emphasis, strikethrough, links, autolinks, HTML, entities)
    escaped with a backslash, so input text is shown, never styled or linked."""
    return _md_escape(text)


def rows_to_markdown(rows: Sequence[Mapping[str, object]], columns: Sequence[str]) -> str:
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(_md_escape(cell_text(row.get(c))) for c in columns) + " |")
    return "\n".join(lines) + "\n"


def rows_to_table(rows: Sequence[Mapping[str, object]], columns: Sequence[str]) -> str:
    cells = [[printable(cell_text(row.get(c))) for c in columns] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    lines = [fmt.format(*columns).rstrip(), fmt.format(*("-" * w for w in widths)).rstrip()]
    lines += [fmt.format(*r).rstrip() for r in cells]
    return "\n".join(lines) + "\n"


def render_rows(fmt: str, rows: Sequence[Mapping[str, object]], columns: Sequence[str]) -> str:
    """Rows as ``table``, ``csv`` or ``markdown`` text."""
    return {"table": rows_to_table, "csv": rows_to_csv, "markdown": rows_to_markdown}[fmt](rows, columns)


def selection_summary(binary: object, emulated: object, min_compat: object | None = None, refused: bool = False) -> str:
    """The selection in the line above a table: ``binary 1.36, emulated 1.33, min compatibility
    1.33``. When the binary refuses the version flags it names no versions: the ones it would keep
    are not an answer (the errors below say why)."""
    if refused:
        return f"binary {binary}, emulated version: none (the binary refuses the version flags)"
    text = f"binary {binary}, emulated {emulated}"
    return text if min_compat is None else f"{text}, min compatibility {min_compat}"


#: The keys of the lists of problems a document bounds (:func:`bound_lists`).
PROBLEM_KEYS = ("errors", "warnings", "notReady", "hints", "notes", "problems")


def bounded_field(key: str, messages: Iterable[str]) -> dict[str, object]:
    """A list of problems in a JSON document, bounded as the text output bounds it: ``key`` holds
    the first :data:`~kcompat.core.errors.MAX_SHOWN` (each cut), and ``<key>Omitted`` how many
    more there are (only when there are more)."""
    first, omitted = bounded(messages)
    return {key: first, f"{key}Omitted": omitted} if omitted else {key: first}


def bound_lists(document: Document, keys: Sequence[str] = PROBLEM_KEYS, limit: int = MAX_SHOWN) -> Document:
    """``document`` with each list under ``keys`` bounded as :func:`bounded_field` bounds one: the
    first ``limit`` items (text cut to MESSAGE_LIMIT characters), then ``<key>Omitted``: how many
    more there were, right after it (only when there were more). The one way every JSON
    document of the command line and the pages' downloads says a long list of problems."""
    out: dict[str, object] = {}
    for key, value in document.items():
        if key in keys and isinstance(value, list) and not key.endswith("Omitted"):
            out[key] = [cut(v, MESSAGE_LIMIT) if isinstance(v, str) else v for v in value[:limit]]
            if len(value) > limit:
                out[f"{key}Omitted"] = len(value) - limit
        else:
            out[key] = value
    return out  # type: ignore[return-value]  # the same keys, each list bounded


def listed(document: Mapping[str, object], key: str) -> list[str]:
    """A bounded list of a document (:func:`bound_lists`) as text output shows it: its items, then
    "… and N more" when it counts more (what :func:`~kcompat.core.errors.shown` prints)."""
    items = document.get(key)
    out = [str(item) for item in items] if isinstance(items, list) else []
    omitted = document.get(f"{key}Omitted")
    if isinstance(omitted, int) and omitted:
        out.append(f"… and {omitted:,} more")
    return out


def refused_document(refusal: SelectionRefused) -> dict[str, object]:
    """``{"binary", "emulated", "minCompatibility", "valid", "verdict", "errors", "warnings",
    "hints"}`` for a selection the binary refuses (``kcompat gate``, ``timeline``, ``skew``):
    the versions are null when the binary refuses the version flags."""
    return {
        "binary": refusal.binary,
        "emulated": None if refusal.versions_refused else refusal.emulated,
        "minCompatibility": None if refusal.versions_refused else refusal.min_compat,
        "valid": False,
        "verdict": "refuses",
        **bounded_field("errors", refusal.errors),
        **bounded_field("warnings", refusal.warnings),
        **bounded_field("hints", refusal.hints),
    }


def report_problems(
    summary: str, warnings: Sequence[str], errors: Sequence[str], stream: TextIO, hints: Sequence[str] = (), not_ready: Sequence[str] = ()
) -> None:
    """The lines a text-format command prints on stderr beside its table (hints after the errors
    and the reasons it would not become ready)."""
    print(f"# {printable(summary)}", file=stream)
    for warning in warnings:
        print(f"warning: {printable(warning)}", file=stream)
    for error in errors:
        print(f"error: {printable(error)}", file=stream)
    for reason in not_ready:
        print(f"not ready: {printable(reason)}", file=stream)
    for hint in hints:
        print(f"hint: {printable(hint)}", file=stream)


def report_verdict(line: str | None, stream: TextIO) -> None:
    """A good start in words (``verdict: kube-apiserver 1.36 starts and becomes ready, ...``), the
    last line a text-format command prints on stderr; nothing for a refusal or a start that does not
    become ready (their ``error:`` and ``not ready:`` lines say so)."""
    if line:
        print(f"verdict: {printable(line)}", file=stream)


def to_json(document: object) -> str:
    """The document as JSON; the control and bidirectional characters JSON leaves raw (DEL, C1,
    U+202E...) are written as \\u escapes too, so a terminal showing it is never styled by it."""
    try:
        text = _indented(document, "", {}) + "\n"
    except _Unusual:
        text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if text.isascii() and "\x7f" not in text:  # (compiling the pattern costs more than the answer's check)
        return text
    return re.sub(_JSON_RAW_UNSAFE, lambda m: f"\\u{ord(m.group()):04x}", text)


class _Unusual(Exception):
    """A value :func:`_indented` leaves to ``json.dumps`` (a key that is not a string, a number,
    a type JSON does not know)."""


def _indented(value: object, pad: str, keys: dict[str, str]) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)`` for the documents answers give
    (dicts with string keys, lists, strings, booleans, None), written by joining strings: the
    same text in half the time of ``json``'s pure-Python indenting encoder, for the whole JSON
    output of a command (a gate table is 10,000 values). Anything else raises :class:`_Unusual`.
    ``keys`` keeps each key's encoded form (a table repeats the same keys on every row)."""
    if isinstance(value, dict):
        return _indented_object(value, pad, keys)
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        inner = pad + "  "
        return "[\n" + inner + (",\n" + inner).join([_indented(item, inner, keys) for item in value]) + "\n" + pad + "]"
    if isinstance(value, str):
        return _encode_string(value)
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if type(value) is int:
        return int.__repr__(value)
    raise _Unusual  # floats (NaN, Infinity), int subclasses and the rest: json's own rules


def _indented_object(value: dict[object, object], pad: str, keys: dict[str, str]) -> str:
    """A dict for :func:`_indented` (its plain values written here: most of a table's values)."""
    if not value:
        return "{}"
    inner = pad + "  "
    parts = []
    for key, item in value.items():
        if type(key) is not str:
            raise _Unusual
        encoded = keys.get(key)
        if encoded is None:
            encoded = keys[key] = _encode_string(key) + ": "
        if type(item) is str:
            parts.append(encoded + _encode_string(item))
        elif type(item) is bool:
            parts.append(encoded + ("true" if item else "false"))
        elif item is None:
            parts.append(encoded + "null")
        else:
            parts.append(encoded + _indented(item, inner, keys))
    return "{\n" + inner + (",\n" + inner).join(parts) + "\n" + pad + "}"


_encode_string = json.encoder.encode_basestring  # (the C encoder JSON uses for ensure_ascii=False)
