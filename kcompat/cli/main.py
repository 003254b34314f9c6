"""``kcompat``: the command-line front end. Parses the arguments, hands them to the subcommand's
module with the catalog, and turns what goes wrong into a message and an exit status.

Every subcommand is a module of this package with one contract (:mod:`kcompat.cli.contract`:
``register`` its arguments, ``run`` with the catalog it is given, return an
:class:`~kcompat.cli.contract.ExitStatus`). A module is imported only when its subcommand runs.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Iterable, Iterator
from types import ModuleType

from kcompat.cli.contract import ExitStatus
from kcompat.core.errors import MESSAGE_LIMIT, KcompatError, cut, echo, terminal_text
from kcompat.data.catalog import DEFAULT_CATALOG, Catalog

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing: 2.6 ms of every start)
if TYPE_CHECKING:
    from typing import Any, TextIO


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter, sized as ``shutil.get_terminal_size`` would, without importing
    shutil (and lzma, bz2...) on every start: argparse builds a formatter for each argument."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, _terminal_columns() - 2 if width is None else width)


def _terminal_columns() -> int:
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns if sys.__stdout__ is not None else 0
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]  # argparse's own keywords, passed on

    def error(self, message: str) -> None:  # type: ignore[override]  # exit 2 with one line, as argparse does, but no usage dump
        # argparse echoes the offending value whole ("invalid choice: '…'"): cut like every echo
        # ("unrecognized arguments: …"): cut and rendered like every echo, so a line break or an
        # escape sequence in a value is shown, not obeyed
        self.exit(ExitStatus.REFUSED, f"kcompat: error: {' '.join(echo(word) for word in message.split(' '))}\n")


#: Every subcommand: its name, its module in this package and its one-line help, in the order
#: ``kcompat --help`` lists them.
COMMANDS = (
    ("gates", "gates", "effective feature gates of a binary at an emulated version"),
    ("gate", "gate", "one feature gate: its state, its specs, every bundled release and what each changed"),
    ("timeline", "timeline", "every gate's stages across releases, as the Timeline page draws them"),
    ("versions", "versions", "allowed emulated and min compatibility versions of a binary"),
    ("plan", "plan", "stepwise upgrade path with emulation, and what each step changes"),
    ("rehearse", "rehearse", "the rollback rehearsed on your own binaries: B-1, B emulating B-1, back to B-1, every object read back"),
    ("apis", "apis", "built-in APIs served at an emulated version"),
    ("storage", "storage", "storage version of each built-in resource at an emulated version"),
    ("skew", "skew", "versions other components may run against a kube-apiserver at an emulated version"),
    ("inspect", "inspect", "what a cluster's files say, the prediction, and where /metrics disagrees"),
    ("config", "config", "flags and kubeadm/kind/static pod snippets for a selection"),
    ("changes", "changes", "gates that differ between B at E and the native binary, the real release E or another release"),
    ("matrix", "matrix", "every gate in every bundled release, and what each release changed"),
    ("scan", "scan", "manifests' objects a kube-apiserver would not serve for a selection (exit 1), and the nearest served version"),
    ("serve", "serve", "the dashboard on http://localhost:8501 (or --port), with the project's Streamlit settings (the dashboard extra)"),
    ("screenshots", "screenshots", "PNG screenshots of every page (the screenshots extra and chromium)"),
    ("data", "data", "the bundled data"),
)
_MODULES = {name: module for name, module, _ in COMMANDS}
#: The subcommands that take a pasted command line after ``--``.
_TAKE_COMMAND_LINE = ("gates", "apis", "config")
#: Subcommands that only read data and write to stdout and stderr: after them the ``kcompat``
#: script ends the process without tearing the interpreter down (see :func:`run`).
_QUICK_EXIT = frozenset({"gates", "gate", "timeline", "versions", "plan", "apis", "storage", "skew", "changes", "matrix", "scan"})


def subcommand(name: str) -> ModuleType:
    """The module of subcommand ``name`` (imported now: building the parser of another one, or
    running it, does not import it)."""
    return importlib.import_module(f"kcompat.cli.{_MODULES[name]}")


def _command_of(argv: list[str] | None) -> str:
    """The subcommand named on the command line (its first word), or "" for none (``--version``,
    ``--help``, a misspelt command: no subcommand's arguments are needed to answer those)."""
    words = sys.argv[1:] if argv is None else argv
    first = next((w for w in words if not w.startswith("-")), "")
    return first if first in _MODULES else ""


def build_parser(only: str | None = None, catalog: Catalog = DEFAULT_CATALOG) -> argparse.ArgumentParser:
    """The whole parser; with ``only`` "" a parser whose subcommands carry their help line but no
    arguments (for ``--help`` and errors that list them); with ``only`` a subcommand, a parser of
    that subcommand alone: a command then builds and imports what its own arguments need and
    nothing else (each parser argparse builds costs time on every start)."""
    parser = _Parser(prog="kcompat", description="Kubernetes compatibility versions: what a binary emulating an older release enables.")
    parser.add_argument("--version", action=_VersionAction, catalog=catalog, help="print the version and the bundled releases, then exit")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, _, help_text in COMMANDS:
        if only and only != name:
            continue
        command = sub.add_parser(name, help=help_text)
        if only is None or only == name:
            subcommand(name).register(command)
            # every subcommand reads its repeated flags in one pass (10,000 --binary or
            # --feature-gates cost what one does) and refuses a flood of other option words
            from kcompat.cli.cmdline import fold_repeated_options

            fold_repeated_options(command)
    return parser


class _VersionAction(argparse.Action):
    """``--version``: the package version and the releases of the bundled data."""

    def __init__(self, option_strings: list[str], catalog: Catalog, dest: str = argparse.SUPPRESS, help: str | None = None) -> None:  # noqa: A002 - argparse's keyword
        super().__init__(option_strings=option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0, help=help)
        self.catalog = catalog

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object, option_string: str | None = None) -> None:
        from kcompat.cli.data import version_text

        sys.stdout.write(version_text(self.catalog))  # on stdout, as argparse's own "version" action
        parser.exit(ExitStatus.OK)


class _Guarded:
    """One of the CLI's text streams (stdout, stderr) behind the one guard of what it writes:
    every secret the process has read (:mod:`kcompat.data.secrets`) replaced by "[redacted]",
    and every character that could drive the terminal (escape sequences, carriage returns,
    bidirectional marks: :func:`kcompat.core.errors.terminal_text`) written visibly. Messages
    render the values they embed themselves (a line break inside a name must not start a line);
    this guard is what keeps a forgotten path, or a traceback, safe. Text without either costs
    one pass in C."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        secrets = sys.modules.get("kcompat.data.secrets")  # not imported: nothing was kept (and no import on the fast path)
        if secrets is not None and secrets.any_kept():
            text = secrets.redact(text)
        self._stream.write(terminal_text(text))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, fileno, isatty, encoding, buffer...: the stream's own
        return getattr(self._stream, name)


@contextlib.contextmanager
def guarded_streams() -> Iterator[None]:
    """stdout and stderr behind :class:`_Guarded` while the block runs (already guarded: as they are)."""
    with contextlib.ExitStack() as stack:  # the standard library's own redirection, undone on the way out
        if sys.stdout is not None and not isinstance(sys.stdout, _Guarded):
            stack.enter_context(contextlib.redirect_stdout(_Guarded(sys.stdout)))
        if sys.stderr is not None and not isinstance(sys.stderr, _Guarded):
            stack.enter_context(contextlib.redirect_stderr(_Guarded(sys.stderr)))
        yield


def main(argv: list[str] | None = None, catalog: Catalog = DEFAULT_CATALOG) -> int:
    """``kcompat ARGV``: the exit status (an :class:`ExitStatus`, or 128 + N when stopped by signal N).
    Everything it writes passes :class:`_Guarded`."""
    with guarded_streams():  # argparse's --help and errors are written inside too (its SystemExit passes through)
        return _main(argv, catalog)


def _main(argv: list[str] | None, catalog: Catalog) -> int:
    words = sys.argv[1:] if argv is None else argv
    if not words:  # no arguments: the usage and the subcommands, not an argparse error
        build_parser("", catalog).print_help(sys.stdout)
        return ExitStatus.OK
    args = build_parser(_command_of(argv), catalog).parse_args(argv)
    from kcompat.cli.signals import Stopped, signals_as_interrupts

    try:
        with signals_as_interrupts():  # SIGTERM and SIGHUP clean up as Ctrl-C does
            if args.command in _TAKE_COMMAND_LINE:
                from kcompat.cli.cmdline import apply_command_line

                apply_command_line(args, args.command)
            return ExitStatus(subcommand(args.command).run(args, catalog))
    except KcompatError as exc:
        return _fail(str(exc))
    except BrokenPipeError:  # the reader went away (`kcompat gates | head`): nothing left to say
        _silence_stdout()
        return ExitStatus.REFUSED
    except OSError as exc:
        where = f" {cut(exc.filename, 200)}" if getattr(exc, "filename", None) else ""
        return _fail(f"cannot use{where}: {exc.strerror or exc}")
    except Stopped as exc:
        return _fail(f"stopped by {exc.name}", exc.exit_status)
    except KeyboardInterrupt:
        return _fail("interrupted", ExitStatus.INTERRUPTED)
    except Exception as exc:  # noqa: BLE001 - the last line of defence: a message, never a traceback
        if os.environ.get("KCOMPAT_DEBUG"):
            import traceback

            traceback.print_exc(file=sys.stderr)  # through the guard: secrets read are replaced there too
            return ExitStatus.REFUSED
        # the type only: the text of an exception nobody expected may hold anything given to it (a
        # header value with its token, a URL with its password); KCOMPAT_DEBUG=1 shows it
        return _fail(f"unexpected {type(exc).__name__} (set KCOMPAT_DEBUG=1 to see its message and where)")


class _EndAtOnce:
    """The ``kcompat`` script's last ``atexit`` handler: once every other handler has run (atexit
    runs the last registered first, and this one is registered before the command runs) and
    stdout and stderr are flushed, the process ends without tearing the interpreter down."""

    def __init__(self) -> None:
        self.status: int | None = None  # set when the command is one of _QUICK_EXIT

    def __call__(self) -> None:
        threading = sys.modules.get("threading")
        if self.status is None or (threading is not None and threading.active_count() > 1):
            return
        try:
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:  # None: started with that descriptor closed
                    stream.flush()
        except (OSError, ValueError):
            return  # the normal exit reports it, as Python always does
        os._exit(self.status)


def run() -> None:
    """The ``kcompat`` script: :func:`main`, then the exit.

    Tearing the interpreter down (freeing every module, class and object one by one) takes about
    as long as a ``kcompat gates`` answer. After a subcommand of :data:`_QUICK_EXIT` nothing is
    left to do once the ``atexit`` handlers have run and stdout and stderr are flushed: the
    process then ends at once (:class:`_EndAtOnce`, an ``atexit`` handler itself, registered
    before the command so that it runs after every handler the command registers). The normal
    exit is kept for another thread still running, a flush that fails (reported as Python always
    does), any other subcommand, and ``--help`` or an argument error (argparse exits itself). The
    same subcommands run with the garbage collector at a slower pace (see below)."""
    import atexit
    import gc

    if _command_of(None) in _QUICK_EXIT:
        # a quick command builds some 100,000 small objects and keeps them to its end: at the
        # collector's default pace (a pass every 700 new objects) that is 20 passes that free
        # nothing, 2 ms of a 45 ms `kcompat gates`; one pass per 50,000 is none in such a call
        gc.set_threshold(50_000, 10, 10)
    end = _EndAtOnce()
    atexit.register(end)
    status = main()
    if _command_of(None) in _QUICK_EXIT:
        end.status = int(status)
    raise SystemExit(status)


def _fail(message: str, status: int = ExitStatus.REFUSED) -> int:
    """Print one error (cut: it may echo user input at any length) and return the exit status."""
    with contextlib.suppress(OSError):
        print(f"kcompat: error: {cut(message, MESSAGE_LIMIT)}", file=sys.stderr)
    return status


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass



if __name__ == "__main__":  # pragma: no cover
    run()
