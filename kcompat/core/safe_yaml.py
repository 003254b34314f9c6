"""A safe, bounded YAML reader: text or bytes in, the parsed document out (no file is read here).

No anchors or aliases (an alias bomb is never expanded), no duplicate keys, bounded size and
nesting, and for a feature manifest bounded counts of gates, specs and values; libyaml's C parser
where PyYAML has it. Every problem is a KcompatError naming the source.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import KcompatError, cut, repr_cut
from .limits import DEFAULT_MAX_BYTES as DEFAULT_MAX_BYTES
from .limits import MAX_GATES as MAX_GATES
from .text_input import decode_input

# PyYAML is imported on first use (``_import_yaml``): loading the compiled bundle
# (kcompat/data/bundle.py) needs no YAML at all, and a CLI call then starts faster.
#: The YAML names set by ``_import_yaml``: ``yaml``, ``_LOADER`` (libyaml's C classes when PyYAML
#: was built with them, about 10x faster, else pure Python) and the event classes.
_YAML_NAMES = ("yaml", "_LOADER", "_NODE_EVENTS", "_START_EVENTS", "_END_EVENTS")
TYPE_CHECKING = False
if TYPE_CHECKING:  # what _import_yaml binds, for readers and checkers (typing itself is not loaded)
    from collections.abc import Callable
    from typing import Any, TypeVar

    T = TypeVar("T")
    #: keys and list indexes from a document's root to a value
    YamlPath = tuple[str | int | None, ...]

    import yaml

    _LOADER: Any = None
    _NODE_EVENTS: tuple[type, ...] = ()
    _START_EVENTS: tuple[type, ...] = ()
    _END_EVENTS: tuple[type, ...] = ()


def _import_yaml() -> None:
    import yaml

    names = globals()
    names["yaml"] = yaml
    names["_LOADER"] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    names["_NODE_EVENTS"] = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)
    names["_START_EVENTS"] = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
    names["_END_EVENTS"] = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


def __getattr__(name: str) -> object:  # PEP 562: ``safe_yaml._LOADER`` and friends, imported on first use
    if name in _YAML_NAMES:
        _import_yaml()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Nesting of collections: a manifest needs 4 levels (list, gate, specs, spec).
MAX_YAML_DEPTH = 32
#: Nodes (scalars and collections) of one manifest: the 1.37 list has about 6,000.
MAX_MANIFEST_NODES = 100_000
#: Specs of one manifest (all gates): the 1.37 list has about 900.
MAX_MANIFEST_SPECS = 10_000


# --- scalars typed as Go reads them -----------------------------------------------------------


@dataclass(frozen=True)
class GoScalar:
    """A YAML scalar that Go's YAML reader resolves to a number or a boolean, where a Kubernetes
    type wants a string: kept with the text as written and its 1-based line, so that
    ``emulated-version: 1.30`` is refused with the decoder's reason, never read as "1.3".

    ``kind`` is what Go's encoding/json calls the JSON value it becomes: ``number`` or ``bool``."""

    kind: str
    value: object
    text: str
    line: int

    def __str__(self) -> str:
        return self.text


#: The plain scalars go-yaml v2 (go.yaml.in/yaml/v2 ``resolve.go``, used by sigs.k8s.io/yaml)
#: resolves by table: YAML 1.1 booleans (y, yes, on...), nulls and the special floats.
_GO_TABLE: dict[str, tuple[str, object]] = {
    **{t: ("bool", True) for t in ("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON")},
    **{t: ("bool", False) for t in ("n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF")},
    **{t: ("null", None) for t in ("", "~", "null", "Null", "NULL")},
    **{t: ("number", float("nan")) for t in (".nan", ".NaN", ".NAN")},
    **{t: ("number", float("inf")) for t in (".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF")},
    **{t: ("number", float("-inf")) for t in ("-.inf", "-.Inf", "-.INF")},
}
#: ``strconv.ParseInt(s, 0, 64)``'s syntax (base prefixes, a leading 0 for octal), then the
#: float form of ``yamlStyleFloat``, then go-yaml's own ``0b``; the ``.`` hint's ParseFloat.
_GO_INT = re.compile(r"[-+]?(?:0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)")
_GO_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_GO_DOT_FLOAT = re.compile(r"\.[0-9]+(?:[eE][-+]?[0-9]+)?")
_GO_BINARY = re.compile(r"-?0b[01]+")
#: ``parseTimestamp``: YYYY- then one of its layouts; go-yaml gives such a plain scalar to an
#: interface{} as the string it is.
_GO_TIMESTAMP = re.compile(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt ][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]*)?(?:Z|[-+][0-9]{2}:[0-9]{2})?)?")
_INT64 = 1 << 63


def go_resolve(text: str) -> tuple[str, object]:
    """What go-yaml v2's ``resolve("", text)`` makes of a plain scalar: ("str", text),
    ("bool", b), ("null", None) or ("number", n)."""
    if text in _GO_TABLE:
        return _GO_TABLE[text]
    hint = text[0]
    if hint == ".":
        if _GO_DOT_FLOAT.fullmatch(text):
            return "number", float(text)
    elif hint.isdigit() or hint in "+-":
        if _GO_TIMESTAMP.fullmatch(text):
            return "str", text
        plain = text.replace("_", "")
        if _GO_INT.fullmatch(plain):
            value = int(plain, 0) if not re.fullmatch(r"[-+]?0[0-7]+", plain) else int(plain.replace("0", "0o", 1), 0)
            if -_INT64 <= value < 2 * _INT64:
                return "number", value
        if _GO_FLOAT.fullmatch(plain):
            return "number", float(plain)
        if _GO_BINARY.fullmatch(plain):
            return "number", int(plain, 0)
    return "str", text


_GO_PLAIN_TAG = "tag:kcompat.invalid,2025:go-plain"
_GO_LOADERS: dict[type, Any] = {}


def _go_loader() -> Any:
    """The safe loader with every plain scalar resolved by :func:`go_resolve` (PyYAML's own YAML
    1.1 resolvers differ: ``y`` is a string there, ``1e3`` too, ``1:30`` an integer), and
    explicitly tagged numbers and booleans kept as :class:`GoScalar` as well."""
    base = _LOADER
    if base in _GO_LOADERS:
        return _GO_LOADERS[base]

    def resolve(self: Any, kind: type, value: str, implicit: tuple[bool, bool]) -> str:
        if kind is yaml.ScalarNode and implicit[0]:
            return _GO_PLAIN_TAG
        return str(base.resolve(self, kind, value, implicit))

    loader: Any = type("GoScalarLoader", (base,), {"resolve": resolve})

    def plain(constructor: Any, node: Any) -> object:
        kind, value = go_resolve(node.value)
        if kind == "str":
            return node.value
        if kind == "null":
            return None
        return GoScalar(kind, value, node.value, node.start_mark.line + 1)

    loader.add_constructor(_GO_PLAIN_TAG, plain)
    for tag, kind in (("int", "number"), ("float", "number"), ("bool", "bool")):
        build = base.yaml_constructors[f"tag:yaml.org,2002:{tag}"]

        def typed(constructor: Any, node: Any, build: Any = build, kind: str = kind) -> object:
            return GoScalar(kind, build(constructor, node), node.value, node.start_mark.line + 1)

        loader.add_constructor(f"tag:yaml.org,2002:{tag}", typed)
    _GO_LOADERS[base] = loader
    return loader


def _line(event: Any) -> str:
    mark = event.start_mark
    return f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else "unknown line"


def _scan_events(  # noqa: C901 - the checks in the order the real code runs them, kept in one place
    text: str, source: str, manifest: bool, limits: tuple[int, int] | None = None, lines: list[dict[YamlPath, int]] | None = None
) -> None:
    """One pass over the parser's events, before anything is built: refuses anchors and aliases
    (an alias bomb is never expanded), nesting past :data:`MAX_YAML_DEPTH`, duplicate mapping keys,
    and, for a feature manifest, more gates, specs or nodes than any real list has; with
    ``limits`` (documents, nodes), more documents or values than those in a stream. ``lines``
    gets one mapping per document: the path (keys and list indexes from the root, at most two)
    of each mapping in its first three levels -> its 1-based line."""
    stack: list[list[Any]] = []  # per open collection: [is mapping, children so far, {key: line}, last key]
    nodes = gates = specs = documents = 0
    for event in yaml.parse(text, Loader=_LOADER):
        if isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if limits is not None and documents > limits[0]:
                raise KcompatError(f"{source}: more than {limits[0]:,} YAML documents, the limit ({_line(event)})")
            if lines is not None:
                lines.append({})
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise KcompatError(f"{source}: anchors and aliases are not allowed ({_line(event)})")
        if isinstance(event, _END_EVENTS):
            stack.pop()
            continue
        if not isinstance(event, _NODE_EVENTS):
            continue
        nodes += 1
        if limits is not None and nodes > limits[1]:
            raise KcompatError(f"{source}: more than {limits[1]:,} YAML values, the limit ({_line(event)})")
        if lines is not None and len(stack) <= 2 and isinstance(event, yaml.MappingStartEvent) and lines:
            last = len(stack) - 1
            path = tuple(level[3] if level[0] else level[1] - (i < last) for i, level in enumerate(stack))
            lines[-1][path] = event.start_mark.line + 1
        if stack:
            top = stack[-1]
            if top[0] and top[1] % 2 == 0:  # a mapping key
                top[3] = event.value if isinstance(event, yaml.ScalarEvent) else None
                if isinstance(event, yaml.ScalarEvent):
                    keys = top[2]
                    if event.value in keys:
                        raise KcompatError(
                            f"{source}: duplicate key {repr_cut(event.value)} ({_line(event)}; first at line {keys[event.value]})"
                        )
                    keys[event.value] = event.start_mark.line + 1
            top[1] += 1
        if manifest:
            if len(stack) == 1 and not stack[0][0]:
                gates += 1
                if gates > MAX_GATES:
                    raise KcompatError(f"{source}: more than {MAX_GATES:,} gates (no Kubernetes release has more than a few hundred)")
            elif len(stack) == 3 and isinstance(event, yaml.MappingStartEvent):
                specs += 1
                if specs > MAX_MANIFEST_SPECS:
                    raise KcompatError(f"{source}: more than {MAX_MANIFEST_SPECS:,} versioned specs in all")
            if nodes > MAX_MANIFEST_NODES:
                raise KcompatError(f"{source}: more than {MAX_MANIFEST_NODES:,} YAML values (a feature list has a few thousand)")
        if isinstance(event, _START_EVENTS):
            if len(stack) >= MAX_YAML_DEPTH:
                raise KcompatError(f"{source}: YAML nested too deeply: more than {MAX_YAML_DEPTH} levels ({_line(event)})")
            stack.append([isinstance(event, yaml.MappingStartEvent), 0, {}, None])


def read_yaml_text(
    data: bytes | str, source: str, max_bytes: int = DEFAULT_MAX_BYTES, manifest: bool = False, go_scalars: bool = False
) -> object:
    """Decode and parse one YAML document safely; errors name the source.

    Checked before anything is built, in one pass over the parser's events: the size, no
    anchors or aliases, nesting depth, duplicate keys, and with ``manifest`` the counts of gates,
    specs and nodes. Then libyaml's C loader (pure Python when missing) builds the document.

    With ``go_scalars`` the scalars are typed as Go's YAML reader types them (the one kubeadm,
    the kubelet and kind decode with): a plain scalar it reads as a number or a boolean is a
    :class:`GoScalar` (how it was written, and its line), every other scalar a string or None."""
    if "yaml" not in globals():
        _import_yaml()
    text = decode_input(data, source, max_bytes, "a YAML text file")
    try:
        _scan_events(text, source, manifest)
        return yaml.load(text, Loader=_go_loader() if go_scalars else _LOADER)  # noqa: S506 - a SafeLoader (C or Python)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        if "nesting depth" in str(exc.problem):  # libyaml's own depth limit
            raise KcompatError(f"{source}: YAML nested too deeply{pos}") from None
        raise KcompatError(f"{source}: not valid YAML{pos}: {cut(exc.problem or exc.context, 200)}") from None
    except yaml.YAMLError as exc:
        raise KcompatError(f"{source}: not valid YAML: {cut(exc, 200)}") from None
    except RecursionError:
        raise KcompatError(f"{source}: YAML nested too deeply") from None


def read_yaml_documents(
    data: bytes | str, source: str, max_bytes: int, max_documents: int, max_nodes: int
) -> list[tuple[object, dict[YamlPath, int]]]:
    """Every document of a YAML stream (``---`` separated; JSON is read as YAML too), each with
    the lines of its mappings in its first three levels (path from the root -> line: ``()`` the
    root, ``("items", 0)`` the first item of a ``List``, ``(0,)`` the first element of a JSON array).
    The same checks as :func:`read_yaml_text` first, and at most ``max_documents`` documents and
    ``max_nodes`` values; an empty document is None."""
    if "yaml" not in globals():
        _import_yaml()
    text = decode_input(data, source, max_bytes, "a YAML text file")

    def load() -> list[tuple[object, dict[YamlPath, int]]]:
        lines: list[dict[YamlPath, int]] = []
        _scan_events(text, source, False, (max_documents, max_nodes), lines)
        documents = list(yaml.load_all(text, Loader=_LOADER))  # noqa: S506 - a SafeLoader (C or Python)
        return list(zip(documents, lines + [{}] * (len(documents) - len(lines)), strict=False))

    return _parsed(source, load)


def _parsed(source: str, parse: Callable[[], T]) -> T:
    """``parse()`` (the scan, then the SafeLoader's C or Python classes), its errors as KcompatError."""
    try:
        return parse()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        if "nesting depth" in str(exc.problem):  # libyaml's own depth limit
            raise KcompatError(f"{source}: YAML nested too deeply{pos}") from None
        raise KcompatError(f"{source}: not valid YAML{pos}: {cut(exc.problem or exc.context, 200)}") from None
    except yaml.YAMLError as exc:
        raise KcompatError(f"{source}: not valid YAML: {cut(exc, 200)}") from None
    except RecursionError:
        raise KcompatError(f"{source}: YAML nested too deeply") from None
