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
from collections.abc import Sequence

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
        flags = getattr(namespace, "apiserver_flags", None)
        if flags is None:  # (the default is None: each parse gets its own list, added to in place)
            namespace.apiserver_flags = flags = []
        flags.append((name, values))


#: Option words (before ``--``) a subcommand reads, once its repeated flags are folded
#: (:func:`fold_repeated_options`): argparse looks for the next option over all the ones left at
#: each option, so its parse grows with their square (10,000 took 2.7 s of CPU; 1,000 take 0.03 s).
MAX_OPTION_WORDS = 1_000

#: The selection's flags a command line may repeat (pflag reads each one: ``--feature-gates`` and
#: ``--runtime-config`` add up, a version flag's values add up to one map), by their spellings.
#: Each is one plain value (no choices, no type) in every subcommand that has it.
FOLDED = ("--feature-gates", "--runtime-config", "--emulated", "--emulated-version", "--min-compat", "--min-compatibility-version", "--binary")


def fold_repeated_options(parser: argparse.ArgumentParser) -> None:
    """Read the repeated selection flags (:data:`FOLDED`) in one pass before argparse sees the
    rest, so that 10,000 ``--feature-gates`` cost what one long value costs, not 10,000 squared;
    then refuse more than :data:`MAX_OPTION_WORDS` other option words. The answer is argparse's
    own: the last occurrence of each flag is left to it, and the ones before it are put in front
    of what it gives when the flag is repeatable (``append``: a list), dropped when it is not (the
    last one wins). A flag argparse has to read every time (an abbreviation of it, a value
    starting with ``-``) is left to it whole; one the subcommand does not have is then refused
    by argparse as before. (argparse's ``append`` also copies its list at every value.)"""
    parse = parser.parse_known_args

    def parse_known_args(args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        words = list(sys.argv[1:] if args is None else args)
        rest, folded = _fold(words)
        end = rest.index("--") if "--" in rest else len(rest)
        options = sum(1 for word in rest[:end] if word.startswith("-") and word != "-")
        if options > MAX_OPTION_WORDS:
            parser.error(f"{options:,} options before --, more than the {MAX_OPTION_WORDS:,} one command reads "
                         "(a repeatable flag such as --feature-gates may be given any number of times)")
        result, extras = parse(rest, namespace)
        for dest, values in folded.items():
            given = getattr(result, dest, None)
            if isinstance(given, list):  # repeatable: the earlier values, then argparse's (the last one's)
                setattr(result, dest, [*values, *given])
        return result, extras

    parser.parse_known_args = parse_known_args  # type: ignore[method-assign,assignment]  # this parser's own parse, the folding first


def _dest(option: str) -> str:
    return {"--emulated-version": "emulated", "--min-compatibility-version": "min_compat"}.get(option, option[2:].replace("-", "_"))


def _fold(words: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """(the words argparse still reads, dest -> the values read here, of every occurrence of a
    :data:`FOLDED` flag before its last one)."""
    end = words.index("--") if "--" in words else len(words)
    left: set[str] = set()  # dests argparse reads every time
    last: dict[str, int] = {}  # dest -> the index of its last occurrence
    for i, word in enumerate(words[:end]):
        if not word.startswith("--"):
            continue
        name, eq, _ = word.partition("=")
        if name not in FOLDED:
            left.update(_dest(option) for option in FOLDED if option.startswith(name))  # an abbreviation argparse may expand
            continue
        last[_dest(name)] = i
        if not eq and (i + 1 >= end or words[i + 1].startswith("-")):
            left.add(_dest(name))
    folded: dict[str, list[str]] = {}
    rest: list[str] = []
    i = 0
    while i < end:
        word = words[i]
        name, eq, value = word.partition("=")
        dest = _dest(name) if name in FOLDED else None
        if dest is None or dest in left or last[dest] == i:
            rest.append(word)
            i += 1
            continue
        if not eq:
            value = words[i + 1]
            i += 1
        folded.setdefault(dest, []).append(value)
        i += 1
    return [*rest, *words[end:]], folded


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
            if args.apiserver_flags is None:
                args.apiserver_flags = []
            args.apiserver_flags.append((name, fact.value))  # (in place: 10,000 pasted flags are 10,000 appends)
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
        elif isinstance(current, list):
            current.append(fact.value)  # (the parse's own list, added to in place)
        elif current is None and _appends(dest, command):
            setattr(args, dest, [fact.value])
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
