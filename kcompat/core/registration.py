"""Reading a feature manifest and checking it as a binary registers its gates (SPEC §3.1-§3.2):
component-base ``featuregate`` ``AddVersioned`` (the spec rules of each release:
:func:`registration_for`) and ``AddDependencies``. The YAML text is parsed by :mod:`.safe_yaml`;
the model is :mod:`.manifest`'s.

The format is Kubernetes' ``versioned_feature_list.yaml``: a list of gates, each with
``name`` and ascending ``versionedSpecs`` (``version``, ``default``, ``lockToDefault``,
``preRelease``). Accepted variants: the unversioned lists of 1.31/1.32 (one spec with an
empty version, registered at 0.0), an empty list, an optional ``minCompatibilityVersion``
per spec and an optional ``dependencies`` list per gate.

Every problem is reported with the file, the gate and the field, and all problems of a
file are collected before :class:`ManifestError` is raised.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .errors import KcompatError, cut, shown
from .limits import DEFAULT_MAX_BYTES as DEFAULT_MAX_BYTES
from .limits import MAX_GATES as MAX_GATES
from .manifest import META_GATES, ZERO, Feature, FeatureSpec, Manifest, spec_at
from .record import Record, set_field
from .stages import MANIFEST_STAGES, STABILITY_RANK, Stage
from .versions import Version, major_minor, parse_version, subtract_minor

TYPE_CHECKING = False
if TYPE_CHECKING:  # for annotations only: subscripting Callable costs milliseconds at import
    from collections.abc import Callable

    #: the reporting callback, ``_Problems.add``: (gate, field, message)
    Report = Callable[[str | None, str | None, str], None]

#: Specs of one gate: real gates have at most 4.
MAX_SPECS_PER_GATE = 32


#: Dependency edges of one manifest: the 1.37 list has about 50.
MAX_DEPENDENCIES = 2_000


MAX_NAME_LENGTH = 256


_GATE_KEYS = {"name", "versionedSpecs", "dependencies"}


#: Registration rules of ``AddVersioned`` per release (see ``registration_for``).
SORTED, INCREASING, FULL = "1.31-sorted", "1.33-increasing", "1.35-full"


def registration_for(release: Version | None) -> str:
    """The spec rules a binary of ``release`` applied when registering gates (None: the newest)."""
    if release is None or release >= major_minor(1, 35):
        return FULL
    if release >= major_minor(1, 33):
        return INCREASING
    return SORTED


_SPEC_KEYS = {"version", "default", "lockToDefault", "preRelease", "minCompatibilityVersion"}


class ManifestProblem(Record):
    """One problem of a manifest: where (file, gate, field) and what."""

    __slots__ = ("field", "gate", "message", "source")
    source: str
    gate: str | None
    field: str | None
    message: str

    def __init__(self, source: str, gate: str | None, field: str | None, message: str) -> None:
        set_field(self, "source", source)
        set_field(self, "gate", gate)
        set_field(self, "field", field)
        set_field(self, "message", message)

    def __str__(self) -> str:
        where = self.source
        if self.gate is not None:
            where += f": gate {self.gate}"
        if self.field is not None:
            where += f", field {self.field}"
        return f"{where}: {self.message}"


class ManifestError(KcompatError):
    def __init__(self, problems: Iterable[ManifestProblem]):
        self.problems = tuple(problems)
        lines = "\n".join(f"  - {line}" for line in shown(str(p) for p in self.problems))
        super().__init__(f"{len(self.problems)} problem(s) in the feature manifest:\n{lines}")


def parse_manifest(document: object, source: str, registration: str = FULL, check_dependencies: bool = True) -> tuple[Feature, ...]:
    """Turn a parsed YAML document into validated features, or raise ManifestError.

    ``registration`` names the rules of ``AddVersioned`` to apply (see :func:`registration_for`):
    1.31/1.32 binaries only sorted each gate's specs, 1.33/1.34 required strictly increasing
    versions and no stage regression, 1.35+ added min compatibility and the no-op/unlock rules.
    ``check_dependencies=False`` leaves the ``AddDependencies`` checks to the caller, for a file
    whose dependencies name gates of another file of the same binary (client-go's)."""
    problems = _Problems(source)
    problem = problems.add

    if not isinstance(document, list):
        kind = "an empty file" if document is None else f"a {_yaml_kind(document)}"
        problem(None, None, f"expected a list of gates at the top level, got {kind}")
        raise ManifestError(problems)
    if len(document) > MAX_GATES:
        problem(None, None, f"{len(document)} gates is more than the limit of {MAX_GATES}")
        raise ManifestError(problems)

    features: list[Feature] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(document):
        feature = _parse_gate(item, index, problems, registration)
        if feature is None:
            continue
        if feature.name in seen:
            problem(feature.name, "name", f"duplicate gate (items {seen[feature.name] + 1} and {index + 1})")
            continue
        seen[feature.name] = index
        features.append(feature)

    if not problems and check_dependencies:
        _check_dependencies(features, problem)
    if problems:
        raise ManifestError(problems)
    return tuple(features)


def _yaml_kind(value: object) -> str:
    return {dict: "mapping", list: "list", str: "string", bool: "boolean", int: "number", float: "number"}.get(
        type(value), type(value).__name__
    )


def _parse_gate(item: object, index: int, problems: _Problems, registration: str) -> Feature | None:
    problem = problems.add
    if not isinstance(item, dict):
        problem(f"#{index + 1}", None, f"expected a mapping with name and versionedSpecs, got a {_yaml_kind(item)}")
        return None
    name = item.get("name")
    if not isinstance(name, str) or not name.strip():
        problem(f"#{index + 1}", "name", f"expected a non-empty string, got {_describe(name)}")
        return None
    label = name if len(name) <= MAX_NAME_LENGTH else name[:MAX_NAME_LENGTH] + "..."
    before = len(problems)
    _check_name(name, label, problem)
    for key in item:
        if key not in _GATE_KEYS:
            problem(label, str(key), f"unknown field (expected one of {sorted(_GATE_KEYS)})")
    raw_specs = item.get("versionedSpecs")
    if not isinstance(raw_specs, list) or not raw_specs:
        problem(label, "versionedSpecs", f"expected a non-empty list of specs, got {_describe(raw_specs)}")
        return None
    if len(raw_specs) > MAX_SPECS_PER_GATE:
        problem(label, "versionedSpecs", f"{len(raw_specs)} specs is more than the limit of {MAX_SPECS_PER_GATE}")
        return None
    dependencies = _parse_dependencies(item.get("dependencies", []), label, problem)
    unversioned = len(raw_specs) == 1 and isinstance(raw_specs[0], dict) and raw_specs[0].get("version") in ("", None)
    specs = _parse_specs(label, raw_specs, unversioned, problem, registration)
    if specs is None or len(problems) != before:
        return None
    return Feature(name=name, specs=specs, dependencies=dependencies)


def _check_name(name: str, label: str, problem: Report) -> None:
    """A gate's name as ``--feature-gates`` can set it, and not a meta-gate."""
    if len(name) > MAX_NAME_LENGTH:
        problem(label, "name", f"longer than {MAX_NAME_LENGTH} characters")
    elif name != name.strip() or any(c in name for c in ",=:") or any(not c.isprintable() or c.isspace() for c in name):
        problem(label, "name", "must not contain whitespace, control characters, ',', '=' or ':' (it could never be set by --feature-gates)")
    if name in META_GATES:
        problem(label, "name", f"{name} is a meta-gate every gate set already has; it cannot be listed")


def _parse_dependencies(deps: object, label: str, problem: Report) -> tuple[str, ...]:
    """The gate's ``dependencies`` (none when absent or null), sorted and each once."""
    if deps is None:
        return ()
    if not isinstance(deps, list) or not all(isinstance(d, str) and d for d in deps):
        problem(label, "dependencies", f"expected a list of gate names, got {_describe(deps)}")
        return ()
    return tuple(sorted(set(deps)))


class _Problems(list[ManifestProblem]):
    """The problems of one file; ``add`` is passed around as the reporting callback."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source

    def add(self, gate: str | None, fld: str | None, message: str) -> None:
        self.append(ManifestProblem(self.source, gate, fld, message))


def _describe(value: object) -> str:
    if value is None:
        return "nothing"
    text = repr(value)
    return f"{_yaml_kind(value)} {text[:60]}{'...' if len(text) > 60 else ''}"


def _parse_version_field(value: object, gate: str, fld: str, problem: Report) -> Version | None:
    if isinstance(value, bool) or not isinstance(value, str):
        hint = ' (quote it: a YAML number loses digits, 1.10 reads as 1.1)' if isinstance(value, float) else ""
        problem(gate, fld, f'expected a quoted "major.minor" string, got {_describe(value)}{hint}')
        return None
    try:
        version = parse_version(value)
    except KcompatError as exc:
        problem(gate, fld, str(exc))
        return None
    if len(version.components) != 2 or version.pre_release or version.build_metadata:
        problem(gate, fld, f'expected exactly "major.minor" (no patch, no pre-release), got "{cut(value)}"')
        return None
    return version


def _parse_specs(gate: str, raw_specs: list[object], unversioned: bool, problem: Report, registration: str) -> tuple[FeatureSpec, ...] | None:
    specs = [_parse_spec(gate, f"versionedSpecs[{i}]", raw, unversioned, problem) for i, raw in enumerate(raw_specs)]
    if None in specs:
        return None
    parsed = [s for s in specs if s is not None]
    if registration == SORTED:
        parsed.sort(key=lambda s: (s.version.major, s.version.minor))
        return _with_inherited_min_compat(parsed)
    return _check_spec_sequence(gate, parsed, problem, registration)


def _parse_spec(gate: str, where: str, raw: object, unversioned: bool, problem: Report) -> FeatureSpec | None:
    """One spec, or None when a problem was reported for it (every problem of it is)."""
    if not isinstance(raw, dict):
        problem(gate, where, f"expected a mapping, got {_describe(raw)}")
        return None
    ok = True
    for key in raw:
        if key not in _SPEC_KEYS:
            problem(gate, f"{where}.{key}", f"unknown field (expected one of {sorted(_SPEC_KEYS)})")
            ok = False
    version: Version | None = ZERO
    if not unversioned:
        if raw.get("version") in ("", None):
            problem(gate, f"{where}.version", "missing: every spec of a versioned gate needs a version")
            return None
        version = _parse_version_field(raw.get("version"), gate, f"{where}.version", problem)
    flags: dict[str, bool] = {}
    for key in ("default", "lockToDefault"):
        value = raw.get(key, False if key == "lockToDefault" else None)
        if isinstance(value, bool):
            flags[key] = value
        else:
            problem(gate, f"{where}.{key}", f"expected true or false, got {_describe(value)}")
            ok = False
    stage_text = raw.get("preRelease")
    stage = next((s for s in MANIFEST_STAGES if s.value == stage_text), None)
    if stage is None:
        allowed = ", ".join(s.value for s in MANIFEST_STAGES)
        problem(gate, f"{where}.preRelease", f"expected one of {allowed}, got {_describe(stage_text)}")
    mc = None
    if raw.get("minCompatibilityVersion") not in (None, ""):
        mc = _parse_version_field(raw["minCompatibilityVersion"], gate, f"{where}.minCompatibilityVersion", problem)
        ok = ok and mc is not None
    if version is None or stage is None or not ok:
        return None
    return FeatureSpec(version, flags["default"], flags["lockToDefault"], stage, mc)


def _with_inherited_min_compat(specs: list[FeatureSpec]) -> tuple[FeatureSpec, ...]:
    out, inherited = [], None
    for spec in specs:
        inherited = spec.min_compatibility_version or inherited
        out.append(FeatureSpec(spec.version, spec.default, spec.lock_to_default, spec.stage, spec.min_compatibility_version, inherited))
    return tuple(out)


class _Seen:
    """What the specs before the current one were: the stages reached, whether one was locked."""

    def __init__(self) -> None:
        self.beta = self.ga = self.deprecated = self.locked = False

    def add(self, spec: FeatureSpec) -> None:
        self.beta |= spec.stage is Stage.BETA
        self.ga |= spec.stage is Stage.GA
        self.deprecated |= spec.stage is Stage.DEPRECATED
        self.locked |= spec.lock_to_default


def _check_spec_sequence(gate: str, specs: list[FeatureSpec], problem: Report, registration: str) -> tuple[FeatureSpec, ...] | None:
    """The ordering rules of ``AddVersioned`` (SPEC §3.2); fills in inherited min-compat values.

    Mirrors component-base: 1.33/1.34 require strictly increasing versions and no stage
    regression; 1.35+ compare each spec with the previous *completed* spec (min compat inherited)."""
    out: list[FeatureSpec] = []
    reported: list[int] = []
    seen = _Seen()
    for i, spec in enumerate(specs):

        def bad(message: str, fld: str = "", where: str = f"versionedSpecs[{i}]", i: int = i) -> None:
            reported.append(i)
            problem(gate, where + fld, message)

        mc = spec.min_compatibility_version if registration == FULL else None
        last = out[-1] if out else None
        if mc is not None:
            _check_min_compat(spec, mc, last, bad)
        if i == 0 and spec.stage is Stage.DEPRECATED and spec.version.minor != 0:
            bad(f"a gate cannot start Deprecated at {spec.version}; begin with a \"1.0\"-style spec describing its earlier state")
        if last is not None:
            if registration == INCREASING:
                if not last.version < spec.version:
                    bad(f"version {spec.version} is not greater than the previous spec's {last.version} (1.33/1.34 need strictly increasing versions)", ".version")
            else:
                _check_against_previous(spec, mc, last, seen, bad)
            _check_stage_order(spec, seen, bad)
        inherited = mc if mc is not None else (last.effective_min_compatibility if last is not None else None)
        out.append(FeatureSpec(spec.version, spec.default, spec.lock_to_default, spec.stage, mc, inherited))
        seen.add(spec)
    return None if reported else tuple(out)


def _check_min_compat(spec: FeatureSpec, mc: Version, last: FeatureSpec | None, bad: Callable[..., None]) -> None:
    """A spec's own ``minCompatibilityVersion`` (1.35+)."""
    if last is None or spec.version != last.version:
        bad("minCompatibilityVersion needs a preceding spec at the same version without it", ".minCompatibilityVersion")
    if mc > spec.version:
        bad(f"minCompatibilityVersion {mc} is greater than the spec's version {spec.version}", ".minCompatibilityVersion")


def _check_against_previous(spec: FeatureSpec, mc: Version | None, last: FeatureSpec, seen: _Seen, bad: Callable[..., None]) -> None:
    """1.35+: a spec against the previous completed one (its min compatibility inherited)."""
    last_mc = last.effective_min_compatibility
    if spec.version < last.version:
        bad(f"version {spec.version} is lower than the previous spec's {last.version} (specs must ascend)", ".version")
    if mc is not None and last_mc is not None and mc < last_mc:
        bad(f"minCompatibilityVersion {mc} is lower than the previous spec's {last_mc}", ".minCompatibilityVersion")
    if spec.version == last.version:
        if mc == last_mc:
            bad(f"duplicate spec for version {spec.version} (same minCompatibilityVersion)", ".version")
        if spec.stage is not last.stage:
            bad(f"two specs at version {spec.version} change the stage ({last.stage} -> {spec.stage})", ".preRelease")
        if spec.lock_to_default != last.lock_to_default:
            bad(f"two specs at version {spec.version} change lockToDefault", ".lockToDefault")
    if (spec.stage, spec.default, spec.lock_to_default) == (last.stage, last.default, last.lock_to_default):
        bad(f"changes nothing relative to the previous spec ({last.stage}, default {str(last.default).lower()}, lockToDefault {str(last.lock_to_default).lower()})")
    if seen.locked and not spec.lock_to_default:
        bad("unlocks a gate that an earlier spec locked to its default", ".lockToDefault")


def _check_stage_order(spec: FeatureSpec, seen: _Seen, bad: Callable[..., None]) -> None:
    """No stage goes backwards: Deprecated is terminal, no Alpha after Beta or GA, no Beta after GA."""
    if seen.deprecated and spec.stage is not Stage.DEPRECATED:
        bad(f"{spec.stage} after Deprecated: Deprecated is terminal", ".preRelease")
    elif spec.stage is Stage.ALPHA and (seen.beta or seen.ga):
        bad("Alpha after a more stable stage goes backwards", ".preRelease")
    elif spec.stage is Stage.BETA and seen.ga:
        bad("Beta after GA goes backwards", ".preRelease")


def _check_dependencies(features: list[Feature], problem: Report) -> None:
    """Registration checks of ``AddDependencies`` (SPEC §5.6): known targets, no cycle, and no
    dependency on a less stable, default-off or unlocked gate at any of the dependent's versions."""
    by_name = {f.name: f for f in features}
    edges = 0
    for feature in features:
        edges += len(feature.dependencies)
        for dep in feature.dependencies:
            if dep not in by_name:
                problem(feature.name, "dependencies", f"cannot add dependency from {feature.name} to unknown feature {cut(dep)}")
    if edges > MAX_DEPENDENCIES:
        problem(None, "dependencies", f"{edges:,} dependencies in all, more than the limit of {MAX_DEPENDENCIES:,}")
        return
    cyclic = first_cycle_root(features, by_name)
    if cyclic is not None:
        problem(cyclic, "dependencies", f"cycle detected with feature {cyclic}")
        return
    for feature in features:
        for dep_name in feature.dependencies:
            target = by_name.get(dep_name)
            why = _dependency_refused(feature, target) if target is not None else None
            if why is not None:
                problem(feature.name, "dependencies", why)


def _dependency_refused(feature: Feature, target: Feature) -> str | None:
    """Why ``feature`` cannot depend on ``target`` at one of its versions (newest first), or None:
    the dependent may not be more stable, on by default or locked where its dependency is not."""
    for spec in reversed(feature.specs):
        # featureSpecAtEmulationAndMinCompatVersion: a spec without min compat looks at version-1
        mc = spec.effective_min_compatibility or subtract_minor(spec.version, 1)
        at = spec_at(target, spec.version, mc, use_min_compat=True)
        if STABILITY_RANK[spec.stage] > STABILITY_RANK[at.stage]:
            return f"{spec.stage.label} feature {feature.name} cannot depend on {at.stage.label} feature {target.name} at version {spec.version}"
        if spec.default and not at.default:
            return f"default-enabled feature {feature.name} cannot depend on default-disabled feature {target.name} at version {spec.version}"
        if spec.lock_to_default and not at.lock_to_default:
            return f"locked-to-default feature {feature.name} cannot depend on unlocked feature {target.name} at version {spec.version}"
    return None


def first_cycle_root(features: Iterable[Feature], by_name: Mapping[str, Feature]) -> str | None:
    """The first gate (in ``features`` order) from which a dependency cycle is reachable, or None.

    A depth-first search with an explicit stack: a chain as long as the manifest (thousands of
    gates) costs one pass over the edges and never recursion (no RecursionError)."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    for root in features:
        if root.name in state or not root.dependencies:
            continue
        state[root.name] = 1
        stack = [(root.name, iter(root.dependencies))]
        while stack:
            name, pending = stack[-1]
            for dep in pending:
                seen = state.get(dep)
                if seen == 1:
                    return root.name
                if seen is None and dep in by_name:
                    state[dep] = 1
                    stack.append((dep, iter(by_name[dep].dependencies)))
                    break
            else:
                state[name] = 2
                stack.pop()
    return None


def load_manifest_bytes(
    data: bytes | str, source: str, max_bytes: int = DEFAULT_MAX_BYTES, registration: str = FULL, check_dependencies: bool = True
) -> tuple[Feature, ...]:
    # (the YAML reader is not imported when the bundled data is used)
    from .safe_yaml import read_yaml_text

    return parse_manifest(read_yaml_text(data, source, max_bytes, manifest=True), source, registration, check_dependencies)


def check_manifest_dependencies(features: Iterable[Feature], source: str) -> None:
    """The ``AddDependencies`` registration checks over one binary's whole gate set."""
    problems = _Problems(source)
    _check_dependencies(list(features), problems.add)
    if problems:
        raise ManifestError(problems)


def merge_features(features: Iterable[Feature], sources: Iterable[str]) -> Manifest:
    """One binary's manifest from several files; a gate listed in two files is an error."""
    problems: list[ManifestProblem] = []
    seen: set[str] = set()
    sources = tuple(sources)
    for feature in features:
        if feature.name in seen:
            problems.append(ManifestProblem(" + ".join(sources), feature.name, "name", "listed in more than one file"))
        seen.add(feature.name)
    if problems:
        raise ManifestError(problems)
    return Manifest(tuple(features), sources)
