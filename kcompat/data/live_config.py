"""The kubeconfig, its contexts and their credentials for ``kcompat inspect --live`` and ``scan
--live``, by the official Kubernetes Python client (``kubernetes.config``): its
``KubeConfigMerger`` merges the files, its ``KubeConfigLoader`` picks the context and loads the
credentials (``token``, ``tokenFile``, ``username``/``password``, client certificates, ``exec``
plugins by its ``ExecProvider``: the client.authentication.k8s.io ``ExecCredential`` protocol,
``KUBERNETES_EXEC_INFO``, ``provideClusterInfo``), its ``Configuration`` the proxy (``proxy-url``,
else ``HTTPS_PROXY`` / ``HTTP_PROXY`` / ``NO_PROXY``).

Imported only when --live is used (:mod:`kcompat.data.live` imports it in a function): the client
takes about 350 ms to import. What kcompat adds around it:

* each kubeconfig file is read by kcompat's bounded safe YAML reader (up to 4 MB, no tags, anchors
  or aliases, duplicate keys refused) before the client merges it; the first ``current-context``
  wins, as kubectl has it (the client takes the last);
* every file a credential names is read here first within the same limit (a FIFO, a device, a huge
  file is refused before the client opens it), and each credential is kept in
  :mod:`kcompat.data.secrets`;
* an ``exec`` entry is handed to the client (in kcompat's copy of the kubeconfig) with
  :mod:`kcompat.data.exec_bounds` as its command and the plugin after ``--``: the client's
  ``ExecProvider`` speaks the protocol, and the wrapper runs the plugin by
  :func:`kcompat.data.children.run_bounded` (stdout up to 1 MB, within 60 s, its stderr drained
  with its last 64 kB kept, stopped with its process group on a signal or when kcompat is gone),
  never interactively, and reports how it ended in a file of a private folder; the client loads
  the credential in a thread of its own while this one says what it awaits, and its
  ``logging.error`` records of that thread are kept by a filter and a handler of the root logger
  (the public logging API) for the message, never shown;
* the client's errors become one-line :class:`kcompat.data.live.LiveError` messages naming the
  field (a client message is never shown: it may carry a credential).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from kubernetes.client import Configuration
from kubernetes.client.rest import should_bypass_proxies
from kubernetes.config import kube_config
from kubernetes.config.config_exception import ConfigException
from kubernetes.config.kube_config import ConfigNode, KubeConfigLoader, KubeConfigMerger

from kcompat.core.errors import cut, echo

from . import secrets
from .children import PROGRESS_EVERY, STOP_GRACE
from .exec_bounds import EXEC_TIMEOUT, MAX_EXEC_BYTES, MAX_EXEC_STDERR_BYTES
from .live_errors import EXEC_API_VERSIONS, MAX_KUBECONFIG_BYTES, LiveError, Progress


def read_document(path: Path) -> dict[str, Any]:
    """One kubeconfig file, read within the limit by the safe YAML reader and checked in shape."""
    from kcompat.core.safe_yaml import read_yaml_text

    from .files import read_regular_file

    source = cut(str(path), 200)
    data = read_regular_file(path, MAX_KUBECONFIG_BYTES, f"kubeconfig {source}")
    if len(data) > MAX_KUBECONFIG_BYTES:
        raise LiveError(f"kubeconfig {source}: larger than the limit of {MAX_KUBECONFIG_BYTES:,} bytes")
    document = read_yaml_text(data, f"kubeconfig {source}", MAX_KUBECONFIG_BYTES) if data.strip() else {}
    if document is None:
        document = {}
    if not isinstance(document, dict):
        raise LiveError(f"kubeconfig {source}: expected a mapping (apiVersion: v1, kind: Config), got {type(document).__name__}")
    for key, inner in (("clusters", "cluster"), ("users", "user"), ("contexts", "context")):
        items = document.get(key) or []
        if not isinstance(items, list):
            raise LiveError(f"kubeconfig {source}: {key} is not a list")
        for i, item in enumerate(items):
            if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                raise LiveError(f"kubeconfig {source}: {key}[{i}] has no name")
            if item.get(inner) is None:
                item[inner] = {}
            if not isinstance(item[inner], dict):
                raise LiveError(f"kubeconfig {source}: {key}[{i}] ({echo(item['name'])}): {inner} is not a mapping")
    return document


class Merger(KubeConfigMerger):
    """The client's merger (the first file to name a cluster, user or context wins), each file read
    by :func:`read_document`; the first ``current-context`` wins, as kubectl has it."""

    def __init__(self) -> None:
        super().__init__("")

    def load_config(self, path: str) -> None:
        document = read_document(Path(path))
        if self.config_merged is None:
            merged = {k: v for k, v in document.items() if k not in ("clusters", "contexts", "users", "current-context")}
            merged.update(clusters=[], contexts=[], users=[])
            self.config_merged = ConfigNode(path, merged, path)
        for item in ("clusters", "contexts", "users"):
            self._merge(item, document.get(item) or [], path)
        current = document.get("current-context")
        if isinstance(current, str) and current and not self.config_merged.value.get("current-context"):
            self.config_merged.value["current-context"] = current
        self.paths.append(path)
        self.config_files[path] = document


def merge(paths: list[str]) -> ConfigNode | None:
    """The merged kubeconfig of ``paths`` (None when there is none)."""
    merger = Merger()
    for path in paths:
        merger.load_config(path)
    config: ConfigNode | None = merger.config
    return config


def entries(config: ConfigNode, key: str, inner: str) -> dict[str, tuple[dict[str, Any], Path]]:
    """The named ``inner`` mappings of ``key`` ("clusters", "cluster"), each with the folder of
    its file (relative paths in it are relative to that folder)."""
    found: dict[str, tuple[dict[str, Any], Path]] = {}
    for item in config.value.get(key) or []:
        value = item.value if isinstance(item, ConfigNode) else item
        path = item.path if isinstance(item, ConfigNode) else config.path
        found.setdefault(value["name"], (value[inner], Path(os.path.abspath(os.path.dirname(path)))))
    return found


# ---------------------------------------------------------------------------------------------
# Exec plugins: the client's ExecProvider starts kcompat.data.exec_bounds, which runs the plugin
# within kcompat's limits.


class PluginRun:
    """One run of ``user``'s exec plugin by :mod:`kcompat.data.exec_bounds`, and what became of it:
    the wrapper's report and the errors the client logged."""

    def __init__(self, user: str, command: str, program: str, api_version: str) -> None:
        self.user, self.command, self.program, self.api_version = user, command, program, api_version
        self.ran = False
        self.status = 0
        self.stopped = ""
        self.error = ""
        self.err = ""
        self.logged: list[str] = []

    def entry(self, spec: dict[str, Any], report: str) -> dict[str, Any]:
        """``spec`` (the kubeconfig's ``exec``) with the wrapper as its command, the plugin and its
        arguments after ``--``; ``env``, ``apiVersion``, ``provideClusterInfo`` and
        ``interactiveMode`` kept."""
        args = [str(arg) for arg in spec.get("args") or []]
        cwd: list[str] = []
        with contextlib.suppress(OSError):  # the plugin runs where kcompat runs, as kubectl has it (the client: the kubeconfig's folder)
            cwd = ["--cwd", os.getcwd()]
        return {**spec, "command": sys.executable,
                "args": ["-P", "-m", "kcompat.data.exec_bounds", "--report", report, *cwd, "--", os.path.abspath(self.program), *args]}

    def read_report(self, path: str) -> None:
        """What the wrapper wrote of the run (nothing when it did not start the plugin)."""
        with contextlib.suppress(OSError, ValueError, RecursionError):
            with open(path, encoding="utf-8") as file:
                report = json.loads(file.read(MAX_EXEC_STDERR_BYTES * 8))
            if isinstance(report, dict):
                self.ran = True
                status, stopped, error, err = (report.get(key) for key in ("status", "stopped", "error", "stderr"))
                self.status = status if isinstance(status, int) else 0
                self.stopped = stopped if isinstance(stopped, str) else ""
                self.error = error if isinstance(error, str) else ""
                self.err = err if isinstance(err, str) else ""

    def problem(self) -> str | None:
        """The one-line message of a run that gave no credential (None when it gave one)."""
        said = self.err.strip().splitlines()
        last = f": {echo(said[-1], 500)}" if said else ""
        who = f"user {echo(self.user)}: exec plugin {echo(self.command)}"
        if self.error:
            return f"{who} could not be run: {echo(self.error, 200)}"
        if self.stopped:
            return f"{who} {self.stopped}; stopped{last}"
        if self.status != 0:
            return f"{who} failed (exit status {self.status}){last}"
        if not self.logged:
            return None
        logged = self.logged[-1]
        if "failed to decode process output" in logged:
            return f"{who} did not print an ExecCredential (not JSON)"
        if "malformed response" in logged or "does not match" in logged:
            return f"{who} did not print an ExecCredential of {self.api_version}"
        if "missing clientKeyData" in logged:
            return f"{who} gave a client certificate without its key, or a key without its certificate"
        if "missing token or clientCertificateData" in logged:
            return f"{who} gave neither a token nor a client certificate"
        return f"{who} did not print an ExecCredential kcompat can read"


class _ClientLog(logging.Handler):
    """The client's exec errors (``logging.error`` of the root logger) of one thread, kept here:
    as the root logger's filter it keeps that thread's records from every handler (the terminal),
    and as the root logger's handler it keeps ``logging.error`` from calling ``basicConfig``."""

    def __init__(self) -> None:
        super().__init__()
        self.thread: int | None = None
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Records of other threads go on to the other handlers; this one keeps none."""

    def keep(self, record: logging.LogRecord) -> bool:
        if record.thread != self.thread:
            return True
        with contextlib.suppress(Exception):  # a message that cannot be formatted is still dropped
            self.messages.append(record.getMessage())
        return False


def _with_exec(config: ConfigNode, user_name: str, spec: dict[str, Any]) -> ConfigNode:
    """A copy of ``config`` (its lists and the user's mappings; the rest shared) whose user
    ``user_name`` has ``spec`` as its ``exec``."""
    users: list[Any] = []
    done = False
    for item in config.value.get("users") or []:
        value = item.value if isinstance(item, ConfigNode) else item
        if not done and isinstance(value, dict) and value.get("name") == user_name:
            done = True
            value = {**value, "user": {**value["user"], "exec": spec}}
            item = ConfigNode(item.name, value, item.path) if isinstance(item, ConfigNode) else value
        users.append(item)
    return ConfigNode(config.name, {**config.value, "users": users}, config.path)


def _keep_credentials(configuration: Configuration) -> None:
    """The token and the client key the plugin gave the client, kept as secrets."""
    value = configuration.api_key.get("BearerToken") if isinstance(configuration.api_key, dict) else None
    if isinstance(value, str):
        secrets.keep(value)
        secrets.keep(value.partition(" ")[2])
    for path in (configuration.key_file, configuration.cert_file):
        if isinstance(path, str) and path:
            with contextlib.suppress(OSError), open(path, "rb") as file:
                secrets.keep(file.read(MAX_EXEC_BYTES + 1))


def _load_with_plugin(loader: KubeConfigLoader, configuration: Configuration, run: PluginRun, report: str,
                      progress: Progress | None) -> None:
    """``loader.load_and_set(configuration)`` in a thread of its own, its exec errors kept in
    ``run.logged`` and the wrapper's ``report`` read into ``run``, while this thread says every
    :data:`PROGRESS_EVERY` seconds what it awaits. The worker removes the root logger's filter and
    handler when the client is done, so a caller stopped early (Ctrl-C, a dashboard rerun) still
    keeps the client's later errors off the terminal."""
    log = _ClientLog()
    root = logging.getLogger()
    done = threading.Event()
    failed: list[BaseException] = []

    def load() -> None:
        log.thread = threading.get_ident()
        try:
            loader.load_and_set(configuration)
        except BaseException as exc:  # noqa: BLE001 - raised again in the calling thread
            failed.append(exc)
        finally:  # here, not in the calling thread: a caller stopped early leaves the client's errors kept
            root.removeHandler(log)
            root.removeFilter(log.keep)
            done.set()

    root.addFilter(log.keep)
    root.addHandler(log)
    worker = threading.Thread(target=load, name=f"kcompat exec plugin {os.path.basename(run.command)}", daemon=True)
    started = time.monotonic()
    try:
        worker.start()
    except BaseException:
        root.removeHandler(log)
        root.removeFilter(log.keep)
        raise
    # the wrapper stops the plugin within EXEC_TIMEOUT; this is for a wrapper that could not stop
    deadline = started + EXEC_TIMEOUT + 2 * STOP_GRACE + 10
    while not done.wait(max(0.0, min(PROGRESS_EVERY, deadline - time.monotonic()))):
        now = time.monotonic()
        if now >= deadline:
            raise LiveError(f"user {echo(run.user)}: exec plugin {echo(run.command)} did not finish within {EXEC_TIMEOUT:g} s")
        if progress is not None:
            progress(f"still waiting for the exec credential plugin {os.path.basename(run.command)} "
                     f"({now - started:.0f} s of at most {EXEC_TIMEOUT:g} s)")
    run.logged = log.messages
    run.read_report(report)
    if failed:
        raise failed[0]


def check_exec(user_name: str, spec: object, folder: Path) -> tuple[str, str, str]:
    """(command, the program found, apiVersion) of an ``exec`` entry; what kubectl refuses (or the
    client cannot run) named in one line."""
    if not isinstance(spec, dict):
        raise LiveError(f"user {echo(user_name)}: exec is not a mapping")
    api_version, command = spec.get("apiVersion"), spec.get("command")
    if api_version not in EXEC_API_VERSIONS:
        raise LiveError(f"user {echo(user_name)}: exec apiVersion {echo(api_version)} is not supported "
                        f"(kubectl supports {' and '.join(EXEC_API_VERSIONS)})")
    if not isinstance(command, str) or not command:
        raise LiveError(f"user {echo(user_name)}: exec has no command")
    if spec.get("interactiveMode") == "Always":
        raise LiveError(f"user {echo(user_name)}: the exec plugin {echo(command)} needs a terminal (interactiveMode: Always); "
                        "kcompat runs it without one: get a credential first (e.g. a token) or use a plugin that can run non-interactively")
    if not isinstance(spec.get("args") or [], list):
        raise LiveError(f"user {echo(user_name)}: exec args is not a list")
    for i, item in enumerate(spec.get("env") or []):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not isinstance(item.get("value"), str):
            raise LiveError(f"user {echo(user_name)}: exec env[{i}] is not a name and a value (strings)")
    program = command
    if os.sep in command and not os.path.isabs(os.path.expanduser(command)):
        program = str(folder / command)  # relative to the kubeconfig, as kubectl resolves it
    found = shutil.which(os.path.expanduser(program))
    if found is None:
        hint = spec.get("installHint")
        raise LiveError(f"user {echo(user_name)}: exec plugin {echo(command)} not found"
                        + (f"; {echo(hint, 500)}" if isinstance(hint, str) and hint.strip() else ""))
    # what the operating system refuses to start with, named before the client starts the wrapper
    env = [(item["name"], item["value"]) for item in spec.get("env") or []]
    if any("\0" in str(text) for text in [*(spec.get("args") or []), *(text for pair in env for text in pair)]):
        raise LiveError(f"user {echo(user_name)}: exec plugin {echo(command)} could not be run: embedded null byte")
    if any("=" in name or not name for name, _ in env):
        raise LiveError(f"user {echo(user_name)}: exec plugin {echo(command)} could not be run: illegal environment variable name")
    return command, found, str(api_version)


# ---------------------------------------------------------------------------------------------
# The credentials of a context.


class LeftToKubectl(Exception):
    """An auth-provider the client does not read, or whose token has expired: the client would
    fetch a new one over the network with no time limit. The message says which (after "user X")."""


class Loader(KubeConfigLoader):
    """The client's loader, its network refreshes of an auth-provider's token refused."""

    def _refresh_oidc(self, provider: Any) -> None:
        raise LeftToKubectl("has an auth-provider (oidc) whose id-token has expired")

    def _refresh_gcp_token(self) -> None:
        raise LeftToKubectl("has an auth-provider (gcp) whose access-token has expired")


#: the auth-providers the client reads (kubectl 1.26 and later keep only oidc)
CLIENT_AUTH_PROVIDERS = ("oidc", "gcp")


def load_credentials(config: ConfigNode, context: str, user_name: str, user: dict[str, Any], user_folder: Path,
                     progress: Progress | None) -> tuple[Configuration, PluginRun | None]:
    """The client's ``Configuration`` of ``context`` (host, TLS files, the Authorization value,
    the proxy), and the run of an exec plugin (within kcompat's limits) when one gave the
    credential. Raises :class:`LeftToKubectl` for an auth-provider the client cannot read here."""
    provider = user.get("auth-provider")
    kind = provider.get("name") if isinstance(provider, dict) else None
    if provider and kind not in CLIENT_AUTH_PROVIDERS:
        raise LeftToKubectl(f"has an auth-provider ({echo(kind)}) the Kubernetes client does not read")
    if provider and any(user.get(key) for key in ("token", "tokenFile", "username", "password", "exec")):
        # kubectl refuses more than one authentication method (the client would pick one): kubectl says so
        raise LeftToKubectl(f"has an auth-provider ({echo(kind)}) and another credential")
    run = None
    folder = None
    if user.get("exec") and not user.get("token") and not user.get("tokenFile"):  # the client prefers a token
        command, program, api_version = check_exec(user_name, user["exec"], user_folder)
        run = PluginRun(user_name, command, program, api_version)
        folder = tempfile.mkdtemp(prefix="kcompat-exec-")  # mode 0700
        report = os.path.join(folder, "report.json")
        config = _with_exec(config, user_name, run.entry(user["exec"], report))
    configuration = Configuration()
    try:
        loader = Loader(config_dict=config, active_context=context, config_base_path=None)
        if run is not None:
            _load_with_plugin(loader, configuration, run, report, progress)
            _keep_credentials(configuration)
        else:
            loader.load_and_set(configuration)
    except (ConfigException, OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
        if provider:  # e.g. an oidc refresh-token without an id-token: kubectl may read it
            raise LeftToKubectl(f"has an auth-provider ({echo(kind)}) the Kubernetes client could not read") from None
        if run is not None and run.problem():
            raise LiveError(str(run.problem())) from None
        raise LiveError(f"context {echo(context)}: the Kubernetes client could not load the credentials of user {echo(user_name)} "
                        f"({type(exc).__name__}; its message is not shown: it may hold a credential)") from None
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    if run is not None and run.problem():
        raise LiveError(str(run.problem()))
    if provider and "Bearer " not in str(configuration.api_key.get("BearerToken") or ""):
        raise LeftToKubectl(f"has an auth-provider ({echo(kind)}) that gave the Kubernetes client no token")
    return configuration, run if run is not None and run.ran else None


def remove_written_files() -> None:
    """Remove the files the client wrote a ``-data`` value to (a CA, a client certificate and its
    key, mode 0600 in the temporary folder) once loaded, rather than when the process exits."""
    kube_config._cleanup_temp_files()


def environment_proxy(server: str, host: str) -> str | None:
    """The proxy of the environment the client would use for ``server`` (``host`` its host)."""
    return proxy_of(Configuration(host=server), False, host)


def proxy_of(configuration: Configuration, from_kubeconfig: bool, host: str) -> str | None:
    """The proxy the client would use for ``configuration.host``: ``proxy-url``, else the
    environment's unless ``NO_PROXY`` bypasses it (and never for a loopback address, as Go has it)."""
    import ipaddress

    proxy: str | None = configuration.proxy
    if not proxy:
        return None
    if not from_kubeconfig:
        if host == "localhost" or host.endswith(".localhost"):
            return None
        with contextlib.suppress(ValueError):
            if ipaddress.ip_address(host).is_loopback:
                return None
        if should_bypass_proxies(configuration.host, configuration.no_proxy or ""):
            return None
    return proxy
