"""Uploads live in the uploading session only: a manifest refused for its size or shape gives a
message and the session stays usable; a valid one is parsed once per rule set and kept in
st.session_state, with nothing added to any process-wide cache."""

from __future__ import annotations

import hashlib
import time

from streamlit.testing.v1 import AppTest

from dashboard.state.selection import Selection
from dashboard.uploads import custom_manifest as upload
from kcompat.core.registration import MAX_GATES
from tests.app.conftest import APP, TIMEOUT, plain

SPEC = '  - {version: "1.30", default: false, lockToDefault: false, preRelease: Alpha}\n'


def _gates(n: int, chain: bool = False) -> bytes:
    parts = []
    for i in range(n):
        dep = f"  dependencies: [G{i + 1}]\n" if chain and i < n - 1 else ""
        parts.append(f"- name: G{i}\n{dep}  versionedSpecs:\n{SPEC}")
    return "".join(parts).encode()


def _with_upload(data: bytes, name: str = "mine.yaml") -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params["binary"] = "1.36"
    at.session_state[upload.SESSION] = upload._Upload(name, data, hashlib.sha256(data).hexdigest())
    at.run()
    assert not at.exception, [e.value[:300] for e in at.exception]
    return at


def test_a_3000_deep_chain_gets_a_message_and_the_session_stays_usable():
    start = time.process_time()
    at = _with_upload(_gates(3_000, chain=True))
    assert time.process_time() - start < 3
    errors = [plain(e.value) for e in at.error]
    assert any("cannot be used: 1 problem(s)" in e for e in errors), errors
    assert any(f"more than {MAX_GATES:,} gates" in t.value for t in at.text)
    # back to the bundled gates: the session works as before
    next(b for b in at.button if b.key == "custom_manifest_drop").click().run()
    assert not at.exception and upload.SESSION not in at.session_state
    assert any(b.key == "custom_manifest_open" for b in at.button)


def test_a_valid_upload_is_kept_in_the_session_only():
    at = _with_upload(_gates(500, chain=True))
    infos = [plain(i.value) for i in at.info]
    assert any("Using the uploaded manifest mine.yaml (500 gates)" in i for i in infos), infos
    kept = at.session_state[upload.SESSION]
    assert kept.parsed == {"1.35-full": 500}
    assert "_custom_gates_views" in at.session_state
    # a second session does not see it
    other = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    other.query_params["binary"] = "1.36"
    other.run()
    assert upload.SESSION not in other.session_state and not any("uploaded manifest" in plain(i.value) for i in other.info)


def test_the_binary_rules_are_parsed_once_each_and_bounded():
    data = _gates(10)
    item = upload._Upload("x.yaml", data, hashlib.sha256(data).hexdigest())
    for binary in ("1.36", "1.33", "1.31", "1.36", "1.35"):
        assert upload._parsed_for(item, Selection.from_query(f"binary={binary}&emulated={binary}")) == 10
    assert len(item.parsed) <= upload._PARSED_KEEP


def test_long_file_names_are_cut():
    at = _with_upload(b"- 1\n", name="n" * 100_000 + ".yaml")
    errors = [plain(e.value) for e in at.error]
    assert errors and all(len(e) < 500 for e in errors) and "(100,005 characters)" in errors[0]
