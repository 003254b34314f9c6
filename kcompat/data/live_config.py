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
* the exec plugin the client's ``ExecProvider`` starts is run by
  :func:`kcompat.data.children.run_bounded` (stdout up to 1 MB, within 60 s, its stderr drained
  with its last 64 kB kept, stopped with its process group on a signal), never interactively:
  the client's ``subprocess.Popen`` and its ``logging.error`` are replaced for that call only;
* the client's errors become one-line :class:`kcompat.data.live.LiveError` messages naming the
  field (a client message is never shown: it may carry a credential).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from kubernetes.client import Configuration
from kubernetes.client.rest import should_bypass_proxies
from kubernetes.config import exec_provider, kube_config
from kubernetes.config.config_exception import ConfigException
from kubernetes.config.kube_config import ConfigNode, KubeConfigLoader, KubeConfigMerger

from kcompat.core.errors import cut, echo

from . import secrets
from .children import run_bounded
from .live import (
    EXEC_API_VERSIONS,
    EXEC_TIMEOUT,
    MAX_EXEC_BYTES,
    MAX_EXEC_STDERR_BYTES,
    MAX_KUBECONFIG_BYTES,
    LiveError,
    Progress,
)


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
# Exec plugins: the client's ExecProvider, its process run within kcompat's limits.


class _Finished:
    """What the client's ``ExecProvider`` gets back from its ``subprocess.Popen``: the plugin, already run."""

    def __init__(self, returncode: int, out: str, err: str) -> None:
        self.returncode = returncode
        self._out, self._err = out, err

    def communicate(self) -> tuple[str, str]:
        return self._out, self._err

    def wait(self) -> int:
        return self.returncode


class PluginRun:
    """One run of ``user``'s exec plugin by :func:`run_bounded`, and what became of it."""

    def __init__(self, user: str, command: str, program: str, api_version: str, progress: Progress | None) -> None:
        self.user, self.command, self.program, self.api_version, self.progress = user, command, program, api_version, progress
        self.ran = False
        self.status = 0
        self.stopped = ""
        self.error = ""
        self.err = b""
        self.logged: list[str] = []

    def popen(self, args: list[Any], **options: Any) -> _Finished:
        env = dict(options.get("env") or os.environ)
        with contextlib.suppress(ValueError, KeyError, TypeError):  # run without a terminal: say so
            info = json.loads(env["KUBERNETES_EXEC_INFO"])
            info["spec"]["interactive"] = False
            env["KUBERNETES_EXEC_INFO"] = json.dumps(info)
        self.ran = True
        try:
            status, out, err, stopped = run_bounded([self.program, *map(str, args[1:])], MAX_EXEC_BYTES, EXEC_TIMEOUT,
                                                    MAX_EXEC_STDERR_BYTES, env=env, progress=self.progress,
                                                    what=f"the exec credential plugin {os.path.basename(self.command)}")
        except (OSError, ValueError) as exc:  # ValueError: a NUL byte in an argument or in env
            self.error = str(exc.strerror if isinstance(exc, OSError) and exc.strerror else exc)
            raise
        self.status, self.stopped, self.err = status, stopped, err
        _keep_credentials(out)
        return _Finished(-1 if stopped else status, out.decode("utf-8", "replace"), "")

    def problem(self) -> str | None:
        """The one-line message of a run that gave no credential (None when it gave one)."""
        said = self.err.decode("utf-8", "replace").strip().splitlines()
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


def _keep_credentials(out: bytes) -> None:
    """Every string of an ExecCredential's status kept as a secret (the token, the key)."""
    with contextlib.suppress(ValueError, UnicodeDecodeError, RecursionError):
        credential = json.loads(out)
        status = credential.get("status") if isinstance(credential, dict) else None
        for key, value in (status.items() if isinstance(status, dict) else ()):
            if key != "expirationTimestamp":
                secrets.keep(value)


#: one exec plugin run at a time in the process (the dashboard may read two clusters at once)
_EXEC_LOCK = threading.Lock()


@contextlib.contextmanager
def _bounded_exec(run: PluginRun) -> Iterator[None]:
    """The client's ExecProvider starts ``run`` instead of its own process, and its exec errors
    (logged, not raised, by the client) are kept in ``run.logged`` instead of printed. The client
    has no hook for either: its module globals ``subprocess`` and ``logging`` are replaced for the
    call, under a lock, and put back."""
    with _EXEC_LOCK:
        saved = exec_provider.__dict__["subprocess"], kube_config.__dict__["logging"]
        setattr(exec_provider, "subprocess", SimpleNamespace(PIPE=subprocess.PIPE, Popen=run.popen))  # noqa: B010 - a module global
        setattr(kube_config, "logging", SimpleNamespace(error=lambda message, *args: run.logged.append(str(message))))  # noqa: B010
        try:
            yield
        finally:
            setattr(exec_provider, "subprocess", saved[0])  # noqa: B010
            setattr(kube_config, "logging", saved[1])  # noqa: B010


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
    if user.get("exec") and not user.get("token") and not user.get("tokenFile"):  # the client prefers a token
        command, program, api_version = check_exec(user_name, user["exec"], user_folder)
        run = PluginRun(user_name, command, program, api_version, progress)
    loader = Loader(config_dict=config, active_context=context, config_base_path=None)
    configuration = Configuration()
    try:
        if run is not None:
            with _bounded_exec(run):
                loader.load_and_set(configuration)
        else:
            loader.load_and_set(configuration)
    except (ConfigException, OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
        if provider:  # e.g. an oidc refresh-token without an id-token: kubectl may read it
            raise LeftToKubectl(f"has an auth-provider ({echo(kind)}) the Kubernetes client could not read") from None
        if run is not None and run.problem():
            raise LiveError(str(run.problem())) from None
        raise LiveError(f"context {echo(context)}: the Kubernetes client could not load the credentials of user {echo(user_name)} "
                        f"({type(exc).__name__}; its message is not shown: it may hold a credential)") from None
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
