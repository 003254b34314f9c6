"""Reading ``/version`` and ``/metrics`` from a cluster's API server, within limits of size and time.

``kcompat inspect --live`` talks to the API server of a kubeconfig context itself, with the
kubeconfig's credentials, so that nothing on the machine ever holds more than the limit of an
answer (``kubectl get --raw`` holds the whole answer, decompressed, before writing it):

* the kubeconfig, its contexts and credentials are the official Kubernetes Python client's
  (:mod:`kcompat.data.live_config`, imported only on --live): ``--kubeconfig FILE``, else every
  file of ``$KUBECONFIG`` merged by its ``KubeConfigMerger`` (the first file to name a cluster,
  user or context wins; the first ``current-context``, as kubectl has it), else
  ``~/.kube/config``; each file read first by kcompat up to 4 MB with the project's safe YAML
  reader (no tags, anchors or aliases; duplicate keys refused). Its ``KubeConfigLoader`` loads
  ``token``, ``tokenFile``, ``username``/``password``, client certificates and ``exec`` plugins
  (its ``ExecProvider``: the ``ExecCredential`` protocol, v1 and v1beta1), the plugin's process
  run by kcompat within limits (stdout up to 1 MB within 60 s, its stderr drained, the last 64 kB
  kept: a failure is reported with its exit status and last line; ``installHint`` shown; never
  interactive). Its ``Configuration`` gives the proxy (``proxy-url``, else ``HTTPS_PROXY`` /
  ``HTTP_PROXY`` / ``NO_PROXY``; never for loopback addresses, as Go has it).
* kcompat adds what the client lacks: impersonation (``as``, ``as-groups``, ``as-uid``,
  ``as-user-extra``), ``tls-server-name`` checks, TLS 1.2 or later, and bounded reads of every
  file a credential names.
* Every credential read is kept in :mod:`kcompat.data.secrets` (the CLI's output never shows one),
  never put in a message; a header value with a control character is refused naming its field.
* An ``auth-provider`` is the client's too (``oidc``, ``gcp``) while its token is valid; what
  kcompat cannot do itself (a token to fetch anew, which the client would do over the network
  with no time limit; another provider; a ``socks5://`` or ``https://`` proxy) is left to kubectl:
  ``kubectl proxy`` on a Unix socket in a private folder (0700), which streams the answer; it is
  read here with the same limits, and stopped with its process group afterwards.

Every answer is read in pieces: at most :data:`MAX_ANSWER_BYTES` bytes from the wire and at most
as many after decompression (gzip or deflate, decompressed piece by piece with a bounded output),
within :data:`CONNECT_TIMEOUT` to connect, :data:`READ_TIMEOUT` between two pieces and
:data:`ANSWER_TIMEOUT` in all. From :data:`FIRST_NOTE` seconds on, a line on stderr says what is
awaited, every :data:`NOTE_EVERY` seconds. Problems are :class:`LiveError` messages naming the
context, the server and the limit.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import http.client
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import SplitResult, urlsplit

from kcompat.core.errors import cut, echo, without_userinfo

from . import secrets
from .children import spawn, stop
from .files import read_regular_file
from .live_errors import EXEC_API_VERSIONS as EXEC_API_VERSIONS
from .live_errors import MAX_KUBECONFIG_BYTES as MAX_KUBECONFIG_BYTES
from .live_errors import LiveError as LiveError
from .live_errors import Progress as Progress

#: an answer's limit, on the wire and decompressed (kcompat.core.inspect.model.MAX_INPUT_BYTES)
MAX_ANSWER_BYTES = 32 * 1024 * 1024
#: what is read of an error answer's body for its message
MAX_ERROR_BODY_BYTES = 64 * 1024
#: seconds
CONNECT_TIMEOUT = 10.0
READ_TIMEOUT = 20.0
ANSWER_TIMEOUT = 60.0
PROXY_START_TIMEOUT = 30.0
FIRST_NOTE = 2.0
NOTE_EVERY = 3.0

_PIECE = 64 * 1024


def stderr_progress(line: str) -> None:
    """A progress line on stderr (the default ``progress``)."""
    with contextlib.suppress(OSError, ValueError):
        print(f"kcompat: {line}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# The kubeconfig, merged by the Kubernetes client (kcompat.data.live_config).


@dataclass(frozen=True)
class Entry:
    """A named cluster, user or context of a kubeconfig, and the folder its relative paths are in."""

    name: str
    values: dict[str, Any]
    folder: Path

    def path(self, key: str) -> Path | None:
        value = self.values.get(key)
        if value in (None, ""):
            return None
        path = Path(os.path.expanduser(str(value)))
        return path if path.is_absolute() else self.folder / path


@dataclass
class KubeConfig:
    files: list[str] = field(default_factory=list)
    clusters: dict[str, Entry] = field(default_factory=dict)
    users: dict[str, Entry] = field(default_factory=dict)
    contexts: dict[str, Entry] = field(default_factory=dict)
    current_context: str = ""
    merged: Any = None  # the client's merged kubeconfig (kubernetes.config.kube_config.ConfigNode)


def kubeconfig_files(explicit: str | None) -> list[tuple[Path, bool]]:
    """The kubeconfig files kubectl would read, each with whether it must exist."""
    if explicit:
        return [(Path(os.path.expanduser(explicit)), True)]
    listed = [p for p in os.environ.get("KUBECONFIG", "").split(os.pathsep) if p]
    if listed:
        return [(Path(os.path.expanduser(p)), False) for p in dict.fromkeys(listed)]
    return [(Path.home() / ".kube" / "config", True)]


def load_kubeconfig(explicit: str | None = None) -> KubeConfig:
    """The merged kubeconfig (see the module)."""
    from . import live_config

    paths: list[str] = []
    for path, required in kubeconfig_files(explicit):
        if not required and not path.exists():
            continue  # kubectl skips the missing files of $KUBECONFIG
        if not path.exists():
            raise LiveError(f"kubeconfig {cut(str(path), 200)}: no such file (--live reads the cluster of a kubeconfig context; "
                            "give --kubeconfig FILE or set KUBECONFIG)")
        paths.append(str(path))
    if not paths:
        raise LiveError("no kubeconfig: none of the files of $KUBECONFIG exists")
    merged = live_config.merge(paths)
    current = merged.value.get("current-context") if merged is not None else None
    config = KubeConfig(files=paths, current_context=current if isinstance(current, str) else "", merged=merged)
    if merged is not None:
        for key, inner, into in (("clusters", "cluster", config.clusters), ("users", "user", config.users),
                                 ("contexts", "context", config.contexts)):
            for name, (values, folder) in live_config.entries(merged, key, inner).items():
                into[name] = Entry(name, values, folder)
    return config


# ---------------------------------------------------------------------------------------------
# Where to connect and with what.


@dataclass(frozen=True)
class Target:
    """A context resolved: the server, how to reach it, and a description for the messages."""

    context: str
    server: str  # the URL as the kubeconfig gives it, without user-info (never sent, never shown)
    scheme: str
    host: str
    port: int
    prefix: str  # a path the server URL has (proxies in front of API servers use one)
    tls: ssl.SSLContext | None
    server_name: str | None
    headers: tuple[tuple[str, str], ...]
    proxy: tuple[str, int] | None
    proxy_shown: str  # the proxy's URL without user-info, for the messages ("" for none)
    credentials: str  # "client certificate", "bearer token", "exec plugin aws (token)", ...
    kubectl_reason: str = ""  # why kubectl proxy must be used ("" when kcompat connects itself)


def _text(entry: Entry, key: str) -> str | None:
    value = entry.values.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise LiveError(f"{entry.name}: {key} is not a string")
    return str(value)


def _data(entry: Entry, key: str) -> bytes | None:
    value = _text(entry, key)
    if value is None:
        return None
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise LiveError(f"{entry.name}: {key} is not base64") from None


def _file(path: Path, what: str) -> bytes:
    data = read_regular_file(path, MAX_KUBECONFIG_BYTES, f"{what} {cut(str(path), 200)}")
    if len(data) > MAX_KUBECONFIG_BYTES:
        raise LiveError(f"{what} {cut(str(path), 200)}: larger than the limit of {MAX_KUBECONFIG_BYTES:,} bytes")
    return data


def resolve(config: KubeConfig, context: str | None, progress: Progress | None = None) -> Target:  # noqa: C901 - the checks in the order the real code runs them, kept in one place
    """The target of ``context`` (default: the current context), credentials included (loaded by
    the Kubernetes client; an exec plugin is run here)."""
    from . import live_config

    name = context or config.current_context
    where = f"kubeconfig {cut(', '.join(config.files), 300)}"
    if not name:
        raise LiveError(f"{where}: no current-context; give --context NAME (contexts: {cut(', '.join(config.contexts) or 'none', 300)})")
    if name not in config.contexts:
        raise LiveError(f"{where}: no context {echo(name)!s} (contexts: {cut(', '.join(config.contexts) or 'none', 300)})")
    ctx = config.contexts[name]
    cluster_name, user_name = ctx.values.get("cluster"), ctx.values.get("user")
    if not isinstance(cluster_name, str) or cluster_name not in config.clusters:
        raise LiveError(f"context {echo(name)}: cluster {echo(cluster_name)} is not in {where}")
    cluster = config.clusters[cluster_name]
    user = config.users.get(user_name) if isinstance(user_name, str) else None
    if user_name and user is None:
        raise LiveError(f"context {echo(name)}: user {echo(user_name)} is not in {where}")
    user = user or Entry("", {}, cluster.folder)

    server = _text(cluster, "server")
    if server is None:
        raise LiveError(f"context {echo(name)}: cluster {echo(cluster_name)} has no server")
    parts = _url(server, f"context {echo(name)}: clusters[{echo(cluster_name)}].cluster.server")
    shown = without_userinfo(server)  # user-info in a server URL is neither sent (kubectl's client ignores it) nor shown
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise LiveError(f"context {echo(name)}: server {echo(shown)} is not an http(s) URL with a host")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise LiveError(f"context {echo(name)}: server {echo(shown)} has a bad port") from None

    kubectl_reason = ""
    if user.values.get("auth-provider"):
        provider = user.values["auth-provider"]
        config_values = provider.get("config") if isinstance(provider, dict) else None
        for key, value in (config_values.items() if isinstance(config_values, dict) else ()):
            if any(word in str(key).lower() for word in ("token", "secret", "password", "key")):
                secrets.keep(value)  # id-token, refresh-token, client-secret...: kubectl reads them, kcompat shows none
    proxy = None
    proxy_shown = ""
    proxy_url = _text(cluster, "proxy-url")
    if proxy_url is None:  # the environment's, as the client reads it (HTTPS_PROXY, NO_PROXY...)
        proxy_url = live_config.environment_proxy(server, parts.hostname)
    if proxy_url:
        p = _url(proxy_url if "://" in proxy_url else "http://" + proxy_url, f"context {echo(name)}: the proxy URL")
        proxy_shown = without_userinfo(proxy_url)
        if p.scheme != "http" or not p.hostname:
            kubectl_reason = kubectl_reason or f"the proxy {echo(proxy_shown)} is not an http:// proxy"
        else:
            try:
                proxy = (p.hostname, p.port or 80)
            except ValueError:
                raise LiveError(f"context {echo(name)}: proxy {echo(proxy_shown)} has a bad port") from None

    server_name = _text(cluster, "tls-server-name")
    if server_name is not None and (not server_name.isprintable() or " " in server_name):
        raise LiveError(f"context {echo(name)}: clusters[{echo(cluster_name)}].cluster.tls-server-name holds a space or a control "
                        f"character, which a host name cannot: {echo(server_name)}")
    tls = None
    described: list[str] = []
    headers: list[tuple[str, str]] = []
    if not kubectl_reason:
        has_cert = _check_files(user, cluster, name)
        if has_cert and parts.scheme != "https":
            raise LiveError(f"context {echo(name)}: a client certificate needs an https:// server, not {echo(shown)}")
        try:
            configuration, run = live_config.load_credentials(config.merged, name, user.name, user.values, user.folder, progress)
            headers += _authorization(configuration, run, user, name, described)
            if configuration.cert_file and run is None:
                described.append("client certificate")
            headers += _impersonation(user, name)
            if parts.scheme == "https":
                tls = _tls_context(configuration, name)
        except live_config.LeftToKubectl as exc:
            kubectl_reason = f"user {echo(user.name)} {exc}"
            tls, headers, described = None, [], []
        finally:
            live_config.remove_written_files()  # loaded into the TLS context, or not needed
    return Target(
        context=name, server=shown.rstrip("/"), scheme=parts.scheme, host=parts.hostname, port=port,
        prefix=parts.path.rstrip("/"), tls=tls, server_name=server_name or parts.hostname, headers=tuple(headers),
        proxy=proxy, proxy_shown=proxy_shown, credentials=", ".join(described) or "no credentials", kubectl_reason=kubectl_reason,
    )


def _check_files(user: Entry, cluster: Entry, context: str) -> bool:
    """Every credential of ``user`` kept as a secret, and every file it or ``cluster`` names read
    within the limit (a FIFO, a device or a huge file is refused before the client opens it);
    whether the user has a client certificate."""
    secrets.keep(_text(user, "token"))
    secrets.keep(_text(user, "password"))
    secrets.keep(_text(user, "client-key-data"))
    if _text(user, "token") is None and user.path("tokenFile") is not None:
        raw = _file(user.path("tokenFile"), "tokenFile")  # type: ignore[arg-type]
        secrets.keep(raw)
        secrets.keep(raw.strip())
    cert = _data(user, "client-certificate-data")
    if cert is None and user.path("client-certificate") is not None:
        cert = _file(user.path("client-certificate"), "client-certificate")  # type: ignore[arg-type]
    key = _data(user, "client-key-data")
    if key is None and user.path("client-key") is not None:
        key = _file(user.path("client-key"), "client-key")  # type: ignore[arg-type]
    secrets.keep(key)
    if (cert is None) != (key is None):
        raise LiveError(f"context {echo(context)}: user {echo(user.name)} has a client certificate without its key, or a key without its certificate")
    ca = _data(cluster, "certificate-authority-data")
    if ca is None and cluster.path("certificate-authority") is not None:
        ca = _file(cluster.path("certificate-authority"), "certificate-authority")  # type: ignore[arg-type]
    insecure = cluster.values.get("insecure-skip-tls-verify")
    if insecure is not None and not isinstance(insecure, bool):  # the client would read any value as a truth value
        raise LiveError(f"context {echo(context)}: clusters[{echo(cluster.name)}].cluster.insecure-skip-tls-verify is not true or false")
    if insecure is True and ca is not None:
        raise LiveError(f"context {echo(context)}: certificate-authority and insecure-skip-tls-verify are both set "
                        "(kubectl refuses that too: a root certificate with the insecure flag)")
    return cert is not None


def _authorization(configuration: Any, run: Any, user: Entry, context: str, described: list[str]) -> list[tuple[str, str]]:
    """The Authorization header the client made of ``user``'s token, token file, exec plugin or
    password, its value checked naming the kubeconfig field it came from."""
    value = configuration.api_key.get("BearerToken") if isinstance(configuration.api_key, dict) else None
    field = f"users[{echo(user.name)}].user"
    if run is not None:
        described.append(f"exec plugin {echo(os.path.basename(run.command))} ({'token' if value else 'client certificate'})")
    if not isinstance(value, str) or not value:
        return []
    scheme, _, credential = value.partition(" ")
    secrets.keep(credential)
    if scheme == "Basic":
        described.append("basic authentication")
        return [("Authorization", _header_value(value, f"{field}.username/password", context))]
    if run is not None:
        token, what = credential, f"{field}.exec (the plugin's status.token)"
    elif isinstance(user.values.get("auth-provider"), dict):
        kind = user.values["auth-provider"].get("name")
        token, what = credential, f"{field}.auth-provider ({echo(kind)}) token"
        described.append(f"auth-provider {echo(kind)}")
    elif _text(user, "token") is not None:
        token, what = credential, f"{field}.token"
        described.append("bearer token")
    else:
        token, what = credential.strip(), f"{field}.tokenFile ({echo(user.path('tokenFile'), 200)})"  # kubectl trims a token file
        described.append("token file")
    return [("Authorization", f"Bearer {_header_value(token, what, context, ascii_only=True)}")]


def _url(url: str, field: str) -> SplitResult:
    """``url`` split, its user-info kept as a secret; a URL that cannot be sent in a request line
    (a space, a line break, an escape) is refused naming ``field``, not showing the URL."""
    try:
        parts = urlsplit(url)
    except ValueError:  # "Invalid IPv6 URL"
        raise LiveError(f"{field} is not a URL kcompat can read (the value is not shown)") from None
    for value in (parts.password, parts.netloc.rpartition("@")[0]):  # the password, and user:password (not the user alone)
        secrets.keep(value)
    if any(ch <= " " or ch == "\x7f" for ch in url) or not url.isprintable():
        raise LiveError(f"{field} holds a space or a control character, which a URL cannot (the value is not shown)")
    return parts


def _header_value(value: str, field: str, context: str, ascii_only: bool = False) -> str:
    """``value`` as an HTTP header value, or a one-line error naming the kubeconfig ``field`` and
    the context (never the value: it may be a credential)."""
    if any(ch < " " or ch == "\x7f" for ch in value):
        raise LiveError(f"context {echo(context)}: {field} holds a line break or another control character, "
                        "which an HTTP header cannot carry (the value is not shown)")
    if ascii_only and not value.isascii():
        raise LiveError(f"context {echo(context)}: {field} holds a character that is not ASCII, which a bearer token "
                        "cannot (the value is not shown)")
    return value


def _tls_context(configuration: Any, context: str) -> ssl.SSLContext:
    """TLS 1.2 or later with the client's verification and certificate files (the client writes a
    ``-data`` value to a private temporary file: ``ssl`` loads from files only)."""
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    tls.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        if not configuration.verify_ssl:
            tls.check_hostname = False
            tls.verify_mode = ssl.CERT_NONE
        elif configuration.ssl_ca_cert:
            tls.load_verify_locations(cafile=configuration.ssl_ca_cert)
        else:
            tls.load_default_certs()
        if configuration.cert_file and configuration.key_file:
            tls.load_cert_chain(configuration.cert_file, configuration.key_file)
    except ssl.SSLError as exc:
        raise LiveError(f"context {echo(context)}: unusable TLS material: {cut(exc.reason or exc, 200)}") from None
    except OSError as exc:
        raise LiveError(f"context {echo(context)}: unusable TLS material: {cut(exc.strerror or exc, 200)}") from None
    return tls


def _impersonation(user: Entry, context: str) -> list[tuple[str, str]]:
    """The impersonation headers of ``user``, each value checked (a non-ASCII one is sent in UTF-8,
    as kubectl sends it); an extra's key is percent-encoded into the header name, as kubectl does."""
    from urllib.parse import quote

    field = f"users[{echo(user.name)}].user"
    headers = []
    if _text(user, "as"):
        headers.append(("Impersonate-User", _header_value(str(_text(user, "as")), f"{field}.as", context)))
    if _text(user, "as-uid"):
        headers.append(("Impersonate-Uid", _header_value(str(_text(user, "as-uid")), f"{field}.as-uid", context)))
    groups = user.values.get("as-groups") or []
    if not isinstance(groups, list):
        raise LiveError(f"context {echo(context)}: {field}.as-groups is not a list")
    for group in groups:
        headers.append(("Impersonate-Group", _header_value(str(group), f"{field}.as-groups", context)))
    extra = user.values.get("as-user-extra") or {}
    for key, values in (extra.items() if isinstance(extra, dict) else ()):
        for value in values if isinstance(values, list) else [values]:
            name = "Impersonate-Extra-" + quote(str(key), safe="!#$&'*+-.^_`|~")
            headers.append((name, _header_value(str(value), f"{field}.as-user-extra", context)))
    return headers


# ---------------------------------------------------------------------------------------------
# Reading an answer.


class _Watch:
    """Tells what is awaited from :data:`FIRST_NOTE` seconds on, and at the deadline shuts the
    connection down (a read blocked anywhere in http.client then returns)."""

    def __init__(self, what: str, deadline: float, progress: Progress | None) -> None:
        self.what = what
        self.deadline = deadline
        self.progress = progress
        self.sock: socket.socket | None = None
        self._received = 0
        self._phase = "connecting"
        self.quiet_since = time.monotonic()  # the last data or change of phase: the socket's timeout runs from there
        self._expired = False
        self._done = threading.Event()
        self.started = self._started = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="kcompat-live-watch", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        note = self._started + FIRST_NOTE
        while not self._done.is_set():
            now = time.monotonic()
            if now >= self.deadline:
                self._expired = True
                if self.sock is not None:
                    with contextlib.suppress(OSError):
                        self.sock.shutdown(socket.SHUT_RDWR)
                return
            if now >= note and self.progress is not None:
                got = f", {self.received:,} bytes so far" if self.received else ""
                stops = self.stops_at()
                unless = " unless data comes" if stops < self.deadline else ""
                self.progress(f"waiting for {self.what}: {self.phase}{got} ({now - self._started:.0f} s; "
                              f"stopped after {max(stops - self._started, now - self._started):.0f} s{unless})")
                note = now + NOTE_EVERY
            self._done.wait(min(0.25, max(0.0, self.deadline - now)))

    @property
    def phase(self) -> str:
        """What is awaited now ("connecting", "TLS handshake", "reading the answer"...)."""
        return self._phase

    @phase.setter
    def phase(self, phase: str) -> None:
        self._phase = phase
        self.quiet_since = time.monotonic()

    @property
    def received(self) -> int:
        """Bytes of the answer received so far."""
        return self._received

    @received.setter
    def received(self, count: int) -> None:
        self._received = count
        self.quiet_since = time.monotonic()

    def stops_at(self) -> float:
        """When the read is stopped unless data comes: the deadline, or sooner the timeout of the
        phase (:data:`CONNECT_TIMEOUT` to connect, :data:`READ_TIMEOUT` without data)."""
        quiet = CONNECT_TIMEOUT if self._phase == "connecting" else READ_TIMEOUT
        return min(self.deadline, self.quiet_since + quiet)

    @property
    def expired(self) -> bool:
        """The deadline has passed (a read that timed out at it counts, even before this thread woke)."""
        return self._expired or time.monotonic() >= self.deadline

    def close(self) -> None:
        self._done.set()
        self._thread.join(1.0)


class _Decoder:
    """The body as it was sent, decompressed piece by piece; never more than ``limit`` bytes kept."""

    def __init__(self, encoding: str, limit: int, what: str) -> None:
        self.limit = limit
        self.what = what
        self.out = bytearray()
        encoding = encoding.strip().lower()
        if encoding in ("", "identity"):
            self.wbits: int | None = None
        elif encoding in ("gzip", "x-gzip"):
            self.wbits = 16 + zlib.MAX_WBITS
        elif encoding == "deflate":
            self.wbits = zlib.MAX_WBITS
        else:
            raise LiveError(f"{what}: answered with Content-Encoding {echo(encoding)}, which kcompat cannot read")
        self._d = zlib.decompressobj(self.wbits) if self.wbits is not None else None

    def feed(self, piece: bytes) -> None:
        if self._d is None:
            self._keep(piece)
            return
        data = piece
        while data:
            try:
                # at most one piece of output per call: a bomb never makes a big buffer at once
                self._keep(self._d.decompress(data, min(_PIECE, self.limit + 1 - len(self.out))))
                data = self._d.unconsumed_tail
                if self._d.eof:  # another gzip member may follow (Go reads them all)
                    data = self._d.unused_data + data
                    self._d = zlib.decompressobj(self.wbits or zlib.MAX_WBITS)
            except zlib.error as exc:
                raise LiveError(f"{self.what}: the compressed answer is corrupt ({cut(exc, 200)})") from None

    def _keep(self, data: bytes) -> None:
        self.out += data
        if len(self.out) > self.limit:
            raise LiveError(f"{self.what}: the answer is larger than the limit of {self.limit:,} bytes once decompressed; "
                            "stopped reading (nothing more was read or kept)")

    def finish(self) -> bytes:
        if self._d is not None:
            try:
                self._keep(self._d.flush(self.limit + 1 - len(self.out)))
            except zlib.error as exc:
                raise LiveError(f"{self.what}: the compressed answer is corrupt ({cut(exc, 200)})") from None
        return bytes(self.out)


def read_answer(connection: http.client.HTTPConnection, watch: _Watch, target: str, path: str, headers: list[tuple[str, str]],
                limit: int, what: str) -> bytes:
    """GET ``target`` on ``connection`` and read its body within the limits (see the module)."""
    connection.putrequest("GET", target, skip_host=True, skip_accept_encoding=True)
    for name, value in headers:
        connection.putheader(name, value.encode())  # checked where read (_header_value); UTF-8 as kubectl sends it
    connection.endheaders()
    watch.phase = "sent the request, no answer yet"
    response = connection.getresponse()
    if response.status != 200:
        body = response.read(MAX_ERROR_BODY_BYTES) if response.status >= 400 else b""
        raise LiveError(_status_message(what, response, body))
    decoder = _Decoder(response.getheader("Content-Encoding") or "", limit, what)
    watch.phase = "reading the answer"
    wire = 0
    while True:
        if connection.sock is not None:
            connection.sock.settimeout(max(0.001, min(READ_TIMEOUT, watch.deadline - time.monotonic())))
        piece = response.read1(_PIECE)
        if watch.expired:
            raise LiveError(f"{what}: no complete answer within {watch.deadline - watch.started:.0f} s; stopped")
        if not piece:
            break
        wire += len(piece)
        watch.received = wire
        if wire > limit:
            raise LiveError(f"{what}: the answer is larger than the limit of {limit:,} bytes; stopped reading "
                            "(nothing more was read or kept)")
        decoder.feed(piece)
    return decoder.finish()


def _status_message(what: str, response: http.client.HTTPResponse, body: bytes) -> str:
    status = f"{response.status} {response.reason}".strip()
    if 300 <= response.status < 400:
        return f"{what}: answered {status}, a redirect to {echo(response.getheader('Location') or '?', 200)} (not followed)"
    detail = ""
    try:
        message = json.loads(body).get("message") if body.lstrip().startswith(b"{") else None
    except (ValueError, AttributeError):
        message = None
    text = message if isinstance(message, str) else body.decode("utf-8", "replace").strip().splitlines()[0] if body.strip() else ""
    if text:
        detail = f": {echo(text, 300)}"
    if response.status in (401, 403):
        return f"{what}: answered {status}{detail} (the context's credentials were refused or lack the permission)"
    return f"{what}: answered {status}{detail}"


# ---------------------------------------------------------------------------------------------
# A cluster to read.


class Cluster:
    """The API server of a context, read by kcompat itself or through ``kubectl proxy``."""

    def __init__(self, target: Target, kubeconfig: str | None, progress: Progress | None, timeout: float = ANSWER_TIMEOUT) -> None:
        self.target = target
        self.timeout = timeout
        self.kubeconfig = kubeconfig
        self.progress = progress
        self._proxy: subprocess.Popen[bytes] | None = None
        self._relay: threading.Thread | None = None
        self._folder: str | None = None

    @property
    def how(self) -> str:
        """How the cluster is read, for the messages."""
        if self.target.kubectl_reason:
            return f"through kubectl proxy ({self.target.kubectl_reason})"
        return f"from {self.target.server} ({self.target.credentials})"

    def label(self, path: str) -> str:
        """The name of an answer in the report (where it came from)."""
        if self.target.kubectl_reason:
            return f"kubectl proxy {path} (context {echo(self.target.context)})"
        return f"{self.target.server}{path} (context {echo(self.target.context)})"

    def get(self, path: str, limit: int = MAX_ANSWER_BYTES) -> bytes:
        what = self.label(path)
        deadline = time.monotonic() + self.timeout
        watch = _Watch(what, deadline, self.progress)
        connection = None
        try:
            connection, target_path = self._connect(path, watch)
            headers = [("Host", self._host_header()), ("User-Agent", _user_agent()), ("Accept", "application/json, */*"),
                       ("Accept-Encoding", "gzip"), *self.target.headers]
            if self.target.kubectl_reason:
                headers = [("Host", "localhost"), ("User-Agent", _user_agent()), ("Accept", "application/json, */*"),
                           ("Accept-Encoding", "gzip")]
            return read_answer(connection, watch, target_path, path, headers, limit, what)
        except LiveError:
            raise
        except (OSError, http.client.HTTPException) as exc:
            through = f" (through the proxy {echo(self.target.proxy_shown, 200)}: {watch.phase})" if self.target.proxy else ""
            if watch.expired:
                raise LiveError(f"{what}: no complete answer within {self.timeout:g} s; stopped{through}") from None
            raise LiveError(f"{what}: {_network_message(exc)}{through}") from None
        finally:
            watch.close()
            if connection is not None:
                connection.close()

    def _host_header(self) -> str:
        t = self.target
        host = f"[{t.host}]" if ":" in t.host else t.host
        default = 443 if t.scheme == "https" else 80
        return host if t.port == default else f"{host}:{t.port}"

    def _connect(self, path: str, watch: _Watch) -> tuple[http.client.HTTPConnection, str]:
        t = self.target
        if t.kubectl_reason:
            sock = self._proxy_socket(watch)
            connection = http.client.HTTPConnection("localhost")
            connection.sock = sock
            return connection, path
        connection = http.client.HTTPConnection(t.host, t.port)
        if t.proxy is not None:
            raw = socket.create_connection(t.proxy, timeout=_left(watch, CONNECT_TIMEOUT))
            watch.sock = raw
            if t.scheme == "http":  # a plain request through the proxy: the absolute URL
                connection = http.client.HTTPConnection(*t.proxy)
                connection.sock = raw
                raw.settimeout(READ_TIMEOUT)
                return connection, f"{t.server}{path}"
            watch.phase = "connected to the proxy"
            _tunnel(raw, self._host_header(), t, watch)
        else:
            raw = socket.create_connection((t.host, t.port), timeout=_left(watch, CONNECT_TIMEOUT))
            watch.sock = raw
        raw.settimeout(READ_TIMEOUT)
        watch.phase = "connected"
        if t.tls is not None:
            watch.phase = "TLS handshake"
            sock = t.tls.wrap_socket(raw, server_hostname=t.server_name)
            watch.sock = sock
        else:
            sock = raw
        connection.sock = sock
        watch.phase = "connected"
        return connection, f"{t.prefix}{path}"

    def _proxy_socket(self, watch: _Watch) -> socket.socket:
        """A connection to ``kubectl proxy`` (started on first use, on a Unix socket in a private folder)."""
        if self._proxy is None:
            kubectl = shutil.which("kubectl")
            if kubectl is None:
                raise LiveError(f"context {echo(self.target.context)}: {self.target.kubectl_reason}, which kcompat leaves to kubectl; "
                                "kubectl is not on PATH")
            self._folder = tempfile.mkdtemp(prefix="kcompat-proxy-")
            command = [kubectl, "proxy", f"--unix-socket={self._folder}/proxy.sock", "--context", self.target.context]
            if self.kubeconfig:
                command[2:2] = ["--kubeconfig", self.kubeconfig]
            watch.phase = "starting kubectl proxy"
            # its stderr is relayed line by line, rendered (a context name it echoes may hold an escape)
            self._proxy = spawn(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            self._relay = threading.Thread(target=_relay_lines, args=(self._proxy.stderr,), name="kcompat-kubectl-stderr", daemon=True)
            self._relay.start()
        path = f"{self._folder}/proxy.sock"
        started = time.monotonic()
        while True:
            if self._proxy.poll() is not None:
                if self._relay is not None:
                    self._relay.join(2.0)
                raise LiveError(f"context {echo(self.target.context)}: kubectl proxy exited with status {self._proxy.returncode} "
                                "(its message is above)")
            if os.path.exists(path):
                try:
                    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    sock.settimeout(READ_TIMEOUT)
                    sock.connect(path)
                    watch.sock = sock
                    watch.phase = "connected to kubectl proxy"
                    return sock
                except OSError:
                    sock.close()
            if time.monotonic() - started > PROXY_START_TIMEOUT:
                raise LiveError(f"context {echo(self.target.context)}: kubectl proxy did not start within {PROXY_START_TIMEOUT:g} s")
            time.sleep(0.05)

    def close(self) -> None:
        if self._proxy is not None:
            stop(self._proxy)
            if self._relay is not None:
                self._relay.join(2.0)  # what kubectl wrote last is shown before kcompat's own message
                self._relay = None
            if self._proxy.stderr is not None:
                self._proxy.stderr.close()
            self._proxy = None
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    def get_answer(self, path: str, accept: str, limit: int = MAX_ANSWER_BYTES) -> tuple[int, bytes, str]:
        """GET ``path`` asking for ``accept``, read within the limits of :meth:`get`: (200, the body,
        "") or, for an answer of 400 or more, (its status, b"", the message :meth:`get` would raise):
        a list the credentials may not read is one resource's problem, not the whole read's
        (``kcompat scan --live``). Anything else raises :class:`LiveError` as :meth:`get` does."""
        what = self.label(path)
        watch = _Watch(what, time.monotonic() + self.timeout, self.progress)
        connection = None
        try:
            connection, target_path = self._connect(path, watch)
            own = not self.target.kubectl_reason
            headers = [("Host", self._host_header() if own else "localhost"), ("User-Agent", _user_agent()), ("Accept", accept),
                       ("Accept-Encoding", "gzip"), *(self.target.headers if own else ())]
            connection.putrequest("GET", target_path, skip_host=True, skip_accept_encoding=True)
            for name, value in headers:
                connection.putheader(name, value)
            connection.endheaders()
            response = connection.getresponse()
            if response.status >= 400:
                return response.status, b"", _status_message(what, response, response.read(MAX_ERROR_BODY_BYTES))
            if response.status != 200:
                raise LiveError(_status_message(what, response, b""))
            decoder = _Decoder(response.getheader("Content-Encoding") or "", limit, what)
            wire = 0
            while piece := response.read1(_PIECE):
                wire += len(piece)
                if watch.expired or wire > limit:
                    raise LiveError(f"{what}: no complete answer within {self.timeout:g} s; stopped" if watch.expired else
                                    f"{what}: the answer is larger than the limit of {limit:,} bytes; stopped reading")
                decoder.feed(piece)
            if watch.expired:
                raise LiveError(f"{what}: no complete answer within {self.timeout:g} s; stopped")
            return 200, decoder.finish(), ""
        except (OSError, http.client.HTTPException) as exc:
            if watch.expired:
                raise LiveError(f"{what}: no complete answer within {self.timeout:g} s; stopped") from None
            raise LiveError(f"{what}: {_network_message(exc)}") from None
        finally:
            watch.close()
            if connection is not None:
                connection.close()


#: lines of kubectl proxy's stderr relayed (each cut); the rest is read and counted
MAX_RELAYED_LINES = 50


def _relay_lines(stream: Any) -> None:
    """``kubectl proxy``'s stderr on kcompat's, each line rendered and cut, at most
    :data:`MAX_RELAYED_LINES` of them."""
    count = 0
    with contextlib.suppress(OSError, ValueError):
        while line := stream.readline(64 * 1024):
            count += 1
            if count <= MAX_RELAYED_LINES:
                stderr_progress(f"kubectl: {echo(line.decode('utf-8', 'replace').rstrip(chr(10)), 500)}")
        if count > MAX_RELAYED_LINES:
            stderr_progress(f"kubectl: … and {count - MAX_RELAYED_LINES:,} more lines on its stderr, not shown")


def _left(watch: _Watch, most: float) -> float:
    """``most`` seconds, or what is left before the deadline when that is less."""
    return max(0.001, min(most, watch.deadline - time.monotonic()))


def _tunnel(sock: socket.socket, host: str, target: Target, watch: _Watch) -> None:
    """An HTTP CONNECT tunnel through the proxy ``sock`` is connected to."""
    sock.settimeout(READ_TIMEOUT)
    watch.phase = "asked the proxy to connect, no answer yet"
    sock.sendall(f"CONNECT {host} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: {_user_agent()}\r\n\r\n".encode("ascii", "replace"))
    response = http.client.HTTPResponse(sock, method="CONNECT")
    response.begin()
    if response.status != 200:
        raise LiveError(f"the proxy {echo(target.proxy_shown, 200)} refused to connect to {host}: "
                        f"{response.status} {echo(response.reason, 200)}")


def _network_message(exc: BaseException) -> str:
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"the server's certificate was not accepted: {cut(exc.verify_message or exc, 300)}"
    if isinstance(exc, ssl.SSLError):
        return f"TLS failed: {cut(exc.reason or exc, 300)}"
    if isinstance(exc, (socket.timeout, TimeoutError)):
        return f"no data for {READ_TIMEOUT:g} s (connecting: {CONNECT_TIMEOUT:g} s); stopped"
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused (is the API server running, and is this its address?)"
    if isinstance(exc, socket.gaierror):
        return f"the host name cannot be resolved ({exc.strerror or exc})"
    if isinstance(exc, http.client.RemoteDisconnected):
        return "the server closed the connection without answering"
    if isinstance(exc, http.client.IncompleteRead):
        return "the answer ended early (the server closed the connection)"
    if isinstance(exc, (http.client.LineTooLong, http.client.HTTPException)):
        return f"not an HTTP answer kcompat can read ({cut(exc, 200)})"
    if isinstance(exc, OSError):
        return f"{exc.strerror or cut(exc, 200)}"
    return cut(exc, 300)


def _user_agent() -> str:
    from kcompat import __version__

    return f"kcompat/{__version__}"


@contextlib.contextmanager
def open_cluster(kubeconfig: str | None, context: str | None, progress: Progress | None = stderr_progress,
                 timeout: float = ANSWER_TIMEOUT) -> Iterator[Cluster]:
    """The cluster of ``context`` (default: the current one) of the kubeconfig (see the module),
    each answer read within ``timeout`` seconds; a ``kubectl proxy`` it needed is stopped when
    the block ends."""
    target = resolve(load_kubeconfig(kubeconfig), context, progress)
    cluster = Cluster(target, kubeconfig, progress, timeout)
    try:
        yield cluster
    finally:
        cluster.close()
