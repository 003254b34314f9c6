"""``data/startup/v1.N.json``: the readiness rules found by starting each release's real
kube-apiserver (written by ``kcompat data refresh --oracle``, kcompat/refresh/startup.py; read
into :class:`kcompat.core.readiness.ReadinessRules`). JSON, read with the standard library: the
rules are looked at on every ``kcompat gates`` answer."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from kcompat.core.errors import KcompatError, cut

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from kcompat.core.readiness import ReadinessRules

STARTUP_DIR = "startup"
#: A rules file is a few kB; a larger one is refused, not read.
MAX_RULES_BYTES = 1024 * 1024


def rules_path(data_dir: Path | str, release: str) -> Path:
    return Path(data_dir) / STARTUP_DIR / f"v{release}.json"


@functools.lru_cache(maxsize=32)
def readiness_rules(data_dir: Path | str, release: str) -> ReadinessRules | None:
    """The readiness rules of ``release`` ("1.34"), None when none were recorded. A file that is
    there but cannot be read is an error (:class:`KcompatError`), never silently no rules."""
    path = rules_path(data_dir, release)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_RULES_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise KcompatError(f"cannot read the readiness rules {cut(path, 200)}: {exc.strerror or exc}") from None
    if len(raw) > MAX_RULES_BYTES:
        raise KcompatError(f"{cut(path, 200)}: larger than {MAX_RULES_BYTES:,} bytes, not a rules file")
    from kcompat.core.readiness import rules_from_document

    try:
        document = json.loads(raw)
        rules = rules_from_document(document)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise KcompatError(f"{cut(path, 200)}: malformed readiness rules ({type(exc).__name__}: {cut(exc, 200)})") from None
    if str(rules.release) != release:
        raise KcompatError(f"{cut(path, 200)}: holds the rules of {rules.release}, not {release}")
    return rules
