"""A safe, bounded YAML reader: text or bytes in, the parsed document out (no file is read here).

No anchors or aliases (an alias bomb is never expanded), no duplicate keys, bounded size and
nesting, and for a feature manifest bounded counts of gates, specs and values; libyaml's C parser
where PyYAML has it. Every problem is a KcompatError naming the source.
"""

from __future__ import annotations

from .errors import KcompatError, cut, repr_cut

DEFAULT_MAX_BYTES = 4 * 1024 * 1024
#: Gates of one manifest: the largest release has about 300.
MAX_GATES = 1_000


# PyYAML is imported on first use (``_import_yaml``): loading the compiled bundle
# (kcompat/data/bundle.py) needs no YAML at all, and a CLI call then starts faster.
#: The YAML names set by ``_import_yaml``: ``yaml``, ``_LOADER`` (libyaml's C classes when PyYAML
#: was built with them, about 10x faster, else pure Python) and the event classes.
_YAML_NAMES = ("yaml", "_LOADER", "_NODE_EVENTS", "_START_EVENTS", "_END_EVENTS")
TYPE_CHECKING = False
if TYPE_CHECKING:  # what _import_yaml binds, for readers and checkers (typing itself is not loaded)
    from typing import Any

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


def _line(event: Any) -> str:
    mark = event.start_mark
    return f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else "unknown line"


def _scan_events(text: str, source: str, manifest: bool) -> None:
    """One pass over the parser's events, before anything is built: refuses anchors and aliases
    (an alias bomb is never expanded), nesting past :data:`MAX_YAML_DEPTH`, duplicate mapping keys,
    and, for a feature manifest, more gates, specs or nodes than any real list has."""
    stack: list[list[Any]] = []  # per open collection: [is mapping, children so far, {key: line}]
    counts = _ManifestCounts(source) if manifest else None
    for event in yaml.parse(text, Loader=_LOADER):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise KcompatError(f"{source}: anchors and aliases are not allowed ({_line(event)})")
        if isinstance(event, _END_EVENTS):
            stack.pop()
            continue
        if not isinstance(event, _NODE_EVENTS):
            continue
        if stack:
            _child(stack[-1], event, source)
        if counts is not None:
            counts.add(stack, event)
        if isinstance(event, _START_EVENTS):
            if len(stack) >= MAX_YAML_DEPTH:
                raise KcompatError(f"{source}: YAML nested too deeply: more than {MAX_YAML_DEPTH} levels ({_line(event)})")
            stack.append([isinstance(event, yaml.MappingStartEvent), 0, {}])


def _child(top: list[Any], event: Any, source: str) -> None:
    """One more child of the open collection ``top``; a mapping's key seen twice is refused."""
    if top[0] and top[1] % 2 == 0 and isinstance(event, yaml.ScalarEvent):  # a mapping key
        keys = top[2]
        if event.value in keys:
            raise KcompatError(f"{source}: duplicate key {repr_cut(event.value)} ({_line(event)}; first at line {keys[event.value]})")
        keys[event.value] = event.start_mark.line + 1
    top[1] += 1


class _ManifestCounts:
    """The gates, specs and YAML values of a feature manifest, refused past the limits as they come."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.nodes = self.gates = self.specs = 0

    def add(self, stack: list[list[Any]], event: Any) -> None:
        self.nodes += 1
        if len(stack) == 1 and not stack[0][0]:
            self.gates += 1
            if self.gates > MAX_GATES:
                raise KcompatError(f"{self.source}: more than {MAX_GATES:,} gates (no Kubernetes release has more than a few hundred)")
        elif len(stack) == 3 and isinstance(event, yaml.MappingStartEvent):
            self.specs += 1
            if self.specs > MAX_MANIFEST_SPECS:
                raise KcompatError(f"{self.source}: more than {MAX_MANIFEST_SPECS:,} versioned specs in all")
        if self.nodes > MAX_MANIFEST_NODES:
            raise KcompatError(f"{self.source}: more than {MAX_MANIFEST_NODES:,} YAML values (a feature list has a few thousand)")


def read_yaml_text(data: bytes | str, source: str, max_bytes: int = DEFAULT_MAX_BYTES, manifest: bool = False) -> object:
    """Decode and parse one YAML document safely; errors name the source.

    Checked before anything is built, in one pass over the parser's events: the size, no
    anchors or aliases, nesting depth, duplicate keys, and with ``manifest`` the counts of gates,
    specs and nodes. Then libyaml's C loader (pure Python when missing) builds the document."""
    if "yaml" not in globals():
        _import_yaml()
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    if len(raw) > max_bytes:
        raise KcompatError(f"{source}: file is {len(raw):,} bytes, larger than the limit of {max_bytes:,} bytes")
    if b"\x00" in raw:
        raise KcompatError(f"{source}: binary data (NUL bytes), not a YAML text file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise KcompatError(f"{source}: not UTF-8 text (byte {exc.start}): not a YAML manifest") from None
    try:
        _scan_events(text, source, manifest)
        return yaml.load(text, Loader=_LOADER)  # noqa: S506 - a SafeLoader (C or Python)
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
