"""The one contract of a ``kcompat`` subcommand, and the exit statuses every subcommand returns.

A module ``kcompat/cli/<module>.py`` is one subcommand (``kcompat.cli.main.COMMANDS`` names it,
its module and its help line) and defines two functions:

``register(parser: argparse.ArgumentParser) -> None``
    adds the subcommand's arguments to its parser (importing nothing the arguments do not need:
    ``kcompat gates`` builds and imports the parser of ``gates`` alone);
``run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus``
    answers with the catalog it is given (never one it loads itself), writes the answer on
    stdout and the problems on stderr, and returns the status. Input that cannot be used raises
    :class:`~kcompat.core.errors.KcompatError`: ``kcompat.cli.main`` prints its message and
    returns :attr:`ExitStatus.REFUSED`.

The other modules of the package are no subcommand: ``main`` (the parser and the dispatch),
``contract`` (this), ``cmdline`` (the command line pasted after ``--`` that ``gates``, ``apis`` and
``config`` read), ``kubectl`` (the ``kubectl-kcompat`` plugin's entry point), ``signals`` (SIGTERM and SIGHUP turned into
the clean-up Ctrl-C gets) and ``options`` (every option two subcommands share, defined once).
"""

from __future__ import annotations

from enum import IntEnum


class ExitStatus(IntEnum):
    """The exit status of ``kcompat`` (docs/cli.md, "Exit status")."""

    #: the binary accepts the input; ``inspect``: the cluster agrees with the prediction;
    #: ``data compile --check``: the bundle is up to date
    OK = 0
    #: what was checked differs from what kcompat predicts or holds: ``inspect``'s cluster
    #: (``/metrics`` or ``/version``), ``data compile --check``'s bundle
    DIFFERS = 1
    #: the binary would refuse the input (its errors say why), or the input cannot be used at all
    #: (a bad option, an unreadable file, a release without data): a message says which
    REFUSED = 2
    #: kube-apiserver starts with the input but does not become ready (a problem whose verdict is
    #: ``Verdict.NOT_READY``, kcompat.core.problems; its reasons are printed as "not ready:")
    NOT_READY = 3
    #: interrupted (Ctrl-C), as a shell reports SIGINT
    INTERRUPTED = 130

    @classmethod
    def of(cls, valid: bool) -> ExitStatus:
        """OK for input the binary accepts, REFUSED for input it refuses."""
        return cls.OK if valid else cls.REFUSED
