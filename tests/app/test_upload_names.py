"""An upload whose name the page does not take (``evil.exe``, ``Makefile``), sent the way a
websocket client can and a browser's file picker would not: the page says what it takes and reads
nothing; the server logs no traceback and keeps serving. A real server, Streamlit's own protocol
(as tests/e2e/test_cluster_websocket.py speaks it)."""

from __future__ import annotations

import re
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.Common_pb2 import UploadedFileInfo
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.sync.client import connect

RUN_TIMEOUT = 60.0
MANIFEST = b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n"


@pytest.fixture(scope="module")
def server():
    """A server without the XSRF check on uploads (a script cannot follow the browser's cookie flow)."""
    from kcompat.cli.screenshots import start_server, stop_server

    proc, url = start_server({"STREAMLIT_SERVER_ENABLE_XSRF_PROTECTION": "false"})
    yield proc, url
    stop_server(proc)


class Client:
    def __init__(self, url: str, page: str) -> None:
        self.url = url
        self.page = page
        self.ws = connect(url.replace("http", "ws", 1) + "/_stcore/stream", subprotocols=["streamlit"], max_size=None,
                          open_timeout=30).__enter__()
        self.session_id = ""
        self.widgets: dict[str, str] = {}
        self.alerts: list[str] = []
        self.exceptions: list[str] = []

    def run(self, states=()) -> None:
        msg = BackMsg()
        msg.rerun_script.page_name = self.page
        msg.rerun_script.widget_states.widgets.extend(states)
        self.alerts, self.exceptions = [], []
        self.ws.send(msg.SerializeToString())
        deadline = time.monotonic() + RUN_TIMEOUT
        while True:
            forward = ForwardMsg()
            forward.ParseFromString(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            kind = forward.WhichOneof("type")
            if kind == "new_session":
                self.session_id = forward.new_session.initialize.session_id or self.session_id
            if kind == "delta" and forward.delta.WhichOneof("type") == "new_element":
                element = forward.delta.new_element
                which = element.WhichOneof("type")
                if which == "alert":
                    self.alerts.append(re.sub(r"\\(.)", r"\1", element.alert.body))
                elif which == "exception":
                    self.exceptions.append(f"{element.exception.type}: {element.exception.message}")
                elif which in ("button", "file_uploader"):
                    widget = getattr(element, which)
                    self.widgets[f"{which}:{widget.label}"] = widget.id
            if kind == "script_finished" and forward.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                return

    def upload(self, name: str, data: bytes) -> UploadedFileInfo:
        """Put one file in the session's upload storage as the browser does; its info for the widget."""
        request = BackMsg()
        request.file_urls_request.request_id = uuid.uuid4().hex
        request.file_urls_request.session_id = self.session_id
        request.file_urls_request.file_names.append(name)
        self.ws.send(request.SerializeToString())
        deadline = time.monotonic() + RUN_TIMEOUT
        while True:
            forward = ForwardMsg()
            forward.ParseFromString(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            if forward.WhichOneof("type") == "file_urls_response":
                break
        urls = forward.file_urls_response.file_urls[0]
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
                "Content-Type: application/octet-stream\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
        target = self.url + urls.upload_url if urls.upload_url.startswith("/") else urls.upload_url
        put = urllib.request.Request(target, data=body, method="PUT", headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
        with urllib.request.urlopen(put, timeout=60) as response:
            assert response.status == 204
        info = UploadedFileInfo(file_id=urls.file_id, name=name, size=len(data))
        info.file_urls.CopyFrom(urls)
        return info

    def close(self) -> None:
        self.ws.close()


def _log(proc) -> str:
    return Path(proc.log_path).read_text(errors="replace")


@pytest.mark.parametrize("name", ["evil.exe", "Makefile", "notes.yaml.exe", "\x1b]0;title\x07.exe"])
def test_the_check_manifests_page_refuses_an_upload_by_name(server, name):
    proc, url = server
    logged = len(_log(proc))
    client = Client(url, "manifests")
    try:
        client.run()
        uploader = next(v for k, v in client.widgets.items() if k.startswith("file_uploader:"))
        check = client.widgets["button:Check"]
        good = client.upload("ok.yaml", MANIFEST)
        bad = client.upload(name, MANIFEST)
        state = WidgetState(id=uploader)
        state.file_uploader_state_value.uploaded_file_info.extend([good, bad])
        client.run([state, WidgetState(id=check, trigger_value=True)])
    finally:
        client.close()
    assert client.exceptions == []
    refusals = [a for a in client.alerts if "not a .yaml, .yml or .json file" in a]
    assert len(refusals) == 1 and "\x1b" not in refusals[0] and "\x07" not in refusals[0], client.alerts
    assert "nothing of it was read" in refusals[0]
    log = _log(proc)[logged:]
    assert "Traceback" not in log and "StreamlitAPIException" not in log, log


def test_the_custom_manifest_dialog_refuses_an_upload_by_name(server):
    proc, url = server
    logged = len(_log(proc))
    client = Client(url, "gates")
    try:
        client.run()
        opened = WidgetState(id=client.widgets["button:Custom manifest…"], trigger_value=True)
        client.run([opened])  # the dialog opens
        uploader = next(v for k, v in client.widgets.items() if k.startswith("file_uploader:"))
        state = WidgetState(id=uploader)
        state.file_uploader_state_value.uploaded_file_info.append(client.upload("Makefile", b"all:\n\techo owned\n"))
        client.run([opened, state])  # the dialog with the file in its uploader
    finally:
        client.close()
    assert client.exceptions == []
    assert any("Makefile is not a .yaml or .yml file" in a for a in client.alerts), client.alerts
    log = _log(proc)[logged:]
    assert "Traceback" not in log and "StreamlitAPIException" not in log, log
