"""Remedies beside kube-apiserver's refusals of ``--runtime-config`` and of the
forward-compatibility flags, and beside its alpha-under-emulation warning (kind
"runtime-config"), from the API data of the binary's release and the other bundled releases; the
version flags' refusals first, as for the gates (:mod:`.versions`)."""

from __future__ import annotations

from ..apis import ApiAvailability
from ..errors import KcompatError, echo
from ..problems import (
    MAX_REMEDIES,
    AlphaApiWhileEmulating,
    ApiResourceIntroducedLater,
    ApiVersionIntroducedLater,
    ForwardCompatSameVersion,
    GroupVersionNotRegistered,
    Problem,
    Remedy,
    RemedyKind,
    UnknownApiGroups,
    UnknownFlag,
)
from ..search import closest_names
from ..versions import Version, mm
from .versions import version_remedies

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

#: Groups named in one remedy of "unknown api groups" (the message itself is cut too).
MAX_GROUPS_NAMED = 20


def _remedy(problem: Problem, text: str, names: tuple[str, ...]) -> Remedy:
    return Remedy(RemedyKind.RUNTIME_CONFIG, problem, text, names)


def _first_introduced(availability: ApiAvailability, gv: str, resource: str | None = None) -> Version | None:
    versions = [
        mm(e.introduced)
        for e in availability.entries
        if e.group_version == gv and e.introduced is not None and (resource is None or e.resource == resource)
    ]
    return min(versions) if versions else None


def _version_introduced_later(problem: ApiVersionIntroducedLater, availability: ApiAvailability) -> Remedy:
    gv = problem.group_version
    first = _first_introduced(availability, gv)
    appears = f"{gv} appears in {first}" if first is not None else f"every resource of {gv} is introduced after {mm(availability.emulated)}"
    emulate = f"emulate {first} or later, " if first is not None else ""
    text = (
        f"{appears}: {emulate}drop {gv}=true from --runtime-config, "
        "or add --runtime-config-emulation-forward-compatible=true to serve it anyway"
    )
    return _remedy(problem, text, (gv,))


def _resource_introduced_later(problem: ApiResourceIntroducedLater, availability: ApiAvailability) -> Remedy:
    gv, resource, introduced = f"{problem.group}/{problem.version}", problem.resource, problem.introduced
    text = (
        f"{gv}/{resource} appears in {introduced}: emulate {introduced} or later, drop {gv}/{resource}=true from "
        "--runtime-config, or add --runtime-config-emulation-forward-compatible=true to serve it anyway"
    )
    return _remedy(problem, text, (gv,))


def _unregistered(problem: GroupVersionNotRegistered, availability: ApiAvailability) -> Remedy | None:
    """A group/version the binary does not register: removed (the last release that served it),
    not yet added (the first release that does), or a typo (the closest registered names)."""
    gv, binary = problem.shown, mm(availability.binary)
    group, _, version = gv.rpartition("/")
    last_before = first_after = None
    api_data = availability.api_data
    for release in api_data.api_releases():
        try:
            api = api_data.api_release(release)
        except KcompatError:
            continue
        if api.find(group, version) is None:
            continue
        if mm(release) < binary:
            last_before = mm(release)
        elif mm(release) > binary and first_after is None:
            first_after = mm(release)
    if last_before is not None:
        text = (
            f"{gv} is no longer registered by a {binary} binary (removed after {last_before}, the last bundled release that "
            f"registers it); emulation does not bring it back: drop {gv} from --runtime-config"
        )
        return _remedy(problem, text, (gv,))
    if first_after is not None:
        text = f"{gv} is first registered by {first_after} binaries: use a {first_after} or later binary, or drop {gv} from --runtime-config"
        return _remedy(problem, text, (gv,))
    names = closest_names(gv, dict.fromkeys(e.group_version for e in availability.entries))
    if names:
        return _remedy(problem, f"{gv}: did you mean {' or '.join(names)}?", names)
    return None


def _unknown_groups(problem: UnknownApiGroups, availability: ApiAvailability) -> Remedy:
    groups = tuple(echo(g) for g in problem.names[:MAX_GROUPS_NAMED] if g)
    known = dict.fromkeys(e.group for e in availability.entries if e.group)
    guesses = [f"{g}: did you mean {' or '.join(names)}?" for g in groups for names in [closest_names(g, known)] if names]
    one = len(groups) == 1
    text = (
        f"{', '.join(groups)} {'is not a group' if one else 'are not groups'} a {mm(availability.binary)} kube-apiserver serves "
        f"(--runtime-config cannot enable a CRD's or an aggregated API's group): drop {'it' if one else 'them'} from --runtime-config"
        + ("; " + "; ".join(guesses) if guesses else "")
    )
    return _remedy(problem, text, groups)


def _same_version(problem: ForwardCompatSameVersion, availability: ApiAvailability) -> Remedy:
    flag = f"--{problem.flag}"
    text = f"{flag} only applies while emulating an older release: drop it, or set --emulated-version below {mm(availability.binary)}"
    return _remedy(problem, text, (flag,))


def _unknown_flag(problem: UnknownFlag, availability: ApiAvailability) -> Remedy | None:
    if problem.release is None or problem.since is None:
        return None
    text = f"--{problem.flag} exists from {problem.since}: drop it from a {problem.release} binary's flags"
    return _remedy(problem, text, (f"--{problem.flag}",))


def _alpha_api(problem: AlphaApiWhileEmulating, availability: ApiAvailability) -> Remedy:
    gv = problem.group_version
    text = (
        f"{gv} is alpha: under emulation it is unsupported (a warning, the binary starts). Drop --emulated-version to run "
        f"{mm(availability.binary)} natively, or drop {gv}=true from --runtime-config"
    )
    return _remedy(problem, text, (gv,))


#: problem type -> its remedy, from the problem and the API answer it belongs to
REMEDIES: dict[type[Problem], Callable[[Any, ApiAvailability], Remedy | None]] = {
    ApiVersionIntroducedLater: _version_introduced_later,
    ApiResourceIntroducedLater: _resource_introduced_later,
    GroupVersionNotRegistered: _unregistered,
    UnknownApiGroups: _unknown_groups,
    ForwardCompatSameVersion: _same_version,
    UnknownFlag: _unknown_flag,
    AlphaApiWhileEmulating: _alpha_api,
}


def api_remedies(availability: ApiAvailability) -> tuple[Remedy, ...]:
    """The remedies beside the refusals of ``--runtime-config`` and the forward-compatibility
    flags and beside the alpha-under-emulation warning, after those of the version flags' ranges
    (at most ``MAX_REMEDIES``)."""
    out: list[Remedy] = []
    if availability.selection is not None:
        out.extend(version_remedies(availability.selection))
    for problem in availability.problems:
        if len(out) >= MAX_REMEDIES:
            break
        remedy = REMEDIES.get(type(problem))
        found = remedy(problem, availability) if remedy is not None else None
        if found is not None:
            out.append(found)
    return tuple(out)


def apis_hints(availability: ApiAvailability, startup_hints: tuple[Remedy, ...] | None = None) -> tuple[Remedy, ...]:
    """The remedies ``kcompat apis`` and the APIs page show: those of kube-apiserver's whole
    start-up (``startup_hints``, when it was checked) first, then :func:`api_remedies` of the
    errors they do not already explain."""
    hints = api_remedies(availability)
    if startup_hints is None:
        return hints
    explained = {h.problem for h in startup_hints}
    return startup_hints + tuple(h for h in hints if h.problem not in explained)
