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


def apply_command_line(args: argparse.Namespace, command: str) -> None:
    """Move the pasted line's flags into ``args`` (in place); a clear error for anything else."""
    words = list(getattr(args, "command_line", None) or [])
    if not words:
        return
    from kcompat.core.inspect.cmdline import component_of, flags_from_args
    from kcompat.core.inspect.model import Where

    component = component_of(words[0])
    if component is not None:
        words = words[1:]
    elif not words[0].startswith("-"):
        raise KcompatError(
            f"kcompat {command} takes no argument {cut(words[0])!r}; paste a command line after --: "
            f"kcompat {command} --binary 1.33 -- kube-apiserver --emulated-version=1.31"
        )
    flag_set = flags_from_args(words, component or "kube-apiserver", Where("the pasted command line"))
    ignored = []
    for name, fact in flag_set.flags:
        dest = _DESTS[name]
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


def _appends(dest: str, command: str) -> bool:
    """Whether the subcommand's option is repeatable (argparse ``append``: None until given)."""
    return command in ("gates", "apis") and dest in ("emulated", "min_compat", "feature_gates", "runtime_config")
