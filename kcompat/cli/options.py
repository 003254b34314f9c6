"""Every option more than one subcommand takes, defined once with one help text.

A subcommand's ``register`` adds the ones it takes: ``options.add(parser, options.BINARY,
options.EMULATED, ..., repeat=True)``. Where a subcommand really answers otherwise, it says so at
the call with :meth:`Option.but` (its own ``--format`` choices and default, a required
``--binary``, a note on what the option changes there); the text every subcommand shares stays
here, so two subcommands cannot describe one flag two ways.

``repeat``: the subcommand reads the selection's map flags (``--emulated-version``,
``--min-compatibility-version``, ``--feature-gates``, ``--runtime-config``) as the binary's flag
parser does, every occurrence adding up (argparse ``append``: a list, None until given); without
it the last occurrence wins (one string).
"""

from __future__ import annotations

import argparse

from kcompat.core.components import COMPONENTS, KUBE_APISERVER, parse_component
from kcompat.core.errors import KcompatError

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any, Protocol

    from kcompat.core.request import Request

    class _Container(Protocol):
        """A parser or one of its argument groups."""

        def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action: ...


class Option:
    """One option: its spellings, its help text (``default_help`` says what applies without it,
    ``more`` what it changes in one subcommand) and argparse's other keywords."""

    __slots__ = ("default_help", "flags", "help", "more", "repeatable", "settings")

    def __init__(self, *flags: str, help: str, default_help: str | None = None, more: str | None = None,  # noqa: A002 - argparse's keyword
                 repeatable: bool = False, **settings: Any) -> None:
        self.flags = flags
        self.help = help
        self.default_help = default_help
        self.more = more
        self.repeatable = repeatable  # a map flag: added up when the subcommand reads it with ``repeat``
        self.settings = settings

    def but(self, *, default_help: str | None = None, more: str | None = None, **settings: Any) -> Option:
        """This option as one subcommand takes it: other argparse keywords (``required``,
        ``choices``, ``default``), another default's text, a note of what it changes there."""
        return Option(*self.flags, help=self.help, default_help=self.default_help if default_help is None else default_help,
                      more=self.more if more is None else more, repeatable=self.repeatable, **{**self.settings, **settings})

    def help_text(self, repeat: bool = False) -> str:
        notes = []
        if self.default_help and not self.settings.get("required"):
            notes.append(f"default: {self.default_help}")
        if repeat and self.repeatable:
            notes.append("repeatable")
        more = f"; {self.more}" if self.more else ""
        return f"{self.help}{more}" + (f" ({'; '.join(notes)})" if notes else "")


def add(parser: _Container, *options: Option, repeat: bool = False) -> None:
    """Add ``options`` to a subcommand's parser (or one of its argument groups); ``repeat``: its
    map flags add up (see the module's text)."""
    for option in options:
        settings = dict(option.settings)
        if repeat and option.repeatable:
            settings["action"] = "append"
        parser.add_argument(*option.flags, help=option.help_text(repeat), **settings)


def _component(text: str) -> str:
    try:
        return parse_component(text)
    except KcompatError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


BINARY = Option("--binary", help="binary version, e.g. 1.36 or v1.36.2", default_help="the newest bundled release")
EMULATED = Option("--emulated", "--emulated-version", help="--emulated-version value", default_help="the binary's own release", repeatable=True)
MIN_COMPAT = Option("--min-compat", "--min-compatibility-version", help="--min-compatibility-version value, for binaries 1.35+",
                    default_help="derived from the emulated version", repeatable=True)
FEATURE_GATES = Option("--feature-gates", help="--feature-gates value, e.g. 'AllAlpha=true,Foo=false'", repeatable=True)
RUNTIME_CONFIG = Option("--runtime-config", help="kube-apiserver's --runtime-config value, e.g. 'networking.k8s.io/v1beta1=true'",
                        repeatable=True)
EMULATION_FORWARD_COMPATIBLE = Option("--emulation-forward-compatible", action="store_true",
                                      help="set kube-apiserver's --emulation-forward-compatible=true (1.33+)")
RUNTIME_CONFIG_EMULATION_FORWARD_COMPATIBLE = Option("--runtime-config-emulation-forward-compatible", action="store_true",
                                                     help="set kube-apiserver's --runtime-config-emulation-forward-compatible=true (1.33+)")
#: the forward-compatibility flags, both
FORWARD_COMPATIBLE = (EMULATION_FORWARD_COMPATIBLE, RUNTIME_CONFIG_EMULATION_FORWARD_COMPATIBLE)
COMPONENT = Option("--component", type=_component, default=KUBE_APISERVER, metavar="|".join(COMPONENTS),
                   help="the component whose own gate set answers: each registers its own feature gate", default_help=KUBE_APISERVER)
#: each subcommand names its own choices and default (``FORMAT.but(choices=..., default=...)``)
FORMAT = Option("--format", help="output format", default_help="%(default)s")
SEARCH = Option("--search", metavar="TEXT",
                help="only the gates TEXT finds: part of the name, an abbreviation (DRA), a KEP number (4381, KEP-4381) or description words")
SHOW_DEFAULTS = Option("--show-defaults", action="store_true",
                       help="print the table even when the binary would refuse the input (JSON always has it)")
KUBECONFIG = Option("--kubeconfig", help="kubeconfig file for --live", default_help="$KUBECONFIG, else ~/.kube/config, as kubectl")
CONTEXT = Option("--context", help="kubeconfig context for --live", default_help="the current one")

# What a shared option changes in the subcommands where it answers otherwise (``Option.but``):
#: ``--component``'s default where a command line may be pasted after ``--``
PASTED_COMPONENT = f"the pasted command line's program, else {KUBE_APISERVER}"
#: ``--component`` where only kube-apiserver answers
APISERVER_ONLY = f"only {KUBE_APISERVER} serves APIs (the others are refused with a message)"
#: ``--component`` where every component is answered for without it
EVERY_COMPONENT = "every control-plane component, each checked with its own gate set"
#: ``--feature-gates`` where the built-in APIs are the answer
REST_STORAGE_GATES = "decides the REST storage kube-apiserver installs only while a gate is on"
#: ``--feature-gates`` and ``--runtime-config`` of an upgrade plan
KEPT_THROUGH_UPGRADE = "kept through the upgrade"


def request_from(args: argparse.Namespace) -> Request:
    """The selection a subcommand's options give (:class:`kcompat.core.request.Request`): the one
    place the options become the value every answer takes. An option the subcommand does not have
    is not given; ``--component`` not given is kube-apiserver. kube-apiserver's options that are
    not read as given raise :class:`KcompatError` (as kube-apiserver refuses them)."""
    from kcompat.core.request import Request

    options = None
    if getattr(args, "apiserver_flags", None):
        from kcompat.cli.cmdline import apiserver_options

        options = apiserver_options(args)
    return Request.of(
        getattr(args, "binary", None), getattr(args, "emulated", None), getattr(args, "min_compat", None),
        getattr(args, "feature_gates", None), getattr(args, "runtime_config", None),
        emulation_forward_compatible=bool(getattr(args, "emulation_forward_compatible", False)),
        runtime_config_emulation_forward_compatible=bool(getattr(args, "runtime_config_emulation_forward_compatible", False)),
        options=options, component=getattr(args, "component", None) or KUBE_APISERVER,
    )
