"""The API questions, asked the same way by ``kcompat apis`` / ``kcompat storage`` and the APIs
page: which built-in APIs a kube-apiserver serves, and the storage version of each resource."""

from __future__ import annotations

from dataclasses import dataclass, replace

from kcompat.answers.queries import api_gate_states, newest_release
from kcompat.core.api_comparison import AGAINST, ApiComparison
from kcompat.core.apis import ApiAvailability, evaluate_api_availability
from kcompat.core.compat import parse_binary_version, select_versions
from kcompat.core.components import KUBE_APISERVER
from kcompat.core.errors import KcompatError
from kcompat.core.request import Request, flag, values
from kcompat.core.storage import StorageVersions, storage_versions
from kcompat.data.catalog import Catalog

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from kcompat.answers.startup import StartupAnswer
    from kcompat.core.problems import Remedy


def apis(catalog: Catalog, request: Request) -> ApiAvailability:
    """The APIs the request's binary (the newest bundled release when it names none) serves at the
    emulated version with these flags, on the catalog's data (the gates at each binary's patch
    level decide the feature-gated REST storage)."""
    return evaluate_api_availability(
        request.binary or newest_release(catalog),
        values(request.emulated),
        values(request.runtime_config),
        emulation_forward_compatible=request.emulation_forward_compatible,
        runtime_config_emulation_forward_compatible=request.runtime_config_emulation_forward_compatible,
        min_compat=values(request.min_compat),
        api_data=catalog.api_data,
        gate_states=api_gate_states(catalog, values(request.feature_gates)),
    )


def apis_startup(catalog: Catalog, result: ApiAvailability, request: Request) -> StartupAnswer:
    """kube-apiserver's whole start-up with the flags of ``result`` (:func:`apis`' answer for
    ``request``): its refusals in the binary's order (the option checks beside the API ones),
    whether it becomes ready, and the remedies (:func:`kcompat.answers.startup.apiserver_startup`)."""
    from kcompat.answers.gates import gate_evaluation
    from kcompat.answers.startup import apiserver_startup

    request = request.with_(
        binary=str(result.binary), runtime_config=flag(list(result.runtime_config)),
        emulation_forward_compatible=result.emulation_forward_compatible,
        runtime_config_emulation_forward_compatible=result.runtime_config_emulation_forward_compatible, component=KUBE_APISERVER,
    )
    return apiserver_startup(catalog, gate_evaluation(catalog, request), request, result)


@dataclass(frozen=True)
class ApisReport:
    """What ``kcompat apis`` shows: the APIs served (:func:`apis`), compared with another binary
    (:func:`compare_apis`), and kube-apiserver's whole start-up with the same flags (:func:`apis_startup`)."""

    result: ApiAvailability
    comparison: ApiComparison
    startup: StartupAnswer

    @property
    def hints(self) -> tuple[Remedy, ...]:
        """The remedies shown beside the errors: the start-up's, then those of the API flags they
        do not already explain (:func:`kcompat.core.remedies.apis.apis_hints`)."""
        from kcompat.core.remedies.apis import apis_hints

        return apis_hints(self.result, self.startup.hints)


def apis_report(catalog: Catalog, request: Request, against: str = "release") -> ApisReport:
    """:func:`apis` for ``request`` (the newest bundled release when it names no binary), compared
    ``against`` (``release`` or ``native``), with the start-up of :func:`apis_startup`."""
    request = request.with_(binary=request.binary or newest_release(catalog))
    result = apis(catalog, request)
    comparison = compare_apis(result, against)
    return ApisReport(result, comparison, apis_startup(catalog, result, request))


def storage(catalog: Catalog, binary: str, emulated: str | None = None, min_compat: str | None = None) -> StorageVersions:
    """The storage version of each built-in resource of ``binary`` at (emulated, min compat), the
    flags read as the binary reads them: a flag it does not have (--min-compatibility-version
    before 1.35) or a value it cannot parse is its start-up error (in ``errors``), and the
    storage shown is that of its defaults, as ``kcompat gates`` does."""
    version = parse_binary_version(binary)
    selection = select_versions(version, emulated or None, min_compat or None)
    stored = storage_versions(version, selection.emulated, selection.min_compat, api_data=catalog.api_data, gate_states=api_gate_states(catalog))
    return replace(stored.with_refusals(selection.problems), versions_refused=selection.flags_rejected)


def compare_apis(result: ApiAvailability, against: str = "release") -> ApiComparison:
    """``result`` compared with a real binary of its emulated release (``release``: its
    ``servedByRelease``) or with the same binary at its own version (``native``: what emulating
    enables and removes; the forward-compatibility flags, refused there, are dropped)."""
    if against == "release":
        return ApiComparison("release", {e.key: e.served_by_release for e in result.entries}, f"a real {result.emulated} binary")
    if against == "native":
        served = result.compared_with_binary().baseline.served_keys()
        release = f"{result.binary.major}.{result.binary.minor}"
        return ApiComparison("native", {e.key: e.key in served for e in result.entries}, f"the {release} binary at its own version")
    raise KcompatError(f"--against {against!r}: not one of {', '.join(AGAINST)}")
