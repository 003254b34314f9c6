"""One customisation of the Streamlit server: what it needs of Streamlit, checked before it applies."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class PatchResult:
    name: str
    applied: bool
    #: what it does, or why it could not apply
    detail: str


@dataclass(frozen=True)
class Patch:
    """A customisation: ``needs`` names what it changes or reads in Streamlit (``module:Class.attr``),
    each checked to exist before ``apply`` runs; ``apply`` returns what it did."""

    name: str
    needs: tuple[str, ...]
    apply: Callable[[], str]

    def missing(self) -> list[str]:
        """The names of ``needs`` the installed Streamlit does not have."""
        return [need for need in self.needs if not exists(need)]

    def install(self) -> PatchResult:
        missing = self.missing()
        if missing:
            return PatchResult(self.name, False, f"Streamlit {streamlit_version()} has no {', '.join(missing)}")
        try:
            return PatchResult(self.name, True, self.apply())
        except Exception as exc:  # noqa: BLE001 - a patch that fails is reported, never fatal to the server
            return PatchResult(self.name, False, f"{type(exc).__name__}: {exc}")


def exists(need: str) -> bool:
    """Whether ``module:Attr.attr`` names something (the module imports, each attribute is there)."""
    module_name, _, path = need.partition(":")
    try:
        target: object = importlib.import_module(module_name)
    except ImportError:
        return False
    for part in path.split(".") if path else ():
        if not hasattr(target, part):
            return False
        target = getattr(target, part)
    return True


def streamlit_version() -> str:
    try:
        import streamlit
    except ImportError:
        return "(not installed)"
    return str(getattr(streamlit, "__version__", "?"))
