"""``kubectl-kcompat``: kubectl finds this executable on PATH and runs it for ``kubectl kcompat``
(kubectl plugin mechanism: ``kubectl-<name>`` on PATH). Every ``kcompat`` subcommand works;
``kubectl kcompat inspect --live [--context C]`` reads the cluster through kubectl itself."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from kcompat.cli.main import main as kcompat

    return kcompat(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
