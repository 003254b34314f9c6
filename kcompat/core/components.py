"""The control-plane components KEP-4330 gives ``--emulated-version``: each registers its own
feature gate (kube's gates, client-go's, and what its own ``main`` adds or overrides), so the
same release answers per component. kube-apiserver is the default everywhere."""

from __future__ import annotations

from .errors import KcompatError, printable, repr_cut

KUBE_APISERVER = "kube-apiserver"
KUBE_CONTROLLER_MANAGER = "kube-controller-manager"
KUBE_SCHEDULER = "kube-scheduler"
#: every component, the default first
COMPONENTS = (KUBE_APISERVER, KUBE_CONTROLLER_MANAGER, KUBE_SCHEDULER)
#: the components whose gate set is stored as its difference from kube-apiserver's
OTHER_COMPONENTS = (KUBE_CONTROLLER_MANAGER, KUBE_SCHEDULER)


def parse_component(text: str | None) -> str:
    """``text`` as a component name (None: kube-apiserver); a clear error for anything else."""
    if text is None or text == "":
        return KUBE_APISERVER
    name = text.strip()
    if name not in COMPONENTS:
        raise KcompatError(f"unknown component {printable(repr_cut(text))}: expected one of {', '.join(COMPONENTS)}")
    return name


def apiserver_only(component: str, what: str) -> None:
    """Refuse ``what`` (built-in APIs, storage versions) for a component that serves no API."""
    if component != KUBE_APISERVER:
        raise KcompatError(f"{what} are kube-apiserver's only: {component} serves no API (ask with --component kube-apiserver)")
