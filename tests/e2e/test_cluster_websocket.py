"""The Check a cluster page against a running server, driven the way an attacker would: a
websocket client speaking Streamlit's own protocol sends widget values no browser would send
(issue 21). Every wait is bounded (RUN_TIMEOUT): a stalled server fails the test.

What is checked: the paste limit holds on the server (item 6), echoes and message lists are cut
(items 8-10), a flood of unknown gate names is answered (item 11), the worst inputs of each
kind are answered, and /_stcore/health keeps answering while they are read.
"""

from __future__ import annotations

import re
import time
import urllib.error
import urllib.request
from urllib.parse import quote

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.sync.client import connect

from kcompat.core.errors import UNSAFE_CHARACTERS
from kcompat.core.inspect.model import MAX_PASTE_CHARS

RUN_TIMEOUT = 60.0
#: No element the page shows for hostile input is larger than this (an echo is cut to 60-100
#: characters, at most 20 messages are listed, each cut).
MAX_ELEMENT_CHARS = 20_000


class Client:
    """One session on the Check a cluster page, through the websocket."""

    def __init__(self, base_url: str):
        self.ws = connect(base_url.replace("http", "ws", 1) + "/_stcore/stream", subprotocols=["streamlit"],
                          max_size=None, open_timeout=30).__enter__()
        self.widgets: dict[str, str] = {}
        self.session_id = ""
        self.alerts: list[str] = []
        self.texts: list[str] = []

    def close(self) -> None:
        self.ws.close()

    def run(self, query: str = "", states=()) -> None:
        msg = BackMsg()
        msg.rerun_script.query_string = query
        msg.rerun_script.page_name = "cluster"
        for state in states:
            msg.rerun_script.widget_states.widgets.append(state)
        self.alerts, self.texts = [], []
        self.ws.send(msg.SerializeToString())
        deadline = time.monotonic() + RUN_TIMEOUT
        while True:
            forward = ForwardMsg()
            forward.ParseFromString(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            kind = forward.WhichOneof("type")
            if kind == "new_session":
                self.session_id = forward.new_session.initialize.session_id or self.session_id
            if kind == "delta" and forward.delta.WhichOneof("type") == "new_element":
                self._note(forward.delta.new_element)
            if kind == "script_finished" and forward.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                return

    def _note(self, element) -> None:
        kind = element.WhichOneof("type")
        if kind == "alert":
            self.alerts.append(re.sub(r"\\(.)", r"\1", element.alert.body))  # the Markdown escapes undone
        elif kind == "text":
            self.texts.append(element.text.body)
        elif kind in ("text_area", "button", "file_uploader"):
            widget = getattr(element, kind)
            self.widgets[f"{kind}:{widget.label}"] = widget.id

    def check(self, cmdline: str = "", version: str = "", metrics: str = "") -> None:
        """Fill the three boxes and press Check, in one message (as the form does)."""
        if not self.widgets:
            self.run()
        states = []
        for label, text in (("Command line", cmdline), ("/version", version), ("/metrics", metrics)):
            widget = next(v for k, v in self.widgets.items() if k.startswith(f"text_area:{label}"))
            states.append(WidgetState(id=widget, string_value=text))
        states.append(WidgetState(id=self.widgets["button:Check"], trigger_value=True))
        self.run(states=states)

    def shown(self) -> list[str]:
        return self.alerts + self.texts


@pytest.fixture
def client(server_url):
    session = Client(server_url)
    yield session
    session.close()


def _health_ms(url: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(url + "/_stcore/health", timeout=30) as response:
        assert response.status == 200
    return (time.perf_counter() - start) * 1000


def _bounded(shown: list[str]) -> None:
    assert shown, "nothing shown"
    for body in shown:
        assert len(body) < MAX_ELEMENT_CHARS, (len(body), body[:200])


def test_the_paste_limit_holds_on_the_server(client):
    client.check(metrics="k" * (MAX_PASTE_CHARS * 3))
    # refused by name (not cut silently, which would read part of a /metrics as if whole)
    assert any(f"pasted /metrics: more than the limit of {MAX_PASTE_CHARS:,} characters" in a for a in client.alerts), client.alerts
    _bounded(client.shown())


def test_a_message_over_the_widget_state_limit_is_refused_and_the_server_lives_on(server_url):
    session = Client(server_url)
    try:
        session.run()
        with pytest.raises(Exception):  # noqa: B017 - the server closes this session's websocket
            session.check(metrics="k" * (5 * 1024 * 1024))  # over server.maxWidgetStateSize (4 MB)
    finally:
        session.close()
    assert _health_ms(server_url) < 30_000


def test_a_feature_gates_link_with_3207_names_is_cut(client):
    names = ",".join(f"NoSuchGate{i}=true" for i in range(3_207))
    client.run(query="binary=1.36&feature_gates=" + quote(names))
    _bounded(client.shown())
    listed = [t for t in client.texts if "NoSuchGate" in t]
    assert listed and all(len(t.splitlines()) <= 21 for t in listed)
    assert any("… and 3,187 more" in t for t in listed), listed


def test_huge_echoes_are_cut(client):
    huge = "B" * 900_000  # under the paste limit
    client.check(metrics=f'kubernetes_build_info{{git_version="v1.36.0"}} 1\nkubernetes_feature_enabled{{name="X",stage="{huge}"}} 1\n')
    assert any("characters)" in t for t in client.shown()), client.shown()[:3]
    _bounded(client.shown())
    client.check(version=f'{{"gitVersion": "v1.36.0", "emulationMajor": "1", "emulationMinor": "{huge}"}}')
    _bounded(client.shown())
    client.check(cmdline=f"kube-apiserver --emulated-version=1.{huge}\n", version='{"gitVersion": "v1.36.0", "emulationMajor": "1", "emulationMinor": "34"}')
    _bounded(client.shown())


def test_two_hundred_errors_show_twenty_and_a_count(client):
    gates = ",".join(f"Unknown{i}=true" for i in range(200))
    client.check(cmdline=f"kube-apiserver --feature-gates={gates}\n", version='{"gitVersion": "v1.36.0"}')
    # the refusal: the binary's lines (at most 20), then a count
    [listed] = [a for a in client.alerts if "Unknown" in a]
    lines = [line for line in listed.splitlines() if "Unknown" in line or line.startswith("…")]
    assert len(lines) == 21 and lines[-1] == "… and 180 more"


def test_the_worst_inputs_of_each_kind_are_answered_and_health_stays_up(client, server_url):
    word = "--feature-gates=" + "a" * (MAX_PASTE_CHARS - 100)
    pod_args = "".join(f"    - --arg{i}=value{i}\n" for i in range(9_000))
    pod = (
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: kube-apiserver\nspec:\n  containers:\n  - name: kube-apiserver\n"
        "    image: registry.k8s.io/kube-apiserver:v1.36.0\n    command:\n    - kube-apiserver\n" + pod_args
    )
    samples = "".join(f'kubernetes_feature_enabled{{name="G{i}",stage="BETA"}} 1\n' for i in range(6_000))
    for inputs in ({"cmdline": "root 1 kube-apiserver " + word}, {"cmdline": pod},
                   {"metrics": 'kubernetes_build_info{git_version="v1.36.0"} 1\n' + samples}):
        client.check(**inputs)
        _bounded(client.shown())
        assert any(w in a for a in client.alerts for w in ("cannot be used", "gates", "No /metrics")), client.alerts[:3]
        assert _health_ms(server_url) < 30_000


def test_metrics_with_no_known_gate_is_nothing_to_compare_not_all_agree(client):
    client.check(metrics='kubernetes_build_info{git_version="v1.36.0"} 1\n'
                         'kubernetes_feature_enabled{name="NotAGate",stage="BETA"} 1\n')
    assert not any("agree" in a for a in client.alerts), client.alerts
    assert any("nothing to compare" in t for t in client.texts), client.texts


def test_metrics_names_cannot_style_or_reorder_the_page(client):
    client.check(
        metrics='kubernetes_build_info{git_version="v1.36.0"} 1\n'
        'kubernetes_feature_enabled{name="\x1b[31mX\u202eY\\nZ",stage="BETA"} 1\n'
        'kubernetes_feature_enabled{name="AllBeta",stage="BETA"} 0\n'
    )
    unknown = [t for t in client.texts if "X" in t]
    assert unknown and all(not UNSAFE_CHARACTERS.search(t) for t in unknown), unknown


# --- memory is bounded per session: what one session may keep in Streamlit's upload storage ---


@pytest.fixture(scope="module")
def open_server():
    """A server without the XSRF check on uploads (a script cannot follow the browser's cookie
    flow; the upload path is the same)."""
    from kcompat.cli.screenshots import start_server, stop_server

    proc, url = start_server({"STREAMLIT_SERVER_ENABLE_XSRF_PROTECTION": "false"})
    yield url
    stop_server(proc)


def _put_files(url: str, client: Client, files: list[tuple[str, bytes]]) -> list[int]:
    """Upload ``files`` to the page's file uploader as the browser does; the HTTP status of each."""
    import uuid
    from urllib.error import HTTPError

    widget = next(v for k, v in client.widgets.items() if k.startswith("file_uploader:"))
    request = BackMsg()
    request.file_urls_request.request_id = uuid.uuid4().hex
    request.file_urls_request.session_id = client.session_id
    request.file_urls_request.file_names.extend(name for name, _ in files)
    client.ws.send(request.SerializeToString())
    deadline = time.monotonic() + RUN_TIMEOUT
    while True:
        forward = ForwardMsg()
        forward.ParseFromString(client.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if forward.WhichOneof("type") == "file_urls_response":
            break
    statuses = []
    for (name, data), urls in zip(files, forward.file_urls_response.file_urls, strict=True):
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
                "Content-Type: text/plain\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
        target = url + urls.upload_url if urls.upload_url.startswith("/") else urls.upload_url
        put = urllib.request.Request(target, data=body, method="PUT",
                                     headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
        try:
            with urllib.request.urlopen(put, timeout=60) as response:
                statuses.append(response.status)
        except HTTPError as exc:
            statuses.append(exc.code)
        except urllib.error.URLError:  # refused before the body was sent whole
            statuses.append(0)
    assert widget
    return statuses


def test_one_session_cannot_hold_more_than_its_upload_budget(open_server):
    from dashboard.server.patches import MAX_SESSION_FILES, MAX_SESSION_UPLOAD_BYTES

    client = Client(open_server)
    try:
        client.run()
        small = [(f"f{i}.txt", b"kube-apiserver --emulated-version=1.34\n") for i in range(MAX_SESSION_FILES + 2)]
        statuses = _put_files(open_server, client, small)
        assert statuses[:MAX_SESSION_FILES] == [204] * MAX_SESSION_FILES and set(statuses[MAX_SESSION_FILES:]) == {413}
    finally:
        client.close()
    client = Client(open_server)
    try:
        client.run()
        size = 4 * 1024 * 1024 - 1000
        big = [(f"m{i}.txt", b"#" * size) for i in range(3)]
        statuses = _put_files(open_server, client, big)
        assert size * 2 <= MAX_SESSION_UPLOAD_BYTES < size * 3
        assert statuses[:2] == [204, 204] and statuses[2] in (0, 413), statuses
    finally:
        client.close()


# --- no starvation: a check waits for the requests asked before it, not for later ones -------


def test_a_victim_check_is_not_passed_by_later_requests_of_attacking_sessions(open_server):
    """Four sessions send maximum-size checks back to back while a fifth asks for a small one: the
    victim is answered after at most the requests asked before its own. (The lock's order itself,
    and the barging a plain lock allows, are tested in tests/cli/test_upload_worker.py.)"""
    import threading

    from kcompat.core.inspect.model import MAX_OBSERVED_GATES

    samples = "".join(f'kubernetes_feature_enabled{{name="Attack{i}",stage="BETA"}} 1\n' for i in range(MAX_OBSERVED_GATES))
    pod_args = "".join(f"    - --arg{i}=value{i}\n" for i in range(9_000))
    pod = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: kube-apiserver\nspec:\n  containers:\n  - name: kube-apiserver\n"
           "    image: registry.k8s.io/kube-apiserver:v1.36.0\n    command:\n    - kube-apiserver\n" + pod_args)
    finished: list[tuple[float, str]] = []
    lock = threading.Lock()
    attackers = [Client(open_server) for _ in range(4)]
    victim = Client(open_server)
    for client in (*attackers, victim):
        client.run()
    started = threading.Barrier(len(attackers) + 1)

    def attack(n: int, client: Client) -> None:
        started.wait()
        for round_ in range(3):  # each answer is followed at once by the next request
            client.check(cmdline=pod + f"# {n} {round_}\n", metrics='kubernetes_build_info{git_version="v1.36.0"} 1\n' + samples)
            with lock:
                finished.append((time.monotonic(), f"attacker {n} round {round_}"))

    threads = [threading.Thread(target=attack, args=(n, c), daemon=True) for n, c in enumerate(attackers)]
    for thread in threads:
        thread.start()
    started.wait()
    time.sleep(0.2)  # the attackers' first requests are on their way or queued
    victim.check(cmdline="kube-apiserver --emulated-version=1.34\n", version='{"gitVersion": "v1.36.0"}')
    with lock:
        finished.append((time.monotonic(), "victim"))
    for thread in threads:
        thread.join(RUN_TIMEOUT * 3)
    for client in (*attackers, victim):
        client.close()
    order = [who for _, who in sorted(finished)]
    ahead = order[: order.index("victim")]
    # first come, first served: at most each attacker's request asked before the victim's (one
    # each, possibly the second if the first was answered before the victim asked), never more
    assert len(ahead) <= 2 * len(attackers) and not any("round 2" in who for who in ahead), order
    assert victim.alerts  # answered (the prediction without /metrics)
