"""``--component``: which control-plane component's gate set a subcommand answers with."""

from __future__ import annotations

import argparse

from kcompat.core.components import COMPONENTS, KUBE_APISERVER, parse_component
from kcompat.core.errors import KcompatError


def _component(text: str) -> str:
    try:
        return parse_component(text)
    except KcompatError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_component_argument(
    parser: argparse.ArgumentParser, apiserver_only: bool = False, every: bool = False, help_text: str | None = None,
    pasted: bool = False,
) -> None:
    """``--component NAME`` (default kube-apiserver). ``apiserver_only``: the subcommand answers for
    kube-apiserver alone (built-in APIs, storage versions) and refuses the others with a message;
    ``every``: without the option the subcommand answers otherwise (default None: every component,
    or the one its input names), ``help_text`` saying how. ``pasted``: the subcommand takes a pasted
    command line, whose program is the component when the option is not given (default None,
    resolved by :func:`kcompat.cli.cmdline.apply_command_line`)."""
    if help_text is not None:
        pass
    elif apiserver_only:
        help_text = "the component asked about; only kube-apiserver serves APIs (the others are refused with a message)"
    elif every:
        help_text = "only this component's flags, checked with its own gate set (default: every control-plane component, each checked with its own)"
    else:
        help_text = f"the component whose own gate set answers: each registers its own feature gate (default: {KUBE_APISERVER})"
    parser.add_argument("--component", type=_component, default=None if every or pasted else KUBE_APISERVER,
                        metavar="|".join(COMPONENTS), help=help_text)
