"""The bounds every reader of user input keeps (kept apart from the YAML reader, so that modules
which only need a bound do not import the reader on the CLI's start-up path)."""

from __future__ import annotations

#: Bytes of one YAML document read at most.
DEFAULT_MAX_BYTES = 4 * 1024 * 1024
#: Gates of one manifest: the largest release has about 300.
MAX_GATES = 1_000
