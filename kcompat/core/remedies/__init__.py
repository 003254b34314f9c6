"""Remedies beside the binary's problems: what to change so that it starts, computed from the data
the engine already has (:class:`~kcompat.core.problems.Remedy`, never canned text).

Each family of problems has a module with a table from the problem's type to the function that
explains it (the type decides, never the message): :mod:`.versions` (the version flags'
ranges), :mod:`.gates` (``--feature-gates``: unknown, removed, later, not yet introduced, locked
gates and dependencies) and :mod:`.apis` (kube-apiserver's ``--runtime-config`` and
forward-compatibility flags, the alpha-under-emulation warning). A new kind of problem gets its
remedy by a function in its family's table (see :mod:`kcompat.core.problems`).
"""

from .apis import api_remedies
from .gates import gate_remedies
from .versions import version_remedies

__all__ = ["api_remedies", "gate_remedies", "version_remedies"]
