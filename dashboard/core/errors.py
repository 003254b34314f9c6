"""The one error type the core raises for bad input."""

from __future__ import annotations


class KcompatError(ValueError):
    """Bad input: a version, a flag value, a manifest. The message names what was wrong."""
