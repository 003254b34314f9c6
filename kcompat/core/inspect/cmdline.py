"""Command lines: a ``ps`` line, a shell command, or a static pod's ``command``/``args``.

Flags are read as pflag reads them (spf13/pflag ``FlagSet.parseLongArg``): ``--flag=value``,
or ``--flag value`` (the next word is the value) for a flag that is not boolean; a boolean flag
alone means true. ``--`` ends the flags. Only the flags in :data:`model.FLAGS` are kept.
"""

from __future__ import annotations

import os
import re
import shlex

from .model import BOOL_FLAGS, COMPONENTS, FLAGS, Fact, FlagSet, InspectError, Reading, Where

#: Words before the binary on a line that mean it is not the component's own process.
_NOT_THE_PROCESS = frozenset({"grep", "egrep", "fgrep", "pgrep", "rg", "less", "cat", "tail", "head", "vi", "vim"})
_LONG_FLAG = re.compile(r"^--([A-Za-z0-9][A-Za-z0-9_.-]*)(=(.*))?$", re.S)


def component_of(word: str) -> str | None:
    """The component a program path names (``/usr/local/bin/kube-apiserver`` -> kube-apiserver)."""
    base = os.path.basename(word)
    return base if base in COMPONENTS else None


def flags_from_args(args: list[str], component: str, where: Where, lines: list[int] | None = None) -> FlagSet:
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


def _words(line: str) -> list[str]:
    try:
        return shlex.split(line, comments=False, posix=True)
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
    sets: list[FlagSet] = []
    for number, line in _logical_lines(text):
        if line.lstrip().startswith("#"):
            continue
        words = _words(line.strip().removeprefix("ExecStart="))
        for index, word in enumerate(words):
            component = component_of(word)
            if component is None:
                continue
            if any(os.path.basename(w) in _NOT_THE_PROCESS for w in words[:index]):
                break
            sets.append(flags_from_args(words[index + 1:], component, Where(source, number)))
            break
    if not sets:
        raise InspectError(
            f"{source}: no command line of {', '.join(COMPONENTS)} found "
            "(expected a ps line, a command line, a static pod manifest, a kubeadm or kind config, "
            "/version JSON or /metrics text)"
        )
    return Reading(source, "command line", flag_sets=tuple(sets))
