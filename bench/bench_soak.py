"""Soak benchmark: many sessions and maximum-size uploads against one server, while a probe
measures ``/_stcore/health`` latency (what a load balancer sees).

Starts the real server on 127.0.0.1 and drives sessions with Streamlit's own websocket protocol
(the BackMsg/ForwardMsg protobufs a browser sends; no browser, so 2 cores suffice):

1. one session uploads a maximum-size manifest alone: the CPU time of the server and of the
   upload worker processes it starts (dashboard/uploads/worker.py) for that upload;
2. ``--sessions`` sessions at once, each rerunning the Gates page ``--reruns`` times on varying
   selections (stopping at ``--max-seconds``), ``--uploads`` of them also uploading a different
   maximum-size manifest after their fifth rerun;
3. all sessions close; the server's RSS is sampled until it settles. ``--crowds N`` repeats 2-3
   N times (do later crowds reuse the memory the first one left behind?).

Prints RSS before/after, the worst and p99 health latency, and the upload CPU time, and exits 1
when a target is missed (worst health latency < 1 s, RSS back within 50 MB, upload <= 1 s CPU).

    python bench/bench_soak.py [--sessions 20] [--reruns 50] [--uploads 20]

The benchmark server uses ``server.disconnectedSessionTTL = 5`` (closed sessions are dropped
after 5 s instead of 120 s, so the RSS after closing is measured within the run) and no XSRF
check on uploads (a script cannot read the browser's cookie flow; the upload path is the same).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
import urllib.request
import uuid
from pathlib import Path

from kcompat.core.request import Request

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.sync.client import connect

from dashboard.server import MALLOC_ENV
from dashboard.uploads.custom_manifest import MAX_BYTES
from kcompat.cli.screenshots import start_server, stop_server
from kcompat.core.registration import MAX_GATES

SELECTIONS = [
    "binary=1.36&emulated=1.33", "binary=1.36&emulated=1.36", "binary=1.37&emulated=1.35",
    "binary=1.35&emulated=1.34", "binary=1.34&emulated=1.32", "binary=1.36&emulated=1.34&feature_gates=AllBeta%3Dtrue",
]
RUN_TIMEOUT = 120.0
#: The Deployment's memory limit (deploy/deployment.yaml): the server's peak RSS must stay under it.
MEMORY_LIMIT_MB = 768


# ---------------------------------------------------------------------------------------------
# The server process


def _proc_stat(pid: int) -> tuple[float, int]:
    """(CPU seconds used, RSS bytes) of a process, from /proc. The CPU time includes that of its
    finished children (the upload worker processes the server starts and waits for)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(f) for f in fields[11:15])  # utime + stime + cutime + cstime
    rss_pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    import os

    return ticks / os.sysconf("SC_CLK_TCK"), rss_pages * os.sysconf("SC_PAGE_SIZE")


class HealthProbe(threading.Thread):
    """GET /_stcore/health every 50 ms; records every latency."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url = url + "/_stcore/health"
        self.latencies: list[float] = []
        self.failures = 0
        self._halt = threading.Event()

    def run(self) -> None:
        while not self._halt.is_set():
            start = time.perf_counter()
            try:
                with urllib.request.urlopen(self.url, timeout=30) as resp:
                    resp.read()
            except OSError:
                self.failures += 1
            self.latencies.append(time.perf_counter() - start)
            self._halt.wait(0.05)

    def stop(self) -> None:
        self._halt.set()
        self.join(timeout=35)


# ---------------------------------------------------------------------------------------------
# One session, speaking Streamlit's websocket protocol


class Session:
    def __init__(self, base_url: str):
        self.base_url = base_url
        self.ws = connect(base_url.replace("http", "ws", 1) + "/_stcore/stream", subprotocols=["streamlit"],
                          max_size=None, open_timeout=30).__enter__()
        self.session_id = ""
        self.widgets: dict[str, str] = {}  # label or key fragment -> widget id
        self.query = ""
        self.alerts: list[str] = []  # alert texts of the last run
        self.fragments: dict[str, str] = {}  # widget id -> the fragment (dialog) drawing it

    def close(self) -> None:
        self.ws.close()

    def _send(self, msg: BackMsg) -> None:
        self.ws.send(msg.SerializeToString())

    def _receive_until(self, done) -> ForwardMsg:
        deadline = time.monotonic() + RUN_TIMEOUT
        while True:
            raw = self.ws.recv(timeout=max(0.1, deadline - time.monotonic()))
            msg = ForwardMsg()
            msg.ParseFromString(raw)
            kind = msg.WhichOneof("type")
            if kind == "new_session":
                self.session_id = msg.new_session.initialize.session_id or self.session_id
            elif kind == "delta":
                self._note_widget(msg)
            if done(msg, kind):
                return msg

    def _note_widget(self, msg: ForwardMsg) -> None:
        delta = msg.delta
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "alert":
            self.alerts.append(element.alert.body)
        if kind in ("button", "file_uploader", "text_area"):
            widget = getattr(element, kind)
            self.widgets[kind + ":" + widget.label] = widget.id
            self.fragments[widget.id] = delta.fragment_id

    def rerun(self, query: str | None = None, widget_states=(), fragment_id: str = "", page_name: str = "") -> None:
        """One script run; returns when the server says it finished."""
        if query is not None:
            self.query = query
        self.alerts = []
        msg = BackMsg()
        msg.rerun_script.query_string = self.query
        msg.rerun_script.page_script_hash = ""
        msg.rerun_script.page_name = page_name
        msg.rerun_script.fragment_id = fragment_id
        for state in widget_states:
            msg.rerun_script.widget_states.widgets.append(state)
        self._send(msg)

        while True:
            end = self._receive_until(lambda m, kind: kind == "script_finished")
            if end.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                return
            # st.rerun(): the next run follows by itself

    def upload(self, name: str, data: bytes) -> None:
        """What the browser does: open the dialog, ask for an upload URL, PUT the file, rerun
        with the uploader's state (the app stores it and reruns)."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        button = next(v for k, v in self.widgets.items() if k.startswith("button:Custom manifest"))
        click = WidgetState(id=button, trigger_value=True)
        self.rerun(widget_states=[click])
        uploader = next(v for k, v in self.widgets.items() if k.startswith("file_uploader:"))
        request = BackMsg()
        request.file_urls_request.request_id = uuid.uuid4().hex
        request.file_urls_request.session_id = self.session_id
        request.file_urls_request.file_names.append(name)
        self._send(request)
        response = self._receive_until(lambda m, kind: kind == "file_urls_response").file_urls_response
        urls = response.file_urls[0]
        boundary = uuid.uuid4().hex
        body = (
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
            "Content-Type: application/x-yaml\r\n\r\n"
        ).encode() + data + f"\r\n--{boundary}--\r\n".encode()
        put = urllib.request.Request(
            self.base_url + urls.upload_url if urls.upload_url.startswith("/") else urls.upload_url,
            data=body, method="PUT", headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
        )
        with urllib.request.urlopen(put, timeout=60) as resp:
            resp.read()
        state = WidgetState(id=uploader)
        info = state.file_uploader_state_value.uploaded_file_info.add()
        info.file_id, info.name, info.size = urls.file_id, name, len(data)
        info.file_urls.CopyFrom(urls)
        # a widget inside a dialog reruns the dialog's fragment; the app then reruns in full
        self.rerun(widget_states=[state], fragment_id=self.fragments.get(uploader, ""))
        if not any(a for a in self.alerts):
            self.rerun()
        if not any("uploaded manifest" in a for a in self.alerts):
            raise RuntimeError(f"the upload was not taken: {self.alerts[:3]}")


    def cluster_files(self, files: list[tuple[str, bytes]]):
        """Upload ``files`` to the Check a cluster page's uploader as the browser does; returns the
        uploader's widget state naming them (sent with the next check)."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        if not any(k.startswith("text_area:") for k in self.widgets):
            self.rerun(page_name="cluster")
        uploader = next(v for k, v in self.widgets.items() if k.startswith("file_uploader:"))
        request = BackMsg()
        request.file_urls_request.request_id = uuid.uuid4().hex
        request.file_urls_request.session_id = self.session_id
        request.file_urls_request.file_names.extend(name for name, _ in files)
        self._send(request)
        response = self._receive_until(lambda m, kind: kind == "file_urls_response").file_urls_response
        state = WidgetState(id=uploader)
        for (name, data), urls in zip(files, response.file_urls, strict=True):
            boundary = uuid.uuid4().hex
            body = (
                f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
                "Content-Type: text/plain\r\n\r\n"
            ).encode() + data + f"\r\n--{boundary}--\r\n".encode()
            put = urllib.request.Request(
                self.base_url + urls.upload_url if urls.upload_url.startswith("/") else urls.upload_url,
                data=body, method="PUT", headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
            )
            with urllib.request.urlopen(put, timeout=60) as resp:
                resp.read()
            info = state.file_uploader_state_value.uploaded_file_info.add()
            info.file_id, info.name, info.size = urls.file_id, name, len(data)
            info.file_urls.CopyFrom(urls)
        return state

    def cluster_check(self, cmdline: str, version: str, metrics: str, files=None) -> None:
        """The Check a cluster page: the three boxes filled (and ``files``, an uploader state from
        :meth:`cluster_files`) and Check pressed, in one message."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        if not any(k.startswith("text_area:") for k in self.widgets):
            self.rerun(page_name="cluster")
        states = [files] if files is not None else []
        for label, text in (("Command line", cmdline), ("/version", version), ("/metrics", metrics)):
            widget = next(v for k, v in self.widgets.items() if k.startswith(f"text_area:{label}"))
            states.append(WidgetState(id=widget, string_value=text))
        states.append(WidgetState(id=self.widgets["button:Check"], trigger_value=True))
        self.rerun(widget_states=states, page_name="cluster")
        if not self.alerts:
            raise RuntimeError("the check showed nothing")


# ---------------------------------------------------------------------------------------------
# The maximum-size inputs


def max_metrics_file(tag: str, size: int) -> bytes:
    """A /metrics file of ``size`` bytes: the real prediction's samples, then other metrics."""
    from kcompat.answers.gates import gate_evaluation
    from kcompat.core.inspect import predicted_on_metrics
    from kcompat.data.catalog import DEFAULT_CATALOG

    predicted = predicted_on_metrics(gate_evaluation(DEFAULT_CATALOG, Request("v1.36.0", "1.34", None, None)))
    lines = [f"# {tag}", 'kubernetes_build_info{git_version="v1.36.0"} 1']
    lines += [f'kubernetes_feature_enabled{{name="{g.name}",stage="{g.stage.label}"}} {int(g.enabled)}' for g in predicted.values()]
    text = "\n".join(lines) + "\n"
    pad = 'apiserver_request_total{code="200",component="apiserver",group="",resource="pods",verb="LIST",version="v1"} 12345\n'
    text += pad * ((size - len(text)) // len(pad))
    return text.encode()


def max_cluster_inputs(tag: str) -> tuple[str, str, str]:
    """The Check a cluster page's boxes at their limits: a static pod manifest at the YAML limit
    (9,000 args), a /version, and a /metrics pasted at the paste limit (the real prediction's
    samples, unknown gates up to the sample limit, other metrics as padding)."""
    from kcompat.answers.gates import gate_evaluation
    from kcompat.core.inspect import predicted_on_metrics
    from kcompat.core.inspect.model import (
        MAX_OBSERVED_GATES,
        MAX_PASTE_CHARS,
        MAX_YAML_BYTES,
    )
    from kcompat.data.catalog import DEFAULT_CATALOG

    head = (
        f"# Soak{tag}\napiVersion: v1\nkind: Pod\nmetadata:\n  name: kube-apiserver\nspec:\n  containers:\n"
        "  - name: kube-apiserver\n    image: registry.k8s.io/kube-apiserver:v1.36.0\n    command:\n    - kube-apiserver\n"
        "    - --emulated-version=1.34\n"
    )
    args, i = [], 0
    while len(head) + sum(map(len, args)) < MAX_YAML_BYTES - 64:
        args.append(f"    - --arg{i}=value{i}\n")
        i += 1
    pod = head + "".join(args)
    version = '{"major": "1", "minor": "36", "gitVersion": "v1.36.0", "emulationMajor": "1", "emulationMinor": "34"}'
    predicted = predicted_on_metrics(gate_evaluation(DEFAULT_CATALOG, Request("v1.36.0", "1.34", None, None)))
    lines = ['kubernetes_build_info{git_version="v1.36.0"} 1']
    lines += [f'kubernetes_feature_enabled{{name="{g.name}",stage="{g.stage.label}"}} {int(g.enabled)}' for g in predicted.values()]
    lines += [f'kubernetes_feature_enabled{{name="Soak{tag}{n}",stage="BETA"}} 1' for n in range(MAX_OBSERVED_GATES - len(predicted))]
    text = "\n".join(lines) + "\n"
    pad = 'apiserver_request_total{code="200",component="apiserver",group="",resource="pods",verb="LIST",version="v1"} 12345\n'
    text += pad * ((MAX_PASTE_CHARS - len(text)) // len(pad))
    return pod, version, text


def _cluster_worker(url: str, index: int, checks: int, inputs: tuple[str, str, str], metrics_file: bytes | None,
                    errors: list, durations: list, deadline: float) -> None:
    try:
        session = Session(url)
        try:
            # two /metrics files as large as the check allows, uploaded once and kept for the session
            # (as a browser does): with the pastes, every check reads MAX_CHECK_BYTES
            files = session.cluster_files([(f"metrics-{index}-{n}.txt", metrics_file) for n in range(2)]) if metrics_file else None
            for i in range(checks):
                if time.monotonic() > deadline:
                    break
                # a different input each time (no session reuses an answer); built before the crowd
                # came, so this process spends its CPU on sending, not on making inputs
                tag = f"S{index:03}x{i:03}"  # as long as "SoakBASE": the inputs stay at their limits
                pod, version, metrics = (text.replace("SoakBASE", tag) for text in inputs)
                start = time.perf_counter()
                session.cluster_check(pod, version, metrics, files)
                durations.append(time.perf_counter() - start)
                if not any("gates" in a for a in session.alerts):
                    raise RuntimeError(f"unexpected answer: {session.alerts[:2]}")
        finally:
            session.close()
    except Exception as exc:  # noqa: BLE001 - reported at the end
        errors.append(f"session {index}: {type(exc).__name__}: {exc}")


# ---------------------------------------------------------------------------------------------
# The maximum-size manifest


def max_manifest(tag: str) -> bytes:
    """A valid manifest at the limits: MAX_GATES gates with 4 specs each and a dependency chain
    every 10 gates, padded with comments to just under the upload limit."""
    specs = (
        '  - {version: "1.30", default: false, lockToDefault: false, preRelease: Alpha}\n'
        '  - {version: "1.31", default: true, lockToDefault: false, preRelease: Beta}\n'
        '  - {version: "1.33", default: true, lockToDefault: true, preRelease: GA}\n'
        '  - {version: "1.36", default: true, lockToDefault: true, preRelease: Deprecated}\n'
    )
    parts = [f"# soak upload {tag}\n"]
    for i in range(MAX_GATES):
        dep = f"  dependencies: [Soak{tag}{i + 1:04}]\n" if i % 10 != 9 else ""
        parts.append(f"- name: Soak{tag}{i:04}\n{dep}  versionedSpecs:\n{specs}")
    text = "".join(parts)
    pad = MAX_BYTES - 64 - len(text.encode())
    line = "# " + "padding " * 12 + "\n"
    text += line * (pad // len(line))
    return text.encode()


# ---------------------------------------------------------------------------------------------


def _worker(url: str, index: int, reruns: int, upload: bytes | None, errors: list, durations: list, deadline: float) -> None:
    try:
        session = Session(url)
        try:
            session.rerun(SELECTIONS[index % len(SELECTIONS)])
            for i in range(reruns):
                if upload is not None and i == min(reruns // 2, 5):
                    session.upload(f"soak-{index}.yaml", upload)
                if time.monotonic() > deadline:
                    break
                start = time.perf_counter()
                session.rerun(SELECTIONS[(index + i) % len(SELECTIONS)])
                durations.append(time.perf_counter() - start)
        finally:
            session.close()
    except Exception as exc:  # noqa: BLE001 - reported at the end
        errors.append(f"session {index}: {type(exc).__name__}: {exc}")


def _sample_rss(pid: int, threads: list[threading.Thread], peaks: list[int]) -> None:
    """The server's RSS every 0.2 s while the crowd is there (its peak, not only its end)."""
    while any(t.is_alive() for t in threads) or not any(t.ident for t in threads):
        peaks.append(_proc_stat(pid)[1])
        time.sleep(0.2)


def main() -> int:  # noqa: C901 - the options of the run, read in one place
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--reruns", type=int, default=50)
    parser.add_argument("--uploads", type=int, default=20)
    parser.add_argument("--crowds", type=int, default=1,
                        help="how many crowds come and go one after the other (default 1)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument("--post-script-gc", choices=("config", "true", "false"), default="config",
                        help="runner.postScriptGC for the server (default: as .streamlit/config.toml says)")
    parser.add_argument("--max-seconds", type=float, default=240, help="sessions stop rerunning after this long (default 240)")
    parser.add_argument("--cluster-checks", type=int, default=0,
                        help="instead of Gates reruns and uploads, each session runs this many Check a cluster checks of "
                             "maximum-size inputs (the upload-alone step is kept)")
    parser.add_argument("--malloc-env", action=argparse.BooleanOptionalAction, default=True,
                        help="start the server with the shipped malloc settings (dashboard.server.MALLOC_ENV; default: yes)")
    parser.add_argument("--cluster-files", action=argparse.BooleanOptionalAction, default=True,
                        help="with --cluster-checks, each session also uploads two maximum-size /metrics files once "
                             "and every check reads them (default: yes)")
    args = parser.parse_args()

    env = {"STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL": "5", "STREAMLIT_SERVER_ENABLE_XSRF_PROTECTION": "false"}
    if args.malloc_env:
        env.update(MALLOC_ENV)  # as the Dockerfile and scripts/serve.sh start the server
    if args.post_script_gc != "config":
        env["STREAMLIT_RUNNER_POST_SCRIPT_GC"] = args.post_script_gc
    proc, url = start_server(env)
    probe = HealthProbe(url)
    figures: dict[str, object] = {}
    try:
        warm = Session(url)  # load the catalog and the first views, as any first visitor does
        for query in SELECTIONS:
            warm.rerun(query)
        warm.close()
        time.sleep(1)
        _, rss_before = _proc_stat(proc.pid)
        probe.start()

        # 1. one maximum-size upload, alone
        upload_one = max_manifest("A")
        single = Session(url)
        single.rerun(SELECTIONS[0])
        cpu0, _ = _proc_stat(proc.pid)
        t0 = time.perf_counter()
        single.upload("soak-alone.yaml", upload_one)
        figures["upload_cpu_s"] = round(_proc_stat(proc.pid)[0] - cpu0, 3)
        figures["upload_wall_s"] = round(time.perf_counter() - t0, 3)
        figures["upload_bytes"] = len(upload_one)
        single.close()
        print(f"one upload alone: {figures['upload_cpu_s']} s CPU (server and its upload workers); now {args.sessions} sessions...", flush=True)

        # 2. the crowd, and 3. it leaves; --crowds repeats both, to see whether later crowds reuse
        # the memory the first one left with the allocator
        errors: list[str] = []
        durations: list[float] = []
        rss_after_crowds: list[float] = []
        rss_peak_after = rss_after = rss_before
        t_all = time.perf_counter()
        for crowd in range(args.crowds):
            uploads = [
                max_manifest(chr(ord("B") + i % 20) + str(i) + "c" + str(crowd)) if i < args.uploads else None
                for i in range(args.sessions)
            ]
            cluster_inputs = max_cluster_inputs("BASE") if args.cluster_checks else None
            metrics_file = None
            if args.cluster_checks and args.cluster_files:
                from kcompat.core.inspect.model import MAX_CHECK_BYTES, MAX_UPLOAD_BYTES

                size = min(MAX_UPLOAD_BYTES - 1024, (MAX_CHECK_BYTES - sum(map(len, cluster_inputs)) - 4096) // 2)
                metrics_file = max_metrics_file("soak", size)
            deadline = time.monotonic() + args.max_seconds
            threads = [
                threading.Thread(target=_cluster_worker,
                                 args=(url, i, args.cluster_checks, cluster_inputs, metrics_file, errors, durations, deadline))
                if args.cluster_checks else
                threading.Thread(target=_worker, args=(url, i, args.reruns, uploads[i], errors, durations, deadline))
                for i in range(args.sessions)
            ]
            peaks: list[int] = []
            sampler = threading.Thread(target=_sample_rss, args=(proc.pid, threads, peaks), daemon=True)
            sampler.start()
            t0 = time.perf_counter()
            for t in threads:
                t.start()
            while any(t.is_alive() for t in threads):
                next(t for t in threads if t.is_alive()).join(timeout=15)
                print(f"  crowd {crowd + 1}, {time.perf_counter() - t0:5.0f} s: {len(durations)} reruns done, "
                      f"worst health so far {max(probe.latencies, default=0) * 1000:.0f} ms", flush=True)
            sampler.join()
            rss_peak_after = max([rss_peak_after, _proc_stat(proc.pid)[1], *peaks])

            # sessions closed: past their TTL (5 s) they are dropped; one more visitor comes and goes
            # (Streamlit expires stored sessions when another one disconnects), then the RSS settles
            time.sleep(6)
            visitor = Session(url)
            visitor.rerun(SELECTIONS[0])
            visitor.close()
            settle_until = time.monotonic() + 30
            while time.monotonic() < settle_until:
                time.sleep(2)
                _, rss_after = _proc_stat(proc.pid)
                if rss_after - rss_before < 50 * 2**20:
                    break
            rss_after_crowds.append(round(rss_after / 2**20, 1))
            print(f"  crowd {crowd + 1} gone: RSS {rss_after_crowds[-1]} MB", flush=True)
        figures["reruns_done"] = len(durations)
        figures["crowd_wall_s"] = round(time.perf_counter() - t_all, 1)
        probe.stop()

        lat = sorted(probe.latencies)
        figures.update(
            sessions=args.sessions, reruns=args.reruns, uploads=args.uploads,
            rerun_p50_ms=round(statistics.median(durations) * 1000) if durations else None,
            rerun_max_ms=round(max(durations) * 1000) if durations else None,
            health_probes=len(lat), health_failures=probe.failures,
            health_worst_ms=round(lat[-1] * 1000, 1) if lat else None,
            health_p99_ms=round(lat[int(len(lat) * 0.99) - 1] * 1000, 1) if lat else None,
            rss_before_mb=round(rss_before / 2**20, 1), rss_with_sessions_mb=round(rss_peak_after / 2**20, 1),
            rss_after_close_mb=round(rss_after / 2**20, 1), rss_after_each_crowd_mb=rss_after_crowds,
            crowds=args.crowds, errors=errors[:5], cluster_checks=args.cluster_checks,
        )
    finally:
        if probe.is_alive():
            probe.stop()
        stop_server(proc)

    print(f"server RSS: {figures['rss_before_mb']} MB before, {figures['rss_with_sessions_mb']} MB with sessions, "
          f"{figures['rss_after_close_mb']} MB after they closed"
          + (f" (after each crowd: {', '.join(map(str, figures['rss_after_each_crowd_mb']))} MB)" if args.crowds > 1 else ""))
    print(f"/_stcore/health: worst {figures['health_worst_ms']} ms, p99 {figures['health_p99_ms']} ms "
          f"over {figures['health_probes']} probes ({figures['health_failures']} failed)")
    print(f"one maximum-size upload ({figures['upload_bytes']:,} bytes): {figures['upload_cpu_s']} s CPU (server and its upload workers), "
          f"{figures['upload_wall_s']} s wall")
    what = f"{args.cluster_checks} maximum-size cluster checks" if args.cluster_checks else f"{args.reruns} reruns + {args.uploads} uploads"
    print(f"{args.crowds} x {args.sessions} sessions x {what}: {figures['reruns_done']} runs "
          f"in {figures['crowd_wall_s']} s; "
          f"rerun p50 {figures['rerun_p50_ms']} ms, max {figures['rerun_max_ms']} ms")
    if figures["errors"]:
        print("errors:", *figures["errors"], sep="\n  ")
    if args.json:
        print(json.dumps(figures))
    ok = (
        not figures["errors"]
        and figures["health_worst_ms"] is not None and figures["health_worst_ms"] < 1000
        and figures["rss_after_close_mb"] - figures["rss_before_mb"] < 50
        and figures["upload_cpu_s"] <= 1.0
        and figures["rss_with_sessions_mb"] < MEMORY_LIMIT_MB
    )
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
