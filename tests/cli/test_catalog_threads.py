"""The catalog is shared by every session of the dashboard (one per process, ``st.cache_resource``),
each session running its script in its own thread. Many threads asking a cold catalog for the same
things at the same moment must all get the same objects, built once, and nothing they get can be
changed by one of them."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable

import pytest

from kcompat.core.versions import parse_version
from kcompat.data.catalog import Catalog

THREADS = 24

#: what the pages ask the catalog for (the matrix and gate pages, a patch binary, the API pages)
ASKS: dict[str, Callable[[Catalog], object]] = {
    "releases": lambda c: c.releases,
    "bundle": lambda c: c.bundle,
    "load 1.34": lambda c: c.load("1.34"),
    "manifest 1.36": lambda c: c.manifest("1.36"),
    "patches 1.35": lambda c: c.patches("1.35"),
    "manifest_for 1.35.2": lambda c: c.manifest_for(parse_version("1.35.2"))[0],
    "api_data": lambda c: c.api_data,
    "gate_info": lambda c: c.gate_info,
}


@pytest.fixture
def fast_switching():
    """Threads switched every 10 micros (the server uses 1 ms): races show up in a few runs."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(before)


def _hammer(catalog: Catalog, order: list[str]) -> tuple[list[dict[str, object]], list[BaseException]]:
    start = threading.Barrier(THREADS)
    results: list[dict[str, object]] = [{} for _ in range(THREADS)]
    errors: list[BaseException] = []

    def work(i: int) -> None:
        start.wait()
        try:
            for name in order[i % len(order):] + order[: i % len(order)]:  # each thread in another order
                results[i][name] = ASKS[name](catalog)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return results, errors


@pytest.mark.parametrize("round_", range(3))
def test_threads_on_a_cold_catalog_get_the_same_objects(fast_switching, round_):
    catalog = Catalog()  # cold: nothing loaded yet
    results, errors = _hammer(catalog, list(ASKS))
    assert not errors, errors
    for name in ASKS:
        got = {id(r[name]) for r in results}
        assert len(got) == 1, f"{name}: {len(got)} different objects built for {THREADS} threads at once"


def test_what_the_catalog_hands_out_cannot_be_changed():
    catalog = Catalog()
    level = next(lv for lv in catalog.patches("1.35").levels if lv.gates)
    with pytest.raises(TypeError):
        level.gates[0]["name"] = "Changed"  # type: ignore[index]
    with pytest.raises((TypeError, AttributeError)):
        level.gates[0]["versionedSpecs"][0]["default"] = True  # type: ignore[index]
    with pytest.raises(TypeError):
        catalog.gate_info["JobManagedBy"] = None  # type: ignore[index]
    manifest = catalog.manifest("1.36")
    with pytest.raises(TypeError):
        manifest.by_name["JobManagedBy"] = None  # type: ignore[index]
    # and the patch built from those read-only entries is the one the YAML describes
    patched, _ = catalog.manifest_for(parse_version(f"1.35.{level.number}"))
    assert patched is catalog.manifest_for(parse_version(f"1.35.{level.number}"))[0]
    assert {g["name"] for g in level.gates} <= set(patched.by_name)
