"""What a process is really given: the arguments after the kubelet, a shell or systemd expanded them.

A control-plane component is not always started by its own command line as written:

- the kubelet expands ``$(VAR)`` in a container's ``command`` and ``args`` from the container's
  ``env`` (``third_party/forked/golang/expansion``: ``$$`` is a literal ``$``, a name that is not
  defined stays as written); :func:`kubelet_expand`;
- a container or a unit may run a shell script (``sh -c "exec kube-apiserver --emulated-version=$EMU"``):
  :func:`read_script` splits it into simple commands with POSIX shell quoting, operators and
  ``$VAR``/``${VAR}``/``"$@"`` expansion (linear regular-expression passes, no ``eval``);
- systemd expands ``${VAR}`` anywhere in a word and ``$VAR`` as a word of its own from the unit's
  ``Environment=`` (``replace_env_argv`` in systemd's ``env-util.c``; ``$$`` is a literal ``$``);
  :func:`systemd_expand`.

Where the inputs cannot tell a value (a ``valueFrom``, an ``EnvironmentFile=``, a command
substitution), the word keeps the reference as written and says why it is unknown
(:class:`Unknown`): the flag it holds is then unknown, never guessed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

#: Programs that run their ``-c`` argument as a POSIX shell script.
SHELLS = frozenset({"sh", "bash", "dash", "ash", "ksh", "zsh", "busybox"})
#: Words that start shell control flow: a script using them may not run the line it holds.
_CONTROL_WORDS = frozenset({"if", "then", "else", "elif", "fi", "case", "esac", "for", "while", "until", "do", "done", "select", "function"})
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)$", re.S)


@dataclass(frozen=True)
class Unknown:
    """A part of an argument the inputs cannot tell: ``reference`` as written, and why."""

    reference: str
    why: str


@dataclass(frozen=True)
class Word:
    """One argument as the process receives it, as far as the inputs tell.

    ``text`` is the value, with each unknown part kept as written (``--emulated-version=$(EMU)``);
    ``known`` is how many leading characters of ``text`` are known (``len(text)`` when all are);
    ``may_split`` says an unknown unquoted expansion may become zero or several arguments;
    ``written`` is the word as the input writes it, when that differs from ``text``."""

    text: str
    unknown: tuple[Unknown, ...] = ()
    known: int = -1
    may_split: bool = False
    line: int | None = None
    written: str = ""

    def __post_init__(self) -> None:
        if self.known < 0:
            object.__setattr__(self, "known", len(self.text))

    def shown(self) -> str:
        """The word for a message: as written, and what it became when that differs."""
        if not self.written or self.written == self.text or not self.is_known:
            return self.text
        return f"{self.written} (expanded: {self.text})"

    @property
    def is_known(self) -> bool:
        return not self.unknown


def known_word(text: str, line: int | None = None) -> Word:
    return Word(text, line=line)


#: A variable's value: known text, or why it cannot be known.
Value = str | Unknown
#: What a name not in the variables is: an Unknown (the reason), or None when it expands to
#: nothing (a shell variable known to be unset) or stays as written (the kubelet).
Undefined = Callable[[str], Unknown | None]


# --- the kubelet: $(VAR) ---------------------------------------------------------------------

_KUBELET_REF = re.compile(r"\$(?:\$|\(([^)]*)\))")


def kubelet_expand(text: str, variables: Mapping[str, Value], undefined: Undefined, line: int | None = None) -> Word:
    """``expansion.Expand(text, MappingFuncFor(env))`` as the kubelet runs it on each element of
    ``command`` and ``args``: ``$(NAME)`` becomes the variable's value, ``$$`` a ``$``; a name that
    is not defined stays ``$(NAME)`` unless ``undefined`` says why its value is unknown (an
    ``envFrom`` may define it)."""
    out: list[str] = []
    unknown: list[Unknown] = []
    known = -1
    last = 0
    for match in _KUBELET_REF.finditer(text):
        out.append(text[last:match.start()])
        last = match.end()
        if match.group(0) == "$$":
            out.append("$")
            continue
        name = match.group(1)
        value = variables.get(name)
        if value is None:
            why = undefined(name)
            if why is None:
                out.append(match.group(0))  # left as written: the process gets "$(NAME)"
                continue
            value = why
        if isinstance(value, Unknown):
            if known < 0:
                known = sum(map(len, out))
            unknown.append(Unknown(match.group(0), value.why))
            out.append(match.group(0))
        else:
            out.append(value)
    out.append(text[last:])
    joined = "".join(out)
    return Word(joined, tuple(unknown), known if unknown else len(joined), line=line, written=text)


def kubelet_left_as_written(text: str, variables: Mapping[str, Value]) -> list[str]:
    """The ``$(NAME)`` references of ``text`` the variables do not define (the kubelet leaves
    them as written, and the process receives ``$(NAME)``)."""
    return [m.group(1) for m in _KUBELET_REF.finditer(text) if m.group(1) is not None and m.group(1) not in variables]


# --- systemd: ${VAR}, $VAR as a word, $$ -----------------------------------------------------

_SYSTEMD_REF = re.compile(r"\$(?:\$|\{([^}]*)\})")


def systemd_expand(words: list[str], variables: Mapping[str, Value], undefined: Undefined, line: int | None = None) -> list[Word]:
    """``replace_env_argv``: a word that is ``$NAME`` alone becomes the variable's value split at
    whitespace (zero or more words); ``${NAME}`` anywhere in a word becomes its value as it is;
    ``$$`` a ``$``. A variable no ``Environment=`` sets expands to nothing unless ``undefined``
    says why it may be set elsewhere (an ``EnvironmentFile=``)."""
    out: list[Word] = []
    for word in words:
        if word.startswith("$") and word[1:2] not in ("{", "$") and _NAME.match(word[1:]):
            value = _lookup(word[1:], variables, undefined)
            if isinstance(value, Unknown):
                out.append(Word(word, (Unknown(word, value.why),), 0, may_split=True, line=line))
            else:
                out.extend(Word(part, line=line, written=word) for part in value.split())
            continue
        parts: list[str] = []
        unknown: list[Unknown] = []
        known = -1
        last = 0
        for match in _SYSTEMD_REF.finditer(word):
            parts.append(word[last:match.start()])
            last = match.end()
            if match.group(0) == "$$":
                parts.append("$")
                continue
            value = _lookup(match.group(1), variables, undefined)
            if isinstance(value, Unknown):
                if known < 0:
                    known = sum(map(len, parts))
                unknown.append(Unknown(match.group(0), value.why))
                parts.append(match.group(0))
            else:
                parts.append(value)
        parts.append(word[last:])
        text = "".join(parts)
        out.append(Word(text, tuple(unknown), known if unknown else len(text), line=line, written=word))
    return out


def _lookup(name: str, variables: Mapping[str, Value], undefined: Undefined) -> Value:
    value = variables.get(name)
    if value is not None:
        return value
    return undefined(name) or ""


# --- a POSIX shell script --------------------------------------------------------------------

#: One token of a script outside quotes, in the order they are tried.
_TOKEN = re.compile(
    r"""(?P<blank>[ \t]+)
    |(?P<cont>\\\r?\n)
    |(?P<newline>\r?\n)
    |(?P<redirect>[0-9]*(?:&>>?|[<>]&|>>|<<<|<<-?|<>|>\||[<>]))
    |(?P<op>&&|\|\||;;|\|&|[;&|()])
    |'(?P<single>[^']*)'
    |"(?P<double>(?:[^"\\]|\\.)*)"
    |\\(?P<escape>.)
    |(?P<dollar>\$)
    |`(?P<backtick>(?:[^`\\]|\\.)*)`
    |(?P<plain>[^ \t\r\n'"\\$`;&|()<>]+)""",
    re.X | re.S,
)
_DOUBLE_PIECE = re.compile(r"""\\(?P<escape>[$`"\\\n])|(?P<dollar>\$)|`(?P<backtick>(?:[^`\\]|\\.)*)`|(?P<plain>[^\\$`]+|\\)""", re.S)
_DOLLAR = re.compile(r"""\$(?:\{(?P<brace>[^}]*)\}|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<special>[0-9@*#?$!-])|(?P<paren>\()|(?P<ansi>'))""")
_BRACE = re.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_]*|[0-9@*#])(?:(?P<op>:?[-=?+])(?P<arg>[^$`]*))?$", re.S)


class ShellSyntaxError(ValueError):
    """A script kcompat cannot split reliably (an unclosed quote or substitution, or past
    :data:`MAX_SCRIPT_TOKENS`)."""


#: Words, quotes and expansions read from one script or command line: a real one has a few
#: hundred; past this a text is not read as shell (a ps line's words are taken as they are), which
#: keeps the largest input well under a second.
MAX_SCRIPT_TOKENS = 50_000


@dataclass(slots=True)
class _Part:
    kind: str  # "lit", "var", "pos", "unknown"
    text: str  # literal text, a variable or positional name, or the unknown reference
    quoted: bool = False
    raw: str = ""
    op: str = ""
    arg: str = ""
    why: str = ""


@dataclass
class _Command:
    words: list[tuple[list[_Part], str]] = field(default_factory=list)  # each word's parts and how it is written
    line: int = 1


@dataclass(frozen=True)
class Invocation:
    """A simple command of a script, its words expanded: where it is and what it runs."""

    words: tuple[Word, ...]
    line: int


@dataclass(frozen=True)
class Script:
    """A script read: the simple commands that name a program, in order, and why the reading
    may miss something (control flow, a here-document, a file it sources)."""

    commands: tuple[Invocation, ...]
    doubts: tuple[str, ...] = ()


_DOUBLE_SPECIAL = re.compile(r"[\\$`]")
_DOUBLE_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)


def _substitution_end(text: str, start: int) -> int:
    """The index after the ``)`` closing the ``$(`` whose ``(`` is at ``start`` (quotes and
    nested parentheses skipped); ShellSyntaxError when it is not closed."""
    depth, pos = 0, start
    while pos < len(text):
        ch = text[pos]
        if ch == "\\":
            pos += 2
            continue
        if ch == "'":
            end = text.find("'", pos + 1)
            if end < 0:
                break
            pos = end + 1
            continue
        if ch == '"':
            match = _DOUBLE_QUOTED.match(text, pos)
            if match is None:
                break
            pos = match.end()
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return pos + 1
        pos += 1
    raise ShellSyntaxError(f"unclosed $( at character {start}")


def _dollar(text: str, pos: int, quoted: bool) -> tuple[_Part, int]:
    """The expansion starting with the ``$`` at ``pos``, and where it ends."""
    match = _DOLLAR.match(text, pos)
    if match is None:  # a $ before a blank, a quote or the end: itself
        return _Part("lit", "$", quoted), pos + 1
    if match.group("paren") is not None:
        end = _substitution_end(text, pos + 1)
        return _Part("unknown", text[pos:end], quoted, why="a command substitution: its output is not in the inputs"), end
    if match.group("ansi") is not None:
        end = text.find("'", match.end())
        if end < 0:
            raise ShellSyntaxError(f"unclosed $' at character {pos}")
        return _Part("unknown", text[pos:end + 1], quoted, why="bash's $'...' quoting, which sh does not read the same way"), end + 1
    raw = match.group(0)
    if match.group("name") is not None:
        return _Part("var", match.group("name"), quoted, raw), match.end()
    if match.group("special") is not None:
        special = match.group("special")
        if special.isdigit() or special in "@*":
            return _Part("pos", special, quoted, raw), match.end()
        return _Part("unknown", raw, quoted, why="a value the shell sets when it runs"), match.end()
    inner = _BRACE.match(match.group("brace") or "")
    if inner is None or inner.group("op") in ("?",):
        return _Part("unknown", raw, quoted, why="a ${...} form kcompat does not evaluate"), match.end()
    name = inner.group("name")
    kind = "pos" if name[0].isdigit() or name in "@*" else "var"
    if name == "#":
        return _Part("unknown", raw, quoted, why="a value the shell sets when it runs"), match.end()
    return _Part(kind, name, quoted, raw, inner.group("op") or "", inner.group("arg") or ""), match.end()


def _double(content: str, start: int) -> list[_Part]:
    parts: list[_Part] = [_Part("lit", "", True)]  # "" is a word even when empty
    if not _DOUBLE_SPECIAL.search(content):
        parts.append(_Part("lit", content, True))
        return parts
    pos = 0
    while pos < len(content):
        match = _DOUBLE_PIECE.match(content, pos)
        if match is None:  # pragma: no cover - every character matches one alternative
            raise ShellSyntaxError(f"unreadable text at character {start + pos}")
        if match.group("dollar") is not None:
            part, pos = _dollar(content, pos, True)
            parts.append(part)
            continue
        pos = match.end()
        if match.group("escape") is not None:
            escaped = match.group("escape")
            parts.append(_Part("lit", "" if escaped == "\n" else escaped, True))
        elif match.group("backtick") is not None:
            parts.append(_Part("unknown", match.group(0), True, why="a command substitution: its output is not in the inputs"))
        else:
            parts.append(_Part("lit", match.group("plain"), True))
    return parts


def _tokenize(script: str) -> tuple[list[_Command], list[str]]:  # noqa: C901 - the checks in the order the real code runs them, kept in one place
    """The script's simple commands (each a list of words, each a list of parts) and the doubts
    found while splitting it. ShellSyntaxError for an unclosed quote or substitution."""
    commands: list[_Command] = [_Command()]
    doubts: list[str] = []
    word: list[_Part] | None = None
    word_start = 0
    skip_next = False  # the next word is a redirection's target
    line = 1
    pos, end = 0, len(script)

    def finish() -> None:
        nonlocal word, skip_next
        if word is not None:
            if skip_next:
                skip_next = False
            else:
                commands[-1].words.append((word, script[word_start:pos_before]))
        word = None

    def new_command() -> None:
        finish()
        if commands[-1].words:
            commands.append(_Command(line=line))
        else:
            commands[-1].line = line

    pos_before = 0
    tokens = 0
    while pos < end:
        tokens += 1
        if tokens > MAX_SCRIPT_TOKENS:
            raise ShellSyntaxError(f"more than {MAX_SCRIPT_TOKENS:,} words, quotes and expansions")
        if word is None:
            word_start = pos
            if script[pos] == "#":
                newline = script.find("\n", pos)
                pos = end if newline < 0 else newline
                continue
        pos_before = pos
        match = _TOKEN.match(script, pos)
        if match is None:
            raise ShellSyntaxError(f"unclosed quotation or escape at character {pos}")
        kind = match.lastgroup
        if kind == "dollar":
            part, pos = _dollar(script, pos, False)
            word = word if word is not None else []
            word.append(part)
            continue
        pos = match.end()
        if kind == "blank":
            finish()
        elif kind == "cont":
            line += 1
        elif kind == "newline":
            line += 1
            new_command()
        elif kind == "redirect":
            finish()
            if "<<" in match.group(0) and "<<<" not in match.group(0):
                doubts.append("a here-document")
                break
            if not match.group(0).endswith("&") or script[pos:pos + 1] not in "0123456789-":
                skip_next = True
            else:
                fd = re.compile(r"[0-9]+|-").match(script, pos)
                pos = fd.end() if fd else pos
        elif kind == "op":
            new_command()
            if match.group(0) in ("||", "(", ")") and "branches" not in doubts:
                doubts.append("branches")
        else:
            word = word if word is not None else []
            if kind == "single":
                word.append(_Part("lit", match.group("single"), True))
            elif kind == "double":
                word.extend(_double(match.group("double"), match.start() + 1))
            elif kind == "escape":
                word.append(_Part("lit", match.group("escape"), True))
            elif kind == "backtick":
                word.append(_Part("unknown", match.group(0), False, why="a command substitution: its output is not in the inputs"))
            else:
                word.append(_Part("lit", match.group("plain")))
    pos_before = pos
    finish()
    return [c for c in commands if c.words], doubts


class _Expander:
    """Expands the words of one script with its variables and positional parameters."""

    def __init__(self, variables: dict[str, Value], undefined: Undefined, positional: list[Word]):
        self.variables = variables
        self.undefined = undefined
        self.positional = positional  # $0, $1, ...

    def value(self, part: _Part) -> Value | list[Word] | None:
        """A part's value: text, Unknown, a list of words ("$@"), or None when unset."""
        if part.kind == "pos":
            if part.text in "@*":
                return self.positional[1:]
            index = int(part.text)
            if index < len(self.positional):
                word = self.positional[index]
                return word.text if word.is_known else Unknown(part.raw, word.unknown[0].why)
            return None
        value = self.variables.get(part.text)
        if value is None:
            return self.undefined(part.text)
        return value

    def expand(self, parts: list[_Part], line: int, written: str = "") -> list[Word]:  # noqa: C901 - the checks in the order the real code runs them, kept in one place
        words: list[Word] = []
        text: list[str] = []
        unknown: list[Unknown] = []
        known = -1
        may_split = False
        content = False  # a quoted part makes a word even when empty

        def close() -> None:
            nonlocal text, unknown, known, may_split, content
            if content or text:
                joined = "".join(text)
                words.append(Word(joined, tuple(unknown), known if unknown else len(joined), may_split, line, written))
            text, unknown, known, may_split, content = [], [], -1, False, False

        def mark(reference: str, why: str, split: bool) -> None:
            nonlocal known, may_split, content
            if known < 0:
                known = sum(map(len, text))
            unknown.append(Unknown(reference, why))
            text.append(reference)
            may_split = may_split or split
            content = True

        for part in parts:
            if part.kind == "lit":
                text.append(part.text)
                content = content or part.quoted or bool(part.text)
                continue
            if part.kind == "unknown":
                mark(part.text, part.why, not part.quoted)
                continue
            value = self.value(part)
            if part.op:
                value = self._operator(part, value)
            if isinstance(value, list):  # "$@": one word per parameter
                if not value:
                    continue
                for index, word in enumerate(value):
                    if index:
                        close()
                    if word.unknown:
                        mark(word.text, word.unknown[0].why, word.may_split)
                    else:
                        text.append(word.text)
                        content = True
                continue
            if isinstance(value, Unknown):
                mark(part.raw, value.why, not part.quoted)
                continue
            if value is None or value == "":
                content = content or part.quoted
                continue
            if part.quoted or not re.search(r"[ \t\n]", value):
                text.append(value)
                content = True
                continue
            fields = re.split(r"[ \t\n]+", value)  # field splitting of an unquoted expansion
            for index, piece in enumerate(fields):
                if index:
                    close()
                if piece:
                    text.append(piece)
                    content = True
        close()
        return words

    def _operator(self, part: _Part, value: Value | list[Word] | None) -> Value | list[Word] | None:
        unset = value is None or (part.op.startswith(":") and value == "")
        if isinstance(value, Unknown):
            return value
        op = part.op.lstrip(":")
        if "$" in part.arg or "`" in part.arg:
            return Unknown(part.raw, "a ${...} default that refers to other values")
        if op in ("-", "="):
            if unset and op == "=" and part.kind == "var":
                self.variables[part.text] = part.arg
            return part.arg if unset else value
        if op == "+":
            return "" if unset else part.arg
        return Unknown(part.raw, "a ${...} form kcompat does not evaluate")


def read_script(script: str, variables: dict[str, Value], undefined: Undefined, positional: list[Word] | None = None, first_line: int = 1) -> Script:
    """The simple commands of a POSIX shell script with their words expanded. Standalone
    assignments (``EMU=1.33``, ``export EMU=1.33``) set variables for the commands after them
    (written into ``variables``). ShellSyntaxError when the script cannot be split (an unclosed quote)."""
    commands, doubts = _tokenize(script)
    expander = _Expander(variables, undefined, positional or [])
    out: list[Invocation] = []
    found_doubts = ["a here-document"] if "a here-document" in doubts else []
    for command in commands:
        line = first_line + command.line - 1
        words = [w for parts, written in command.words for w in expander.expand(parts, line, written)]
        if not words:
            continue
        first = words[0].text
        if first in _CONTROL_WORDS or first in ("{", "}"):
            if "control flow (if, case, loops)" not in found_doubts:
                found_doubts.append("control flow (if, case, loops)")
            words = [w for w in words if w.text not in _CONTROL_WORDS]
            if not words:
                continue
        if first in (".", "source", "eval"):
            found_doubts.append(f"{first} {words[1].text if len(words) > 1 else ''}".strip() + " (what it runs is not in the inputs)")
            continue
        declaring = first in ("export", "readonly", "local", "declare", "typeset")
        assignments = _assignments(words[1:] if declaring else words, declaring)
        if assignments is not None:
            for name, value in assignments:
                expander.variables[name] = value
            continue
        out.append(Invocation(tuple(words), line))
    if "branches" in doubts:
        found_doubts.append("|| or a subshell")
    return Script(tuple(out), tuple(found_doubts))


def _assignments(words: list[Word], declaring: bool) -> list[tuple[str, Value]] | None:
    """The variables a command made only of ``NAME=value`` words sets (after ``export`` when
    ``declaring``, where a bare NAME sets nothing), else None: the command runs a program."""
    found: list[tuple[str, Value]] = []
    for word in words:
        match = _ASSIGNMENT.match(word.text)
        if match is None or word.known < len(match.group(1)) + 1:
            if declaring and _NAME.match(word.text) and word.is_known:
                continue  # export NAME: no value set here
            return None
        value: Value = match.group(2) if word.is_known else Unknown(word.unknown[0].reference, word.unknown[0].why)
        found.append((match.group(1), value))
    return found


def shell_of(word: str) -> str | None:
    """The shell a program path names (``/bin/sh`` -> sh), or None."""
    base = os.path.basename(word)
    return base if base in SHELLS else None


def script_argument(words: list[Word]) -> tuple[Word, list[Word]] | None:
    """For ``sh [options] -c SCRIPT [NAME [ARG...]]`` (the words after the shell): the script and
    its positional parameters ($0, $1...); None when the shell runs no ``-c`` script."""
    i = 0
    wants_script = False
    while i < len(words):
        text = words[i].text
        if text == "--":
            i += 1
            break
        if text in ("-o", "+o", "-O", "+O"):
            i += 2
            continue
        if text.startswith("--") and len(text) > 2:  # bash's --login, --norc...
            i += 1
            continue
        if len(text) > 1 and text[0] in "-+":
            wants_script = wants_script or (text[0] == "-" and "c" in text[1:])
            i += 1
            continue
        break
    if not wants_script or i >= len(words):
        return None
    return words[i], list(words[i + 1:])
