"""Command lines: a ``ps`` line, a shell command, or a static pod's ``command``/``args``.

Flags are read as pflag reads them (spf13/pflag ``FlagSet.parseLongArg``): ``--flag=value``,
or ``--flag value`` (the next word is the value) for a flag that is not boolean; a boolean flag
alone means true. ``--`` ends the flags. Only the flags in :data:`model.FLAGS` are kept.
"""

from __future__ import annotations

import os
import re

from .model import (
    BOOL_FLAGS,
    COMPONENTS,
    FLAGS,
    MAX_DOCUMENT_BYTES,
    Fact,
    FlagSet,
    InspectError,
    Reading,
    Where,
)

#: Command lines of a component read from one input (ps aux | grep kube lists a handful).
MAX_COMMAND_LINES = 100

#: Words before the binary on a line that mean it is not the component's own process.
_NOT_THE_PROCESS = frozenset({"grep", "egrep", "fgrep", "pgrep", "rg", "less", "cat", "tail", "head", "vi", "vim"})
_LONG_FLAG = re.compile(r"^--([A-Za-z0-9][A-Za-z0-9_.-]*)(=(.*))?$", re.S)


def component_of(word: str) -> str | None:
    """The component a program path names (``/usr/local/bin/kube-apiserver`` -> kube-apiserver)."""
    base = os.path.basename(word)
    return base if base in COMPONENTS else None


def flags_from_args(args: list[str], component: str, where: Where, lines: list[int | None] | None = None) -> FlagSet:
    """The kcompat flags among ``args`` (the words after the program). ``lines`` gives each
    word's line when the words come from a multi-line list (a manifest's ``command``)."""
    found: list[tuple[str, Fact]] = []
    i = 0
    while i < len(args):
        word = args[i]
        at = Where(where.file, lines[i] if lines else where.line)
        i += 1
        if word == "--":
            break
        match = _LONG_FLAG.match(word)
        if not match:
            continue
        name, has_value, value = match.group(1), match.group(2) is not None, match.group(3)
        if not has_value:
            if name in BOOL_FLAGS:
                value = "true"
            elif i < len(args) and not args[i].startswith("-"):
                value = args[i]
                word = f"{word} {value}"
                i += 1
            elif name in FLAGS:
                raise InspectError(f"{at}: flag needs an argument: --{name}")
            else:
                continue
        if name in FLAGS:
            found.append((name, Fact(value, at, word)))
    return FlagSet(component, tuple(found), where)


#: One piece of a POSIX shell word: plain characters, a '...' or "..." string, a backslash
#: escape, or the blanks between words (what ``shlex.split(line, posix=True)`` reads).
_SHELL_PIECE = re.compile(r"""([^ \t\r\n'"\\]+)|'([^']*)'|"((?:[^"\\]|\\.)*)"|\\(.)|([ \t\r\n]+)""", re.S)
_DQUOTE_ESCAPE = re.compile(r'\\(["\\])')


def shell_words(line: str) -> list[str]:
    """``shlex.split(line, posix=True)`` in one regular-expression pass: linear in the line's
    length (shlex adds a character at a time to its token, quadratic on a long word). An
    unclosed quote or a trailing backslash raises ValueError, as shlex does."""
    words: list[str] = []
    word: list[str] | None = None
    pos, end = 0, len(line)
    while pos < end:
        match = _SHELL_PIECE.match(line, pos)
        if match is None:
            raise ValueError(f"unclosed quotation or escape at character {pos}")
        plain, single, double, escaped, blank = match.groups()
        pos = match.end()
        if blank is not None:
            if word is not None:
                words.append("".join(word))
                word = None
            continue
        if word is None:
            word = []
        if plain is not None:
            word.append(plain)
        elif single is not None:
            word.append(single)
        elif double is not None:
            word.append(_DQUOTE_ESCAPE.sub(r"\1", double))
        else:
            word.append(escaped)
    if word is not None:
        words.append("".join(word))
    return words


def _words(line: str) -> list[str]:
    try:
        return shell_words(line)
    except ValueError:
        # a ps line is not shell text (ps prints arguments unquoted): split on blanks
        return line.split()


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """Lines with shell continuations (a trailing backslash) joined, with their first line number."""
    out: list[tuple[int, str]] = []
    pending: list[str] = []
    start = 1
    for number, line in enumerate(text.splitlines(), 1):
        if not pending:
            start = number
        if line.rstrip().endswith("\\"):
            pending.append(line.rstrip()[:-1])
            continue
        pending.append(line)
        out.append((start, " ".join(pending)))
        pending = []
    if pending:
        out.append((start, " ".join(pending)))
    return out


def read_command_lines(text: str, source: str) -> Reading:
    """Every line of ``text`` that runs a component (a ``ps`` line, a shell command, a
    systemd ``ExecStart=``); other lines (a ``ps`` header, a ``grep``) are skipped."""
    if len(text) > MAX_DOCUMENT_BYTES:
        raise InspectError(
            f"{source}: {len(text):,} characters of command lines, more than the limit of {MAX_DOCUMENT_BYTES:,} "
            "(give only the component's lines: ps aux | grep kube-apiserver)"
        )
    sets: list[FlagSet] = []
    for number, line in _logical_lines(text):
        if line.lstrip().startswith("#") or not any(c in line for c in COMPONENTS):
            continue  # no component named: not split into words at all
        words = _words(line.strip().removeprefix("ExecStart="))
        for index, word in enumerate(words):
            component = component_of(word)
            if component is None:
                continue
            if any(os.path.basename(w) in _NOT_THE_PROCESS for w in words[:index]):
                break
            sets.append(flags_from_args(words[index + 1:], component, Where(source, number)))
            if len(sets) > MAX_COMMAND_LINES:
                raise InspectError(f"{source} line {number}: more than {MAX_COMMAND_LINES} command lines of a component, the limit")
            break
    if not sets:
        raise InspectError(
            f"{source}: no command line of {', '.join(COMPONENTS)} found "
            "(expected a ps line, a command line, a static pod manifest, a kubeadm or kind config, "
            "/version JSON or /metrics text)"
        )
    return Reading(source, "command line", flag_sets=tuple(sets))
