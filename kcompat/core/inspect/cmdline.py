"""Command lines: a ``ps`` line, a shell command or script, a systemd unit's ``ExecStart=``, or a
static pod's ``command``/``args``.

Flags are read as pflag reads them (spf13/pflag ``FlagSet.parseArgs``): ``--flag=value``, or
``--flag value`` (the next word is the value, whatever it is) for a flag that is not boolean; a
boolean flag alone means true; ``--`` ends the flags. A word with one dash is shorthand letters:
the control-plane binaries have ``-v`` (log verbosity) and ``-h`` (help), any other letter is
the binary's own start-up error (``unknown shorthand flag: 'e' in -emulated-version=1.34``).
Only the flags in :data:`model.FLAGS` are kept.

What runs the component is followed (:func:`find_invocation`): a shell's ``-c`` script is split
into commands (:mod:`.shell`), ``exec``, ``env`` and wrappers before the program are skipped, and
variables are expanded as the shell, systemd or the kubelet would; a value the inputs cannot tell
is :class:`model.Unread`, never guessed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

from . import messages
from .model import (
    BOOL_FLAGS,
    COMPONENTS,
    FLAGS,
    MAX_DOCUMENT_BYTES,
    Fact,
    FlagParseError,
    FlagSet,
    InspectError,
    Reading,
    Unread,
    Where,
)
from .shell import (
    ShellSyntaxError,
    Undefined,
    Unknown,
    Value,
    Word,
    read_script,
    script_argument,
    shell_of,
    systemd_expand,
)

#: Command lines of a component read from one input (ps aux | grep kube lists a handful).
MAX_COMMAND_LINES = 100
#: Shells inside shells followed (sh -c "bash -c '...'").
MAX_SHELL_DEPTH = 4

#: Words before the binary on a line that mean it is not the component's own process.
_NOT_THE_PROCESS = frozenset({"grep", "egrep", "fgrep", "pgrep", "rg", "less", "cat", "tail", "head", "vi", "vim"})
_LONG_FLAG = re.compile(r"^--([A-Za-z0-9][A-Za-z0-9_.-]*)(=(.*))?$", re.S)
#: The shorthand letters of every control-plane binary: ``-v`` (component-base logs, takes a
#: value) and ``-h`` (cobra's help); pflag refuses any other letter.
SHORTHANDS_WITH_VALUE = frozenset("v")
SHORTHAND_HELP = "h"


def component_of(word: str) -> str | None:
    """The component a program path names (``/usr/local/bin/kube-apiserver`` -> kube-apiserver)."""
    base = os.path.basename(word)
    return base if base in COMPONENTS else None


def _as_words(args: Sequence[str | Word], where: Where, lines: list[int | None] | None) -> list[Word]:
    return [a if isinstance(a, Word) else Word(a, line=lines[i] if lines else where.line) for i, a in enumerate(args)]


def flags_from_args(args: Sequence[str | Word], component: str, where: Where, lines: list[int | None] | None = None) -> FlagSet:  # noqa: C901 - the checks in the order the real code runs them, kept in one place
    """The kcompat flags among ``args`` (the words after the program), the words the binary's
    flag parser refuses, and the flags whose values the inputs cannot tell. ``lines`` gives each
    word's line when the words come from a multi-line list (a manifest's ``command``)."""
    words = _as_words(args, where, lines)
    found: list[tuple[str, Fact]] = []
    unread: list[Unread] = []
    refused: list[FlagParseError] = []
    after_unknown_flag = False  # the word before is a --flag kcompat does not know, without =value
    i = 0
    while i < len(words):
        word = words[i]
        at = Where(where.file, word.line or where.line)
        text = word.text
        i += 1
        maybe_value, after_unknown_flag = after_unknown_flag, False
        if word.known == 0 and not word.is_known:
            # "$EXTRA" may be any argument, a flag too; after a --flag it is perhaps that flag's value
            if not maybe_value:
                unread.append(Unread(None, at, text, word.unknown[0].why))
            continue
        if text == "--":
            break
        if len(text) < 2 or text[0] != "-":
            continue  # an argument (pflag reads flags after arguments too)
        if text[1] != "-":
            if word.known <= 1:
                unread.append(Unread(None, at, text, word.unknown[0].why))
                continue
            if maybe_value and text[1:].split("=", 1)[0] not in FLAGS:
                continue  # perhaps the value of the flag before (pflag would take it as one)
            i = _shorthands(words, i, text, at, refused)
            continue
        name = text[2:]
        if not name or name[0] in "-=":
            refused.append(FlagParseError("bad-syntax", at, text, name))
            continue
        match = _LONG_FLAG.match(text)
        if match is None:
            continue  # a flag name kcompat does not read (an unusual character)
        name, has_value, value = match.group(1), match.group(2) is not None, match.group(3)
        if word.known < 2 + len(name) + (1 if has_value else 0):
            unread.append(Unread(None, at, text, word.unknown[0].why))  # the flag's own name is unknown
            continue
        value_word = word
        if not has_value:
            if name in BOOL_FLAGS:
                value = "true"
            elif name in FLAGS:
                if i >= len(words):
                    refused.append(FlagParseError("needs-argument", at, text, name))
                    continue
                value_word = words[i]
                value = value_word.text
                text = f"{word.shown()} {value_word.shown()}"
                i += 1
            else:
                after_unknown_flag = True
                continue
        if name not in FLAGS:
            continue
        if not value_word.is_known:
            unread.append(Unread(name, at, text, value_word.unknown[0].why))
            continue
        found.append((name, Fact(value, at, text if value_word is not word else word.shown())))
    return FlagSet(component, tuple(found), where, unread=tuple(unread), refused=tuple(refused))


def _shorthands(words: list[Word], i: int, text: str, at: Where, refused: list[FlagParseError]) -> int:
    """pflag's ``parseShortArg`` over the letters of one ``-xyz`` word; the index after what it
    consumed (``-v 2`` takes the next word as the value)."""
    letters = text[1:]
    while letters:
        letter = letters[0]
        if letter in SHORTHANDS_WITH_VALUE:
            if len(letters) > 1 or i < len(words):
                return i if len(letters) > 1 else i + 1
            refused.append(FlagParseError("needs-argument-shorthand", at, text, letters))
            return i
        if letter == SHORTHAND_HELP:
            refused.append(FlagParseError("help", at, text, letters))
            return i
        refused.append(FlagParseError("unknown-shorthand", at, text, letters))
        return i
    return i


@dataclass(frozen=True)
class Found:
    """What a command line runs: the component and the words after it (``component`` None when
    none was found), with the notes and unread parts met on the way (a script with branches, a
    script file the inputs do not show)."""

    component: str | None
    args: tuple[Word, ...] = ()
    where: Where | None = None
    notes: tuple[str, ...] = ()
    unread: tuple[Unread, ...] = ()


def find_invocation(words: Sequence[Word], where: Where, variables: dict[str, Value], undefined: Undefined, depth: int = 0) -> Found:  # noqa: C901 - the checks in the order the real code runs them, kept in one place
    """The component ``words`` run, following a shell's ``-c`` script (its variables from
    ``variables``; ``undefined`` says why a name that is not there is unknown). Words before the
    program (``exec``, ``env A=1``, ``nice -n 5``, ``/go-runner ... --``) are skipped; a ``grep``
    or a pager before it means the line is not the component's own process."""
    opaque: Found | None = None
    for index, word in enumerate(words):
        if not word.is_known and word.known == 0:
            continue
        base = os.path.basename(word.text)
        if base in _NOT_THE_PROCESS:
            break
        component = component_of(word.text)
        if component is not None:
            return Found(component, tuple(words[index + 1:]), Where(where.file, word.line or where.line))
        shell = shell_of(word.text)
        if shell is None or depth >= MAX_SHELL_DEPTH:
            continue
        rest = list(words[index + 1:])
        if shell == "busybox" and rest and rest[0].text in ("sh", "ash"):
            rest = rest[1:]
        at = Where(where.file, word.line or where.line)
        script = script_argument(rest)
        if script is None:
            if rest and not rest[0].text.startswith("-") and opaque is None:
                opaque = Found(None, where=at, unread=(Unread(None, at, f"{word.text} {rest[0].text}", messages.SCRIPT_ELSEWHERE),))
            continue
        text, positional = script
        if not text.is_known:
            why = f"{messages.SCRIPT_NOT_GIVEN}: {text.unknown[0].why}"
            opaque = opaque or Found(None, where=at, unread=(Unread(None, at, text.text, why),))
            continue
        try:
            parsed = read_script(text.text, dict(variables), undefined, positional, at.line or 1)
        except ShellSyntaxError as exc:
            why = messages.script_unreadable(shell, str(exc))
            opaque = opaque or Found(None, where=at, unread=(Unread(None, at, text.text, why),))
            continue
        inner = [find_invocation(list(c.words), Where(where.file, c.line), variables, undefined, depth + 1) for c in parsed.commands]
        runs = [f for f in inner if f.component is not None]
        if runs:
            first = runs[0]
            notes = list(first.notes)
            if parsed.doubts:
                notes.append(messages.script_doubts(at, str(first.component), parsed.doubts))
            if len(runs) > 1:
                notes.append(messages.several_invocations(at, str(first.component), len(runs)))
            return Found(first.component, first.args, first.where, tuple(notes), first.unread)
        opaque = opaque or next((f for f in inner if f.unread), None)
        if opaque is None and not any(component_of(w.text) for w in words[index + 1:]):
            opaque = Found(None, where=at, unread=(Unread(None, at, f"{word.text} -c {text.text}", messages.SCRIPT_ELSEWHERE),))
    return opaque or Found(None)


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


#: A ``ps aux`` / ``ps -ef`` row (user, PID, then %CPU or PPID...) or its header: ps prints the
#: arguments as the process has them, unquoted and already expanded, so they are not shell text.
_PS_ROW = re.compile(r"^\s*\S+\s+\d+\s+(?:\d+\s+)?[\d.]+\s")
_PS_HEADER = re.compile(r"^\s*(?:USER|UID)\s+PID\b", re.M)
_UNIT_KEY = re.compile(r"^\s*(ExecStart|Environment|EnvironmentFile|PassEnvironment)\s*=\s*(.*)$", re.S)
_ASSIGNING_LINE = re.compile(r"^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*=")
#: systemd's prefixes before an ExecStart= program path (``-``: failure ignored, ``@``: argv[0] follows...).
_EXEC_PREFIXES = "-@:+!|"


@dataclass
class _Unit:
    """What a systemd unit's lines say about the environment its ExecStart= runs with."""

    variables: dict[str, Value]
    files: tuple[str, ...]

    def undefined(self, name: str) -> Unknown | None:
        return Unknown(name, messages.unset_in_unit(name, self.files))


def _unit_environment(lines: list[tuple[int, str]]) -> _Unit | None:
    """``Environment=`` (quoted assignments, the later wins; an empty one resets),
    ``EnvironmentFile=`` and ``PassEnvironment=`` (values not in the input), when the text is a unit."""
    variables: dict[str, Value] = {}
    files: list[str] = []
    unit = False
    for _, line in lines:
        match = _UNIT_KEY.match(line)
        if match is None:
            continue
        unit = True
        key, value = match.groups()
        if key == "Environment":
            if not value.strip():
                variables.clear()
                continue
            for assignment in _words(value):
                name, sep, text = assignment.partition("=")
                if sep:
                    variables[name] = text
        elif key == "EnvironmentFile":
            files += [w.lstrip("-") for w in _words(value)] or ["(empty)"]
        elif key == "PassEnvironment":
            files += [f"PassEnvironment={w}" for w in _words(value)]
    return _Unit(variables, tuple(files)) if unit else None


def _line_words(line: str, number: int, unit: _Unit | None, shell_vars: dict[str, Value], ps: bool) -> tuple[list[list[Word]], list[str]]:
    """The commands of one logical line as words, as what reads it would: systemd for an
    ``ExecStart=`` of a unit, nothing for a ps row (its words are the process's own), a POSIX
    shell otherwise (commands split at ; | && newlines, variables expanded)."""
    match = _UNIT_KEY.match(line)
    if match is not None and match.group(1) == "ExecStart":
        words = _words(match.group(2))
        if words and words[0][:1] in _EXEC_PREFIXES:
            at_sign = "@" in words[0].split("/", 1)[0]
            words[0] = words[0].lstrip(_EXEC_PREFIXES)
            if at_sign and len(words) > 1:
                del words[1]  # the argv[0] to pass: the path before it is what runs
        environment = unit or _Unit({}, ())
        return [systemd_expand(words, environment.variables, environment.undefined, number)], []
    if ps:
        return [[Word(w, line=number) for w in _words(line)]], []
    try:
        script = read_script(line, shell_vars, lambda name: Unknown(name, messages.unset_in_text(name)), first_line=number)
    except ShellSyntaxError:
        return [[Word(w, line=number) for w in line.split()]], []  # not shell text: its words as they are
    return [list(c.words) for c in script.commands], list(script.doubts)


def read_command_lines(text: str, source: str) -> Reading:
    """Every line of ``text`` that runs a component (a ``ps`` line, a shell command, a systemd
    ``ExecStart=`` with the unit's ``Environment=``); other lines (a ``ps`` header, a ``grep``)
    are skipped. A shell's standalone assignments (``EMU=1.33``) hold for the lines after them."""
    if len(text) > MAX_DOCUMENT_BYTES:
        raise InspectError(
            f"{source}: {len(text):,} characters of command lines, more than the limit of {MAX_DOCUMENT_BYTES:,} "
            "(give only the component's lines: ps aux | grep kube-apiserver)"
        )
    logical = _logical_lines(text)
    unit = _unit_environment(logical)
    ps_output = _PS_HEADER.search(text) is not None
    shell_vars: dict[str, Value] = {}
    sets: list[FlagSet] = []
    notes: list[str] = []
    for number, line in logical:
        if line.lstrip().startswith("#"):
            continue
        names_component = any(c in line for c in COMPONENTS)
        if not names_component and not (unit is None and _ASSIGNING_LINE.match(line)):
            continue  # no component named: not split into words at all
        ps = ps_output or _PS_ROW.match(line) is not None
        if ps and not names_component:
            continue
        commands, doubts = _line_words(line, number, unit, shell_vars, ps)
        for words in commands:
            found = find_invocation(words, Where(source, number), shell_vars, lambda name: Unknown(name, messages.unset_in_text(name)))
            if found.component is None:
                continue
            flag_set = flags_from_args(list(found.args), found.component, found.where or Where(source, number))
            sets.append(flag_set)
            notes += found.notes
            if doubts:
                notes.append(messages.script_doubts(Where(source, number), found.component, tuple(doubts)))
            if len(sets) > MAX_COMMAND_LINES:
                raise InspectError(f"{source} line {number}: more than {MAX_COMMAND_LINES} command lines of a component, the limit")
            break
    if not sets:
        raise InspectError(
            f"{source}: no command line of {', '.join(COMPONENTS)} found "
            "(expected a ps line, a command line, a static pod manifest, a kubeadm or kind config, "
            "/version JSON or /metrics text)"
        )
    return Reading(source, "command line", flag_sets=tuple(sets), notes=tuple(notes))
