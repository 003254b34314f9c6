"""The records (kcompat/core/record.py): immutable, compared and hashed by their fields, and
rebuilt through ``__init__`` when pickled, copied or hashed as a Streamlit cache key."""

from __future__ import annotations

import copy
import hashlib
import importlib
import inspect
import pickle
import pkgutil

import pytest

import kcompat
from kcompat.core.record import Record
from kcompat.core.request import Request
from kcompat.core.startup import ApiserverOptions
from kcompat.core.versions import parse_version


def _records() -> list[type[Record]]:
    for info in pkgutil.walk_packages(kcompat.__path__, "kcompat."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    found: list[type[Record]] = []
    todo = list(Record.__subclasses__())
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


def test_every_record_takes_its_fields_in_order_so_that_it_rebuilds_from_them():
    records = _records()
    assert len(records) >= 25
    for cls in records:
        params = [p.name for p in inspect.signature(cls.__init__).parameters.values()][1:]
        assert params == [f for f in cls._fields if f not in cls._derived], cls


def test_a_record_is_frozen_and_equal_by_value():
    version = parse_version("1.36.2")
    with pytest.raises(AttributeError):
        version.semver = True  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del version.components
    options = ApiserverOptions(cloud_provider="x", given=frozenset({"cloud-provider"}))
    assert options == ApiserverOptions(cloud_provider="x") and hash(options) == hash(ApiserverOptions(cloud_provider="x"))  # given: not compared
    assert options != ApiserverOptions(cloud_provider="y")
    assert "given" not in repr(options) and "cloud_provider='x'" in repr(options)


def test_a_record_pickles_copies_and_replaces_through_init():
    request = Request.of("1.36", "1.34", feature_gates=["A=true"], options=ApiserverOptions(cloud_provider="x"))
    for again in (pickle.loads(pickle.dumps(request)), copy.copy(request), copy.deepcopy(request)):
        assert again == request and again.options == request.options
    changed = request.replace(emulated="1.35")  # a flag given as a string is held as its tuple again
    assert changed.emulated == ("1.35",) and request.emulated == ("1.34",)
    with pytest.raises(TypeError, match="no field 'nope'"):
        request.replace(nope=1)


def test_streamlit_hashes_a_record_by_its_values():
    from streamlit.runtime.caching.cache_type import CacheType
    from streamlit.runtime.caching.hashing import update_hash

    def digest(value: object) -> str:
        h = hashlib.new("md5")
        update_hash(value, h, CacheType.DATA)
        return h.hexdigest()

    assert digest(Request.of("1.36", "1.34")) == digest(Request.of("1.36", ["1.34"]))
    assert digest(Request.of("1.36", "1.34")) != digest(Request.of("1.36", "1.35"))
