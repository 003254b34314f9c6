"""``kcompat``: the command-line front end. Parses arguments, asks the core, formats.

Exit status: 0 valid, 2 rejected input (with a message, never a traceback).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

from kcompat.documents import formats
from kcompat.data.catalog import DEFAULT_CATALOG, Catalog
from kcompat.core.errors import MESSAGE_LIMIT, KcompatError, cut


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter, sized as ``shutil.get_terminal_size`` would, without importing
    shutil (and lzma, bz2...) on every start: argparse builds a formatter for each argument."""

    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        if width is None:
            width = _terminal_columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def _terminal_columns() -> int:
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # exit 2 with a one-line message, as argparse does, but no usage dump
        # argparse echoes the offending value whole ("invalid choice: '…'"): cut like every echo
        self.exit(2, f"kcompat: error: {' '.join(cut(word) for word in message.split(' '))}\n")


#: Every subcommand and its one-line help, in the order ``kcompat --help`` lists them.
COMMANDS = (
    ("gates", "effective feature gates of a binary at an emulated version"),
    ("versions", "allowed emulated and min compatibility versions of a binary"),
    ("plan", "stepwise upgrade path with emulation, and what each step changes"),
    ("apis", "built-in APIs served at an emulated version"),
    ("inspect", "what a cluster's files say, the prediction, and where /metrics disagrees"),
    ("config", "flags and kubeadm/kind/static pod snippets for a selection"),
    ("storage", "storage version of each built-in resource at an emulated version"),
    ("changes", "gates that differ between B at E and the native binary, the real release E or another release"),
    ("matrix", "every gate in every bundled release, and what each release changed"),
    ("serve", "the dashboard on http://localhost:8501 (or --port), with the project's Streamlit settings"),
    ("screenshots", "PNG screenshots of every page (needs the test extra and chromium)"),
    ("data", "the bundled data"),
)


def _command_of(argv: list[str] | None) -> str:
    """The subcommand named on the command line (its first word), or "" for none (``--version``,
    ``--help``, a misspelt command: no subcommand's arguments are needed to answer those)."""
    words = sys.argv[1:] if argv is None else argv
    first = next((w for w in words if not w.startswith("-")), "")
    return first if first in dict(COMMANDS) else ""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with ``only`` "" a parser whose subcommands carry their help line but no
    arguments (for ``--help`` and errors that list them); with ``only`` a subcommand, a parser of
    that subcommand alone: a command then builds and imports what its own arguments need and
    nothing else (each parser argparse builds costs time on every start)."""
    parser = _Parser(prog="kcompat", description="Kubernetes compatibility versions: what a binary emulating an older release enables.")
    parser.add_argument("--version", action=_VersionAction, help="print the version and the bundled releases, then exit")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, help_text in COMMANDS:
        if only and only != name:
            continue
        command = sub.add_parser(name, help=help_text)
        if only is None or only == name:
            _ADD_ARGUMENTS[name](command)
    return parser


def _add_gates(g: argparse.ArgumentParser) -> None:
    g.add_argument("--binary", help="binary version, e.g. 1.36 or v1.36.2 (default: newest bundled release)")
    g.add_argument("--emulated", "--emulated-version", action="append", help="--emulated-version value (default: the binary's own release)")
    g.add_argument("--min-compat", "--min-compatibility-version", action="append", help="--min-compatibility-version value (binaries 1.35+)")
    g.add_argument("--feature-gates", action="append", help="--feature-gates value, e.g. 'AllAlpha=true,Foo=false'")
    g.add_argument("--manifest", type=Path, help="a versioned_feature_list.yaml replacing the bundled data")
    g.add_argument("--format", choices=formats.FORMATS, default="table")
    g.add_argument("--search", metavar="TEXT",
                   help="only the gates TEXT finds: part of the name, an abbreviation (DRA), a KEP number (4381, KEP-4381) or description words")
    g.add_argument("--show-defaults", action="store_true",
                   help="print the gate table even when the binary would refuse the input (JSON always has it)")
    from kcompat.cli.cmdline import add_command_line_argument
    from kcompat.cli.components import add_component_argument

    add_component_argument(g, pasted=True)
    add_command_line_argument(g)


def _add_versions(v: argparse.ArgumentParser) -> None:
    from kcompat.cli.components import add_component_argument

    v.add_argument("--binary", required=True)
    v.add_argument("--format", choices=("table", "json"), default="table")
    add_component_argument(v)


def _add_plan(p: argparse.ArgumentParser) -> None:
    p.add_argument("--from", dest="start", required=True, metavar="B[@E]", help="current binary, optionally @ its emulated version, e.g. 1.33@1.32")
    p.add_argument("--to", dest="target", required=True, metavar="B", help="target binary release, e.g. 1.36")
    p.add_argument(
        "--allow-multi-minor",
        action="store_true",
        help="let a binary step skip minor releases (outside the Version Skew Policy: such steps are marked unsupported)",
    )
    p.add_argument("--format", choices=("markdown", "json"), default="markdown")


class _Lazy:
    """A subcommand whose module is imported only when it is used."""

    __slots__ = ("module", "add_arguments", "run", "takes_catalog")

    def __init__(self, module: str, add_arguments: str, run: str, takes_catalog: bool = False):
        self.module = module
        self.add_arguments = add_arguments  # the module's function that adds the subcommand's arguments
        self.run = run  # the module's function that runs it
        self.takes_catalog = takes_catalog

    def function(self, name: str):
        return getattr(importlib.import_module(self.module, __package__), name)


_LAZY_COMMANDS = {
    "apis": _Lazy(".apis", "add_apis_arguments", "run_apis"),
    "inspect": _Lazy(".inspect", "add_inspect_arguments", "run_inspect", takes_catalog=True),
    "config": _Lazy(".inspect", "add_config_arguments", "run_config", takes_catalog=True),
    "storage": _Lazy(".storage", "add_storage_arguments", "run_storage"),
    "changes": _Lazy(".changes", "add_changes_arguments", "run_changes", takes_catalog=True),
    "matrix": _Lazy(".matrix", "add_matrix_arguments", "run_matrix", takes_catalog=True),
    "serve": _Lazy(".serve", "add_serve_arguments", "run_serve"),
    "screenshots": _Lazy(".screenshots", "add_screenshot_arguments", "run_screenshots"),
}


def _add_data(parser: argparse.ArgumentParser) -> None:
    data_sub = parser.add_subparsers(dest="data_command", required=True, parser_class=_Parser)
    from kcompat.refresh import add_refresh_arguments

    add_refresh_arguments(data_sub.add_parser("refresh", help="rebuild data/ from the recordings of the real releases (data/oracle/)"))
    from kcompat.cli.data import add_compile_arguments

    add_compile_arguments(data_sub.add_parser("compile", help="rebuild data/bundle.json, the precomputed form of the YAML data"))


_ADD_ARGUMENTS = {
    "gates": _add_gates,
    "versions": _add_versions,
    "plan": _add_plan,
    "data": _add_data,
    **{name: (lambda parser, lazy=lazy: lazy.function(lazy.add_arguments)(parser)) for name, lazy in _LAZY_COMMANDS.items()},
}


class _VersionAction(argparse.Action):
    """``--version``: the package version and the releases of the bundled data."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from kcompat.cli.data import version_text

        parser._print_message(version_text(), sys.stdout)  # on stdout, as argparse's own "version" action
        parser.exit(0)


#: The subcommands that take a pasted command line after ``--``.
_TAKE_COMMAND_LINE = ("gates", "apis", "config")


def main(argv: list[str] | None = None, catalog: Catalog = DEFAULT_CATALOG) -> int:
    words = sys.argv[1:] if argv is None else argv
    if not words:  # no arguments: the usage and the subcommands, not an argparse error
        build_parser("").print_help(sys.stdout)
        return 0
    args = build_parser(_command_of(argv)).parse_args(argv)
    from kcompat.cli.signals import Stopped, signals_as_interrupts

    try:
        with signals_as_interrupts():  # SIGTERM and SIGHUP clean up as Ctrl-C does
            return _run_command(args, catalog)
    except KcompatError as exc:
        return _fail(str(exc))
    except BrokenPipeError:  # the reader went away (`kcompat gates | head`): nothing left to say
        _silence_stdout()
        return 2
    except OSError as exc:
        where = f" {cut(exc.filename, 200)}" if getattr(exc, "filename", None) else ""
        return _fail(f"cannot use{where}: {exc.strerror or exc}")
    except Stopped as exc:
        return _fail(f"stopped by {exc.name}", exc.exit_status)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except Exception as exc:  # noqa: BLE001 - the last line of defence: a message, never a traceback
        if os.environ.get("KCOMPAT_DEBUG"):
            raise
        return _fail(f"unexpected {type(exc).__name__}: {exc} (set KCOMPAT_DEBUG=1 to see where)")


def _run_command(args: argparse.Namespace, catalog: Catalog) -> int:
    """The subcommand ``args`` names; its exit status."""
    if args.command in _TAKE_COMMAND_LINE:
        from kcompat.cli.cmdline import apply_command_line

        apply_command_line(args, args.command)
    if args.command == "gates":
        from kcompat.cli.gates import run_gates

        return run_gates(args, catalog)
    if args.command == "versions":
        return run_versions(args, catalog)
    if args.command == "plan":
        return run_plan(args, catalog)
    if args.command in _LAZY_COMMANDS:
        lazy = _LAZY_COMMANDS[args.command]
        run = lazy.function(lazy.run)
        return run(args, catalog) if lazy.takes_catalog else run(args)
    if args.command == "data":
        if args.data_command == "compile":
            from kcompat.cli.data import run_compile

            return run_compile(args)
        from kcompat.refresh import run_refresh

        return run_refresh(args)
    return 2


#: Subcommands that only read data and write to stdout and stderr: after them the ``kcompat``
#: script ends the process without tearing the interpreter down (see :func:`run`).
_QUICK_EXIT = frozenset({"gates", "versions", "plan", "apis", "storage", "changes", "matrix"})


def run() -> None:
    """The ``kcompat`` script: :func:`main`, then the exit.

    Tearing the interpreter down (freeing every module, class and object one by one) takes about
    as long as a ``kcompat gates`` answer. After a subcommand of :data:`_QUICK_EXIT`, once stdout
    and stderr are flushed, nothing is left to do: the process ends at once (``os._exit``). The
    normal exit is kept whenever something could still need it: an ``atexit`` handler, another
    thread, a flush that fails (reported as Python always does), any other subcommand, and
    ``--help`` or an argument error (argparse exits itself)."""
    code = main()
    if _command_of(None) in _QUICK_EXIT and _nothing_left_at_exit():
        try:
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:  # None: started with that descriptor closed
                    stream.flush()
        except (OSError, ValueError):
            raise SystemExit(code) from None
        os._exit(code)
    raise SystemExit(code)


def _nothing_left_at_exit() -> bool:
    """No ``atexit`` handler registered and no other thread running."""
    import atexit

    pending = getattr(atexit, "_ncallbacks", None)  # CPython; elsewhere the normal exit
    if pending is None or pending():
        return False
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1


def _fail(message: str, code: int = 2) -> int:
    """Print one error (cut: it may echo user input at any length) and return the exit status."""
    try:
        print(f"kcompat: error: {cut(message, MESSAGE_LIMIT)}", file=sys.stderr)
    except OSError:
        pass
    return code


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def run_versions(args: argparse.Namespace, catalog: Catalog = DEFAULT_CATALOG) -> int:
    from kcompat.answers.versions import versions
    from kcompat.documents.versions import versions_document

    answer = versions(catalog, args.binary, args.component)
    info = versions_document(answer.allowed, answer.bundled, answer.warnings, answer.component)
    if args.format == "json":
        sys.stdout.write(formats.to_json(info))
        return 0
    low, high = info["emulatedRange"]
    for warning in info["warnings"]:
        print(f"warning: {warning}", file=sys.stderr)
    named = "" if info["component"] == "kube-apiserver" else f"{info['component']}, "
    print(f"binary {info['binary']} ({named}release {info['release']}{'' if info['bundled'] else ', no bundled data'})")
    print(f"--emulated-version: {low}..{high} (default {info['defaultEmulated']})")
    flag = "yes" if info["minCompatibilityFlag"] else "no (fixed to the default)"
    print(f"--min-compatibility-version flag: {flag}")
    rows = [
        {"emulated": e["emulated"], "default min compat": e["defaultMinCompatibility"], "allowed min compat": ", ".join(e["minCompatibility"])}
        for e in info["emulated"]
    ]
    sys.stdout.write(formats.rows_to_table(rows, ["emulated", "default min compat", "allowed min compat"]))
    return 0


def run_plan(args: argparse.Namespace, catalog: Catalog) -> int:
    from kcompat.answers.plan import plan_for
    from kcompat.documents.plan import plan_document, plan_markdown

    plan = plan_for(catalog, args.start, args.target, args.allow_multi_minor)
    if args.format == "json":
        sys.stdout.write(formats.to_json(plan_document(plan)))
    else:
        sys.stdout.write(plan_markdown(plan))
    return 0


if __name__ == "__main__":  # pragma: no cover
    run()
