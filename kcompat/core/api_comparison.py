"""An API answer compared with another side: a real binary of the emulated release, or the same
binary at its own version (``kcompat apis --against release|native``; the APIs page's
"Differences from a real 1.31 kube-apiserver" and "Enabled/Removed compared with the binary").
:func:`kcompat.answers.apis.compare_apis` builds it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .apis import ApiEntry

#: What ``kcompat apis --against`` compares with.
AGAINST = ("release", "native")


@dataclass(frozen=True)
class ApiComparison:
    """Whether the other side serves each entry of an answer (same ``--runtime-config``)."""

    #: "release" or "native"
    against: str
    #: entry key -> served there (None: that release has no bundled API data)
    there: Mapping[tuple[str, str, str], bool | None]
    #: what the other side is, for headings and summaries: "a real 1.31 binary", "the 1.33 binary at its own version"
    label: str

    def served_there(self, entry: ApiEntry) -> bool | None:
        return self.there.get(entry.key)

    def differs(self, entry: ApiEntry) -> bool:
        """Served here but not there, or the other way round (never when there is unknown)."""
        there = self.served_there(entry)
        return there is not None and there != entry.served
