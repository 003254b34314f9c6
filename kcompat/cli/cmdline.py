"""A kube-apiserver (or controller-manager, scheduler) command line pasted after ``--``:
``kcompat gates --binary 1.33 -- kube-apiserver --emulated-version=1.31 --feature-gates=...``.

The words are read by the same reader as ``kcompat inspect`` reads a ps line (pflag's
``--flag=value`` and ``--flag value``, booleans alone); the flags kcompat knows become the
subcommand's own options, added after any given before ``--`` (as the binary reads a repeated
flag). Every other flag of the line is ignored, as inspect ignores it.
"""

from __future__ import annotations

import argparse
import sys

from kcompat.core.errors import KcompatError, cut

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from kcompat.answers.startup import SelectionRefused
    from kcompat.cli.contract import ExitStatus
    from kcompat.core.startup import ApiserverOptions

def exit_status(valid: bool, not_ready: bool = False) -> ExitStatus:
    """REFUSED when the binary refuses the input, NOT_READY when kube-apiserver starts with it but
    does not become ready, else OK."""
    from kcompat.cli.contract import ExitStatus

    return ExitStatus.REFUSED if not valid else ExitStatus.NOT_READY if not_ready else ExitStatus.OK


def report_refused(refusal: SelectionRefused, fmt: str) -> ExitStatus:
    """What ``kcompat gate``, ``timeline`` and ``skew`` print for a selection the binary refuses
    (:class:`~kcompat.answers.startup.SelectionRefused`), as ``kcompat gates`` prints its
    refusal: the selection, the binary's errors and the remedies on stderr (at most
    :data:`~kcompat.core.errors.MAX_SHOWN` of each, then "… and N more"); for ``--format json`` a
    document on stdout (``valid`` false, ``verdict`` "refuses", the errors bounded the same way
    with ``errorsOmitted``). Returns REFUSED."""
    from kcompat.cli.contract import ExitStatus
    from kcompat.core.errors import shown
    from kcompat.documents import formats

    if fmt == "json":
        sys.stdout.write(formats.to_json(formats.refused_document(refusal)))
    else:
        summary = formats.selection_summary(refusal.binary, refusal.emulated, refusal.min_compat, refusal.versions_refused)
        formats.report_problems(f"{summary} (refused: no answer)", shown(refusal.warnings), shown(refusal.errors), sys.stderr,
                                shown(refusal.hints))
    return ExitStatus.REFUSED


#: pasted flag -> the subcommand's option (its argparse ``dest``)
_DESTS = {
    "emulated-version": "emulated",
    "min-compatibility-version": "min_compat",
    "feature-gates": "feature_gates",
    "runtime-config": "runtime_config",
    "emulation-forward-compatible": "emulation_forward_compatible",
    "runtime-config-emulation-forward-compatible": "runtime_config_emulation_forward_compatible",
}


def add_command_line_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "command_line", nargs="*", metavar="-- COMMAND LINE",
        help="a pasted command line after --, e.g. -- kube-apiserver --emulated-version=1.31 --feature-gates=Foo=true",
    )


class _OptionFlag(argparse.Action):
    """One of kube-apiserver's option flags (kcompat.core.startup.OPTION_FLAGS): kept as
    ``(flag, value)`` pairs in ``apiserver_flags``, in the order given, as the pasted ones are."""

    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        name = str(option_string).removeprefix("--")
        namespace.apiserver_flags = [*(getattr(namespace, "apiserver_flags", None) or []), (name, values)]


def add_apiserver_option_arguments(parser: argparse.ArgumentParser) -> None:
    """kube-apiserver's flags that its start-up checks read, beside the version, gate and API flags
    (also read from a pasted command line)."""
    from kcompat.core.startup import OPTION_FLAGS

    group = parser.add_argument_group("kube-apiserver options its start-up checks read")
    for flag in OPTION_FLAGS:
        extra = {"nargs": "?", "const": "true", "metavar": "true|false"} if flag.kind == "bool" else {"metavar": "VALUE"}
        group.add_argument(f"--{flag.name}", dest="apiserver_flags", action=_OptionFlag, default=None, help=flag.help, **extra)  # type: ignore[arg-type]


def apiserver_options(args: argparse.Namespace) -> ApiserverOptions:
    """The option flags given (before ``--`` or pasted after it), read as kube-apiserver reads them."""
    from kcompat.core.startup import read_options

    return read_options(getattr(args, "apiserver_flags", None) or ())


def apply_command_line(args: argparse.Namespace, command: str) -> None:  # noqa: C901 - the checks in the order the real code runs them, kept in one place
    """Move the pasted line's flags into ``args`` (in place); a clear error for anything else."""
    words = list(getattr(args, "command_line", None) or [])
    if not words:
        _resolve_component(args, command, None)
        return
    from kcompat.core.inspect.cmdline import component_of, flags_from_args
    from kcompat.core.inspect.model import APISERVER_ONLY, Where

    component = component_of(words[0])
    _resolve_component(args, command, component)
    if component is not None:
        words = words[1:]
    elif not words[0].startswith("-"):
        raise KcompatError(
            f"kcompat {command} takes no argument {cut(words[0])!r}; paste a command line after --: "
            f"kcompat {command} --binary 1.33 -- kube-apiserver --emulated-version=1.31"
        )
    flag_set = flags_from_args(words, component or "kube-apiserver", Where("the pasted command line"))
    if flag_set.refused:  # the binary's flag parser would stop at it: so does the answer
        from kcompat.core.inspect.messages import pflag_error

        error = flag_set.refused[0]
        raise KcompatError(f"{error.where}: {pflag_error(error)}")
    ignored = []
    for name, fact in flag_set.flags:
        if component not in (None, "kube-apiserver") and name in APISERVER_ONLY:
            raise KcompatError(f"unknown flag: --{name} ({component} has no such flag: it is kube-apiserver's)")
        dest = _DESTS.get(name, "apiserver_flags")  # the others: the options kube-apiserver's checks read
        if dest == "apiserver_flags" and hasattr(args, dest):
            args.apiserver_flags = [*(args.apiserver_flags or []), (name, fact.value)]
            continue
        if not hasattr(args, dest):
            ignored.append(f"--{name}")
            continue
        current = getattr(args, dest)
        if isinstance(current, bool) or dest.endswith("forward_compatible"):
            from kcompat.core.flags import parse_go_bool

            value = parse_go_bool(fact.value)
            if value is None:
                raise KcompatError(f'invalid argument "{cut(fact.value)}" for "--{name}" flag: strconv.ParseBool: parsing "{cut(fact.value)}": invalid syntax')
            setattr(args, dest, value)
        elif isinstance(current, list) or (current is None and _appends(dest, command)):
            setattr(args, dest, [*(current or []), fact.value])
        elif current is None or current == fact.value:
            setattr(args, dest, fact.value)
        else:
            raise KcompatError(f"--{name} is given twice: {cut(current)} before -- and {cut(fact.value)} in the pasted command line")
    for name in dict.fromkeys(ignored):
        print(f"note: {name} in the pasted command line does not change what kcompat {command} answers", file=sys.stderr)


def _resolve_component(args: argparse.Namespace, command: str, pasted: str | None) -> None:
    """``--component`` from the option, else the pasted command line's program, else the
    subcommand's default (kube-apiserver; for ``config`` every component). The two must agree."""
    if not hasattr(args, "component"):
        return
    given = args.component
    if pasted is not None and given is not None and given != pasted:
        raise KcompatError(f"--component {given}, but the pasted command line runs {pasted}")
    if pasted == "kubelet":
        raise KcompatError(f"the pasted command line runs the kubelet, which takes no --emulated-version; kcompat {command} answers for "
                           "kube-apiserver, kube-controller-manager and kube-scheduler")
    chosen = given or pasted
    args.component = chosen if chosen is not None or command == "config" else "kube-apiserver"


def _appends(dest: str, command: str) -> bool:
    """Whether the subcommand's option is repeatable (argparse ``append``: None until given)."""
    return command in ("gates", "apis") and dest in ("emulated", "min_compat", "feature_gates", "runtime_config")
