"""Reading data out of Go source files in linear time (used by ``kcompat data refresh``).

Only the few Go forms the feature and API files use are understood: const declarations of
feature names, import blocks, and composite map literals such as

* ``defaultKubernetesFeatureGateDependencies`` in kubernetes ``pkg/features/kube_features.go``
  (``map[featuregate.Feature][]featuregate.Feature{ A: {B, pkg.C}, ... }``, registered with
  ``AddDependencies`` from 1.35 on);
* ``defaultVersionedKubernetesFeatureGates`` / ``defaultKubernetesFeatureGates`` in
  k8s.io/client-go ``features/known_features.go`` (versioned specs from 0.35, ``FeatureSpec``
  before).

The text is split into tokens by one left-to-right pass: comments and strings are skipped with
``str.find`` and fixed-width loops, identifiers and numbers with patterns that can match in only
one way, so no input (an unterminated comment, a million spaces, a long identifier) costs more
than time proportional to its length. Repository text is never matched with a backtracking
pattern. Anything not in the expected form raises :class:`GoSourceError`; nothing is guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..core.errors import KcompatError

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any


#: Go sources larger than this are refused before they are tokenized (kube_features.go is ~150 kB).
MAX_GO_SOURCE_CHARS = 4 * 1024 * 1024
#: At most this many tokens per file (kube_features.go has ~30,000): bounds memory for punctuation floods.
MAX_GO_TOKENS = 500_000

IDENT, STRING, NUMBER, PUNCT = "ident", "string", "number", "punct"

# Each matches in exactly one way from a given start (a single greedy class run): linear.
_IDENT_RUN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER_RUN = re.compile(r"[0-9][0-9A-Za-z_.]*")
_SPACE_RUN = re.compile(r"[ \t\r\n]+")


def _run_end(run: re.Pattern[str], source: str, at: int) -> int:
    """Where ``run`` ends that starts at ``at`` (the caller has seen its first character)."""
    match = run.match(source, at)
    assert match is not None
    return match.end()


class GoSourceError(KcompatError):
    """A Go file not in the form the refresh understands."""


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    line: int


def go_tokens(source: str, where: str) -> list[Token]:  # noqa: C901 - the Go lexer's one loop, one branch per token class
    """The tokens of ``source`` (comments dropped; strings keep their quotes), in one pass."""
    if len(source) > MAX_GO_SOURCE_CHARS:
        raise GoSourceError(f"{where}: {len(source):,} characters, more than the limit of {MAX_GO_SOURCE_CHARS:,} for a Go file")
    tokens: list[Token] = []
    i, n, line = 0, len(source), 1
    while i < n:
        if len(tokens) > MAX_GO_TOKENS:
            raise GoSourceError(f"{where}: more than {MAX_GO_TOKENS:,} tokens: not a feature or API source file")
        c = source[i]
        if c in " \t\r\n":
            end = _run_end(_SPACE_RUN, source, i)
            line += source.count("\n", i, end)
            i = end
        elif source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end < 0 else end
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            if end < 0:
                raise GoSourceError(f"{where}: line {line}: unterminated /* comment")
            line += source.count("\n", i, end)
            i = end + 2
        elif c == '"':
            j = i + 1
            while j < n and source[j] not in '"\n':
                j += 2 if source[j] == "\\" else 1
            if j >= n or source[j] != '"':
                raise GoSourceError(f"{where}: line {line}: unterminated string")
            tokens.append(Token(STRING, source[i : j + 1], line))
            i = j + 1
        elif c == "`":
            end = source.find("`", i + 1)
            if end < 0:
                raise GoSourceError(f"{where}: line {line}: unterminated raw string")
            tokens.append(Token(STRING, source[i : end + 1], line))
            line += source.count("\n", i, end)
            i = end + 1
        elif c.isascii() and (c.isalpha() or c == "_"):
            end = _run_end(_IDENT_RUN, source, i)
            tokens.append(Token(IDENT, source[i:end], line))
            i = end
        elif c.isdigit():
            end = _run_end(_NUMBER_RUN, source, i)
            tokens.append(Token(NUMBER, source[i:end], line))
            i = end
        else:
            tokens.append(Token(PUNCT, c, line))
            i += 1
    return tokens


def string_value(token: Token) -> str:
    """The value of a Go string literal token (the simple forms feature names use)."""
    text = token.text[1:-1]
    if token.text[0] == '"' and "\\" in text:
        raise GoSourceError(f"line {token.line}: escapes in a feature-name string are not expected: {token.text[:60]}")
    return text


# ---------------------------------------------------------------------------------------------
# Declarations.


def imports_of(tokens: list[Token]) -> dict[str, str]:
    """Import alias -> import path (the alias defaults to the path's last element)."""
    out: dict[str, str] = {}
    i = 0
    while i < len(tokens):
        if tokens[i].kind == IDENT and tokens[i].text == "import":
            i += 1
            grouped = i < len(tokens) and tokens[i].text == "("
            if grouped:
                i += 1
            while i < len(tokens) and tokens[i].text != ")":
                alias = None
                if tokens[i].kind == IDENT or tokens[i].text == ".":
                    alias = tokens[i].text
                    i += 1
                if i >= len(tokens) or tokens[i].kind != STRING:
                    break
                path = string_value(tokens[i])
                out[alias if alias not in (None, ".", "_") else path.rsplit("/", 1)[-1]] = path
                i += 1
                if not grouped:
                    break
        i += 1
    return out


def feature_constants(tokens: list[Token]) -> dict[str, str]:
    """String constants of ``const`` declarations (``Ident [featuregate.]Feature = "Name"`` or
    untyped ``Ident = "Name"``): identifier -> gate name."""
    out: dict[str, str] = {}
    n = len(tokens)
    i = 0
    while i < n:
        if tokens[i].kind != IDENT or tokens[i].text != "const":
            i += 1
            continue
        i += 1
        if i < n and tokens[i].text == "(":
            end = matching_brace(tokens, i, "const block")
            _string_constants(tokens, i + 1, end, out)
            i = end + 1
        else:
            _string_constants(tokens, i, min(i + 6, n), out)
    return out


def _string_constants(tokens: list[Token], start: int, end: int, out: dict[str, str]) -> None:
    i = start
    while i < end:
        if tokens[i].kind != IDENT:
            i += 1
            continue
        j = i + 1
        if j + 2 < end and tokens[j].kind == IDENT and tokens[j + 1].text == "." and tokens[j + 2].kind == IDENT:
            j += 3
        elif j < end and tokens[j].kind == IDENT:
            j += 1
        if j + 1 < end and tokens[j].text == "=" and tokens[j + 1].kind == STRING:
            if "\\" not in tokens[j + 1].text:  # a string with escapes is no feature name
                out[tokens[i].text] = string_value(tokens[j + 1])
            i = j + 2
            continue
        # Ident = featuregate.Feature("Name") (a conversion of a string literal)
        k = j + 1
        if k + 2 < end and tokens[k].kind == IDENT and tokens[k + 1].text == ".":
            k += 2
        if j < end and tokens[j].text == "=" and k + 3 < end and tokens[k].kind == IDENT and tokens[k + 1].text == "(" \
                and tokens[k + 2].kind == STRING and tokens[k + 3].text == ")":
            if "\\" not in tokens[k + 2].text:
                out[tokens[i].text] = string_value(tokens[k + 2])
            i = k + 4
            continue
        i += 1


@dataclass(frozen=True)
class MapEntry:
    key: tuple[Token, ...]
    value: tuple[Token, ...]  # the value's tokens, outer braces included


def map_literal(tokens: list[Token], variable: str, where: str) -> list[MapEntry] | None:  # noqa: C901 - one pass over the literal's tokens, as the Go grammar nests them
    """The entries of ``var <variable> = map[...]...{ ... }``; None when the variable is absent."""
    n = len(tokens)
    start = None
    for i in range(n - 2):
        if tokens[i].kind == IDENT and tokens[i].text == variable and tokens[i + 1].text == "=" and tokens[i + 2].text == "map":
            start = i + 3
            break
    if start is None:
        return None
    i = start
    while i < n and tokens[i].text != "{":
        i += 1
    if i >= n:
        raise GoSourceError(f"{where}: {variable}: no '{{' after the map type")
    i += 1
    entries: list[MapEntry] = []
    while True:
        if i >= n:
            raise GoSourceError(f"{where}: {variable}: the map literal is not closed")
        if tokens[i].text == "}":
            return entries
        key_start = i
        while i < n and tokens[i].text not in (":", "{", "}", ","):
            i += 1
        if i >= n or tokens[i].text != ":":
            line = tokens[min(i, n - 1)].line
            raise GoSourceError(f"{where}: line {line}: {variable}: expected 'key: value' in the map literal")
        key = tuple(tokens[key_start:i])
        i += 1
        if i >= n or tokens[i].text != "{":
            raise GoSourceError(f"{where}: line {tokens[min(i, n - 1)].line}: {variable}: expected a '{{...}}' value")
        end = matching_brace(tokens, i, where)
        entries.append(MapEntry(key, tuple(tokens[i : end + 1])))
        i = end + 1
        if i < n and tokens[i].text == ",":
            i += 1


def matching_brace(tokens: list[Token], i: int, where: str) -> int:
    depth = 0
    for j in range(i, len(tokens)):
        text = tokens[j].text
        if tokens[j].kind != PUNCT:
            continue
        if text in "{([":
            depth += 1
        elif text in "})]":
            depth -= 1
            if depth == 0:
                return j
    raise GoSourceError(f"{where}: line {tokens[i].line}: unbalanced braces")


def split_top_level(tokens: tuple[Token, ...]) -> list[tuple[Token, ...]]:
    """The comma-separated elements inside one ``{...}`` (outer braces given)."""
    parts: list[tuple[Token, ...]] = []
    depth = 0
    current: list[Token] = []
    for token in tokens[1:-1]:
        if token.kind == PUNCT and token.text in "{([":
            depth += 1
        elif token.kind == PUNCT and token.text in "})]":
            depth -= 1
        if depth == 0 and token.text == "," and token.kind == PUNCT:
            if current:
                parts.append(tuple(current))
            current = []
        else:
            current.append(token)
    if current:
        parts.append(tuple(current))
    return parts


# ---------------------------------------------------------------------------------------------
# Feature names.


#: Reads the Go files of an imported package: import path -> [(file name, text)].
PackageReader = Callable[[str], list[tuple[str, str]]]


class FeatureNames:
    """Resolves feature expressions (``Ident``, ``pkg.Ident``, ``featuregate.Feature(pkg.Ident)``)
    to gate names through the const declarations of the file and of the packages it imports."""

    def __init__(self, tokens: list[Token], where: str, read_package: PackageReader | None = None):
        self.where = where
        self.local = feature_constants(tokens)
        self.imports = imports_of(tokens)
        self.read_package = read_package
        self._packages: dict[str, dict[str, str]] = {}

    def package_constants(self, alias: str) -> dict[str, str]:
        if alias not in self._packages:
            path = self.imports.get(alias)
            if path is None:
                raise GoSourceError(f"{self.where}: {alias}. is not an imported package")
            if self.read_package is None:
                raise GoSourceError(f"{self.where}: cannot read package {path} to resolve {alias}.*")
            found: dict[str, str] = {}
            for name, text in self.read_package(path):
                found.update(feature_constants(go_tokens(text, name)))
            self._packages[alias] = found
        return self._packages[alias]

    def name_of(self, expression: tuple[Token, ...]) -> str:
        """The gate name an element expression denotes."""
        idents = [i for i, t in enumerate(expression) if t.kind == IDENT]
        if not idents:
            raise GoSourceError(f"{self.where}: line {expression[0].line if expression else '?'}: not a feature name")
        last = idents[-1]
        identifier = expression[last].text
        qualified = last >= 2 and expression[last - 1].text == "." and expression[last - 2].kind == IDENT
        table = self.package_constants(expression[last - 2].text) if qualified else self.local
        if identifier not in table:
            shown = f"{expression[last - 2].text}.{identifier}" if qualified else identifier
            raise GoSourceError(f"{self.where}: line {expression[last].line}: no feature constant {shown}")
        return table[identifier]


# ---------------------------------------------------------------------------------------------
# The two maps the refresh reads.


DEPENDENCY_MAP = "defaultKubernetesFeatureGateDependencies"
CLIENT_VERSIONED_MAP = "defaultVersionedKubernetesFeatureGates"
CLIENT_UNVERSIONED_MAP = "defaultKubernetesFeatureGates"


def dependency_map(source: str, where: str, read_package: PackageReader | None = None) -> dict[str, tuple[str, ...]] | None:
    """Gate -> its dependencies (sorted), non-empty entries only, from kube_features.go;
    None when the file has no dependency map (releases before 1.35)."""
    tokens = go_tokens(source, where)
    entries = map_literal(tokens, DEPENDENCY_MAP, where)
    if entries is None:
        return None
    names = FeatureNames(tokens, where, read_package)
    out: dict[str, tuple[str, ...]] = {}
    for entry in entries:
        gate = names.name_of(entry.key)
        if gate in out:
            raise GoSourceError(f"{where}: {DEPENDENCY_MAP}: {gate} listed twice")
        deps = tuple(sorted({names.name_of(element) for element in split_top_level(entry.value)}))
        out[gate] = deps
    return {gate: deps for gate, deps in out.items() if deps}


def registers_client_features_versioned(kube_features_go: str, where: str) -> bool | None:
    """How a kube binary's ``init()`` registers client-go's features: True for
    ``AddVersionedFeaturesToExistingFeatureGates`` (1.35+), False for the unversioned
    ``AddFeaturesToExistingFeatureGates`` (1.31-1.34), None when it does neither."""
    names = {t.text for t in go_tokens(kube_features_go, where) if t.kind == IDENT}
    if "AddVersionedFeaturesToExistingFeatureGates" in names:
        return True
    if "AddFeaturesToExistingFeatureGates" in names:
        return False
    return None


_STAGES = {"Alpha": "Alpha", "Beta": "Beta", "GA": "GA", "Deprecated": "Deprecated"}


def _spec_fields(spec: tuple[Token, ...], where: str) -> dict[str, str]:
    """``{Version: version.MustParse("1.36"), Default: true, PreRelease: Beta}`` -> field texts."""
    fields: dict[str, str] = {}
    for element in split_top_level(spec):
        if len(element) < 3 or element[0].kind != IDENT or element[1].text != ":":
            raise GoSourceError(f"{where}: line {element[0].line}: expected 'Field: value' in a feature spec")
        field_name, value = element[0].text, element[2:]
        if field_name == "Version":
            strings = [t for t in value if t.kind == STRING]
            if len(strings) != 1:
                raise GoSourceError(f"{where}: line {element[0].line}: Version: expected version.MustParse(\"1.N\")")
            fields["version"] = string_value(strings[0])
        elif field_name in ("Default", "LockToDefault"):
            if len(value) != 1 or value[0].text not in ("true", "false"):
                raise GoSourceError(f"{where}: line {element[0].line}: {field_name}: expected true or false")
            fields[field_name] = value[0].text
        elif field_name == "PreRelease":
            stage = value[-1].text
            if stage not in _STAGES:
                raise GoSourceError(f"{where}: line {element[0].line}: PreRelease: unknown stage {stage[:40]}")
            fields["preRelease"] = _STAGES[stage]
        else:
            raise GoSourceError(f"{where}: line {element[0].line}: unexpected field {field_name[:40]} in a feature spec")
    if "preRelease" not in fields:
        raise GoSourceError(f"{where}: a feature spec without PreRelease")
    return fields


def client_go_features(source: str, where: str, versioned: bool) -> list[dict[str, Any]]:
    """client-go's features as manifest items (``name``, ``versionedSpecs``), sorted by name.

    ``versioned``: read ``defaultVersionedKubernetesFeatureGates`` (registered with their
    versions); otherwise ``defaultKubernetesFeatureGates`` (one spec, version "": registered
    unversioned, at 0.0, by ``Add``)."""
    tokens = go_tokens(source, where)
    variable = CLIENT_VERSIONED_MAP if versioned else CLIENT_UNVERSIONED_MAP
    entries = map_literal(tokens, variable, where)
    if entries is None:
        raise GoSourceError(f"{where}: no {variable} map")
    names = FeatureNames(tokens, where)
    items = []
    for entry in entries:
        name = names.name_of(entry.key)
        spec_tokens = split_top_level(entry.value) if versioned else [entry.value]
        specs = []
        for spec in spec_tokens:
            if versioned and (spec[0].text != "{" or spec[-1].text != "}"):
                raise GoSourceError(f"{where}: line {spec[0].line}: {name}: expected '{{...}}' specs")
            fields = _spec_fields(spec, where)
            if versioned and "version" not in fields:
                raise GoSourceError(f"{where}: {name}: a versioned spec without Version")
            specs.append(
                {
                    "default": fields.get("Default") == "true",
                    "lockToDefault": fields.get("LockToDefault") == "true",
                    "preRelease": fields["preRelease"],
                    "version": fields.get("version", "") if versioned else "",
                }
            )
        if not specs:
            raise GoSourceError(f"{where}: {name}: no specs")
        items.append({"name": name, "versionedSpecs": specs})
    return sorted(items, key=lambda item: item["name"])


# ---------------------------------------------------------------------------------------------
# k8s.io/api: register.go and zz_generated.prerelease-lifecycle.go.


def const_string(tokens: list[Token], name: str) -> str | None:
    """The value of ``const <name> = "..."`` (inside a const block or alone), else None."""
    for i in range(len(tokens) - 2):
        if tokens[i].kind == IDENT and tokens[i].text == name and tokens[i + 1].text == "=" and tokens[i + 2].kind == STRING:
            return string_value(tokens[i + 2])
    return None


def known_types(tokens: list[Token], where: str) -> tuple[str, ...]:
    """Types passed as ``&T{}`` to ``AddKnownTypes(SchemeGroupVersion, ...)``, in order; types of
    other packages (``&metav1.Status{}``) are left out."""
    kinds: list[str] = []
    n = len(tokens)
    i = 0
    while i < n - 3:
        if not (tokens[i].text == "AddKnownTypes" and tokens[i + 1].text == "(" and tokens[i + 2].text == "SchemeGroupVersion"):
            i += 1
            continue
        end = matching_brace(tokens, i + 1, where)
        j = i + 3
        i = end + 1  # each token is looked at a bounded number of times, however calls nest
        while j < end:
            if (tokens[j].text == "&" and j + 3 <= end and tokens[j + 1].kind == IDENT
                    and tokens[j + 2].text == "{" and tokens[j + 3].text == "}"):
                if tokens[j + 1].text not in kinds:
                    kinds.append(tokens[j + 1].text)
                j += 4
                continue
            j += 1
    return tuple(kinds)


@dataclass(frozen=True)
class LifecycleFunction:
    kind: str
    which: str  # Introduced | Deprecated | Removed | Replacement | ...
    body: tuple[Token, ...]  # between the braces


def lifecycle_functions(tokens: list[Token], where: str) -> list[LifecycleFunction]:
    """Every ``func (recv *Kind) APILifecycle<Which>(...) ... { body }``."""
    out: list[LifecycleFunction] = []
    n = len(tokens)
    i = 0
    while i < n:
        if tokens[i].text != "func" or tokens[i].kind != IDENT or i + 1 >= n or tokens[i + 1].text != "(":
            i += 1
            continue
        close = matching_brace(tokens, i + 1, where)
        receiver = [t for t in tokens[i + 2 : close] if t.kind == IDENT]
        if not receiver or close + 1 >= n or tokens[close + 1].kind != IDENT or not tokens[close + 1].text.startswith("APILifecycle"):
            i = close + 1
            continue
        which = tokens[close + 1].text[len("APILifecycle") :]
        j = close + 2
        while j < n and tokens[j].text != "{":
            j += 1
        if j >= n:
            raise GoSourceError(f"{where}: line {tokens[close + 1].line}: APILifecycle{which} has no body")
        # a return type like schema.GroupVersionKind has no braces; the first '{' opens the body
        end = matching_brace(tokens, j, where)
        out.append(LifecycleFunction(receiver[-1].text, which, tuple(tokens[j + 1 : end])))
        i = end + 1
    return out


def returned_version(body: tuple[Token, ...]) -> str | None:
    """``return 1, 9`` -> "1.9"; None for any other body."""
    texts = [t.text for t in body]
    if len(texts) == 4 and texts[0] == "return" and body[1].kind == NUMBER and texts[2] == "," and body[3].kind == NUMBER \
            and texts[1].isdigit() and texts[3].isdigit() and len(texts[1]) <= 4 and len(texts[3]) <= 4:
        return f"{int(texts[1])}.{int(texts[3])}"
    return None


def returned_fields(body: tuple[Token, ...]) -> dict[str, str]:
    """``Field: "value"`` pairs of a returned composite literal."""
    return {
        body[i].text: string_value(body[i + 2])
        for i in range(len(body) - 2)
        if body[i].kind == IDENT and body[i + 1].text == ":" and body[i + 2].kind == STRING
    }
