"""The API questions, asked the same way by ``kcompat apis`` / ``kcompat storage`` and the APIs
page: which built-in APIs a kube-apiserver serves, and the storage version of each resource."""

from __future__ import annotations

from dataclasses import replace

from kcompat.answers.queries import api_gate_states
from kcompat.core.apis import ApiAvailability, evaluate_api_availability
from kcompat.core.compat import parse_binary_version, select_versions
from kcompat.core.storage import StorageVersions, storage_versions
from kcompat.data.catalog import Catalog


def apis(
    catalog: Catalog,
    binary: str,
    emulated: str | None = None,
    min_compat: str | None = None,
    feature_gates: str | list[str] | None = None,
    runtime_config: str | list[str] | None = None,
    *,
    emulation_forward_compatible: bool = False,
    runtime_config_emulation_forward_compatible: bool = False,
) -> ApiAvailability:
    """The APIs ``binary`` serves at ``emulated`` with these flags, on the catalog's data (the gates
    at each binary's patch level decide the feature-gated REST storage)."""
    return evaluate_api_availability(
        binary,
        emulated,
        runtime_config,
        emulation_forward_compatible=emulation_forward_compatible,
        runtime_config_emulation_forward_compatible=runtime_config_emulation_forward_compatible,
        min_compat=min_compat or None,
        api_data=catalog.api_data,
        gate_states=api_gate_states(catalog, feature_gates),
    )


def storage(catalog: Catalog, binary: str, emulated: str | None = None, min_compat: str | None = None) -> StorageVersions:
    """The storage version of each built-in resource of ``binary`` at (emulated, min compat), the
    flags read as the binary reads them: a flag it does not have (--min-compatibility-version
    before 1.35) or a value it cannot parse is its start-up error (in ``errors``), and the
    storage shown is that of its defaults, as ``kcompat gates`` does."""
    version = parse_binary_version(binary)
    selection = select_versions(version, emulated or None, min_compat or None)
    stored = storage_versions(version, selection.emulated, selection.min_compat, api_data=catalog.api_data, gate_states=api_gate_states(catalog))
    return replace(stored, errors=selection.errors, versions_refused=selection.flags_rejected)
