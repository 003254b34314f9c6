"""The ``kcompat`` command line that asks a page's question: the "same as" line every page shows
beside its answer, written here once for every page (the CLI's tests read each line back with the
CLI's own parser and find the page's selection).

:func:`same_as` writes a subcommand, its positional arguments and its options in the order given:
an option whose value is None, "" or False is left out, True is the option alone, a list repeats
the option once per value. Every word is quoted for a POSIX shell (``shlex.join``), so a value the
user typed (a ``--feature-gates`` list, a search) is one argument whatever it holds.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

#: An option's value: text, a switch, the values of a repeated option, or nothing.
OptionValue = str | bool | Sequence[str] | None


def same_as(subcommand: str, *arguments: str, **options: OptionValue) -> str:
    """``kcompat SUBCOMMAND ARGUMENTS --option value ...``; an option ``min_compat`` is written
    ``--min-compat``, ``from_`` (a Python keyword) ``--from``."""
    words = ["kcompat", subcommand, *arguments]
    for name, value in options.items():
        flag = "--" + name.rstrip("_").replace("_", "-")
        if value is None or value is False or value == "":
            continue
        if value is True:
            words.append(flag)
        elif isinstance(value, str):
            words += [flag, value]
        else:
            for item in value:
                words += [flag, item]
    return shlex.join(words)
