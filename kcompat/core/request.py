"""One question's selection as one value: the binary and the flags it is started with.

Every answer about a selection (:mod:`kcompat.answers`) takes a :class:`Request`: ``kcompat``'s
subcommands build one from their options (:func:`kcompat.cli.options.request_from`), the dashboard
from its selection (:attr:`dashboard.state.selection.Selection.request`). It is frozen and
hashable, so it is the cache key of an answer as it is.

Pure: no I/O, and cheap to import (the options' type is only named).
"""

from __future__ import annotations

from kcompat.core.components import KUBE_APISERVER
from kcompat.core.record import Record, set_field

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from collections.abc import Sequence

    from kcompat.core.startup import ApiserverOptions

#: A flag as the request holds it: every value it was given, in order (a repeated flag has several),
#: or None when it was not given.
Flag = tuple[str, ...] | None


def flag(value: str | Sequence[str] | None) -> Flag:
    """``value`` as a request holds it: None for a flag not given (None, "" or no value), else the
    tuple of its values as given (one string is one value)."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return (value,)
    return tuple(value) or None


def values(value: Flag) -> list[str] | None:
    """A flag's values as the engine takes them (a repeated flag's list), None when not given."""
    return list(value) if value is not None else None


def joined(value: Flag) -> str | None:
    """A flag's values as one comma-separated value (how the binary adds up a repeated map flag),
    None when not given."""
    return ",".join(value) if value is not None else None


class Request(Record):
    """A binary and the flags it is started with. Every flag is None when not given (the binary's
    default applies) and otherwise the tuple of its values as given: the engine reads them as the
    binary's flag parser does, so the errors are the binary's own."""

    __slots__ = (
        "binary",
        "component",
        "emulated",
        "emulation_forward_compatible",
        "feature_gates",
        "min_compat",
        "options",
        "runtime_config",
        "runtime_config_emulation_forward_compatible",
    )
    #: the binary's version as the engine takes it: a release ("1.36") or a patch ("1.35.2"); None:
    #: not given (a manifest stands alone, or the answer takes the newest bundled release)
    binary: str | None
    emulated: Flag
    min_compat: Flag
    feature_gates: Flag
    runtime_config: Flag
    emulation_forward_compatible: bool
    runtime_config_emulation_forward_compatible: bool
    #: kube-apiserver's other options its start-up checks read; None: its defaults
    options: ApiserverOptions | None
    #: the control-plane component whose own gate set answers
    component: str

    def __init__(
        self, binary: str | None = None, emulated: Flag = None, min_compat: Flag = None, feature_gates: Flag = None,
        runtime_config: Flag = None, emulation_forward_compatible: bool = False,
        runtime_config_emulation_forward_compatible: bool = False, options: ApiserverOptions | None = None,
        component: str = KUBE_APISERVER,
    ) -> None:
        set_field(self, "binary", binary)
        # a string or a list given where a flag's tuple is held is held as that tuple (hashable)
        for name, given in (("emulated", emulated), ("min_compat", min_compat), ("feature_gates", feature_gates),
                            ("runtime_config", runtime_config)):
            set_field(self, name, given if given is None or (isinstance(given, tuple) and given) else flag(given))
        set_field(self, "emulation_forward_compatible", emulation_forward_compatible)
        set_field(self, "runtime_config_emulation_forward_compatible", runtime_config_emulation_forward_compatible)
        set_field(self, "options", options)
        set_field(self, "component", component)

    @classmethod
    def of(
        cls, binary: str | None, emulated: str | Sequence[str] | None = None, min_compat: str | Sequence[str] | None = None,
        feature_gates: str | Sequence[str] | None = None, runtime_config: str | Sequence[str] | None = None, *,
        emulation_forward_compatible: bool = False, runtime_config_emulation_forward_compatible: bool = False,
        options: ApiserverOptions | None = None, component: str = KUBE_APISERVER,
    ) -> Request:
        """A request from the flags as callers have them (see :func:`flag`)."""
        return cls(binary, flag(emulated), flag(min_compat), flag(feature_gates), flag(runtime_config), emulation_forward_compatible,
                   runtime_config_emulation_forward_compatible, options, component)

    def with_(self, **changes: object) -> Request:
        """The same request with ``changes`` (field names as keywords; flags as :meth:`of` takes them)."""
        return self.replace(**changes)

    @property
    def forward_compatible(self) -> bool:
        """Either forward-compatibility flag is set."""
        return self.emulation_forward_compatible or self.runtime_config_emulation_forward_compatible
