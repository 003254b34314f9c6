"""The hostile kube-apiserver the --live tests read (tests/hostile_apiserver.py): its certificates,
made once per module, and one server per test."""

from __future__ import annotations

import pytest
from hostile_apiserver import HostileApiServer, make_certificates


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    return make_certificates(tmp_path_factory.mktemp("certs"))


@pytest.fixture
def server(certs):
    s = HostileApiServer(certs)
    yield s
    s.close()
