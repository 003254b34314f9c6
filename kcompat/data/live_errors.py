"""What the modules reading a cluster share (:mod:`.live`, :mod:`.live_config`, :mod:`.live_objects`):
the error they raise, the progress callback, and the limits both the kubeconfig reader and the
Kubernetes client's side apply."""

from __future__ import annotations

from collections.abc import Callable

from kcompat.core.errors import KcompatError

#: a kubeconfig file, a token file
MAX_KUBECONFIG_BYTES = 4 * 1024 * 1024
#: the exec credential apiVersions kubectl supports
EXEC_API_VERSIONS = ("client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1")
#: a progress line's receiver (stderr for the CLI, a status box for the dashboard)
Progress = Callable[[str], None]


class LiveError(KcompatError):
    """The cluster could not be read; the message says where and why."""
