"""``data/bundle.json``: the bundled YAML data, parsed and validated once, in a form that loads fast.

Parsing the YAML of a release takes longer than everything else a ``kcompat gates`` call does.
``kcompat data compile`` (and every ``kcompat data refresh``) loads each release from its YAML
files with every check and writes the result here, with the SHA-256 of each YAML file it read.

The bundle is only used for a file whose hash still matches: a release or release list whose
YAML changed since the bundle was written is loaded from the YAML again, never from a stale
bundle. The bundle only holds the project's own data; files a user supplies (uploads,
``--manifest``) always go through the bounded YAML reader of :mod:`kcompat.core.safe_yaml`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from kcompat.core.errors import cut
from kcompat.core.manifest import Feature, FeatureSpec, Manifest
from kcompat.core.stages import Stage
from kcompat.core.versions import Version, parse_version

TYPE_CHECKING = False
if TYPE_CHECKING:  # for checkers only: ``typing`` is not loaded on the CLI's start-up path
    from typing import Any, Protocol

    class ReleaseFiles(Protocol):
        """What the bundle needs of a release list entry (:class:`kcompat.data.catalog.ReleaseInfo`)."""

        @property
        def release(self) -> str: ...
        @property
        def feature_files(self) -> tuple[str, ...]: ...
        @property
        def client_go_files(self) -> tuple[str, ...]: ...

BUNDLE_NAME = "bundle.json"
#: Changes whenever the layout below changes: a bundle of another format is ignored.
#: Format 3: ``manifests`` comes last, one release a line (``"1.36": {...}``); a reader parses the
#: lines before it, and a release's line only when that release is first asked for (a ``kcompat
#: gates`` call decodes one or two of the eight, not all). A bundle laid out otherwise (still
#: JSON, say rewritten by a tool) is read whole.
FORMAT = 3
#: The line that starts the manifests in the layout :func:`kcompat.refresh.compile.bundle_text` writes.
MANIFESTS_LINE = '\n"manifests": {\n'
#: How that layout ends (the manifests' object, then the document's).
LAYOUT_END = "\n}\n}\n"
#: Far more than the bundle needs (about 200 KB): a larger file is ignored, not read.
MAX_BUNDLE_BYTES = 32 * 1024 * 1024
_STAGES = {s.value: s for s in Stage}
_DECODER = json.JSONDecoder()


try:  # the built-in SHA-256: importing hashlib loads OpenSSL, a few ms of every CLI start
    from _sha256 import sha256 as _sha256  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - other Python builds
    from hashlib import sha256 as _sha256


def file_hash(path: Path) -> str | None:
    """SHA-256 of a file's bytes (hex), None when it cannot be read."""
    try:
        return str(_sha256(path.read_bytes()).hexdigest())
    except OSError:
        return None


class Bundle:
    """A bundle read from disk. Each answer is None when the YAML it came from has changed."""

    def __init__(self, data_dir: Path, document: dict[str, Any], manifest_lines: str | None = None) -> None:
        """``document`` without its manifests when ``manifest_lines`` (the text from
        :data:`MANIFESTS_LINE` on) holds them undecoded, else the whole document."""
        self.data_dir = data_dir
        self.hashes: dict[str, str] = document["hashes"]
        self._releases: list[dict[str, Any]] = document["releases"]
        self._manifests: dict[str, Any] = document["manifests"] if manifest_lines is None else {}
        self._manifest_lines = manifest_lines
        self._documents: dict[str, Any] = document.get("documents") or {}
        self._fresh: dict[str, bool] = {}

    def fresh(self, *files: str) -> bool:
        """Whether every one of these data files (relative paths) is the file the bundle was made from."""
        for name in files:
            if name not in self._fresh:
                expected = self.hashes.get(name)
                self._fresh[name] = expected is not None and file_hash(self.data_dir / name) == expected
            if not self._fresh[name]:
                return False
        return True

    def releases(self) -> list[dict[str, Any]] | None:
        """The entries of ``releases.yaml`` as compiled (field -> value), or None when it changed."""
        if not self.fresh("releases.yaml"):
            return None
        return self._releases

    def document(self, name: str) -> Any:
        """A patch or component file (relative path) as parsed when the bundle was compiled, or None
        when the bundle does not hold it or the file changed since."""
        if name not in self._documents or not self.fresh(name):
            return None
        return self._documents[name]

    def _encoded_manifest(self, release: str) -> object:
        """The compiled manifest of ``release`` (None when the bundle has none); a ValueError when
        its line is not JSON."""
        if self._manifest_lines is None:
            return self._manifests.get(release)
        key = f"\n{json.dumps(release)}: "
        at = self._manifest_lines.find(key)
        if at < 0:
            return None
        return _DECODER.raw_decode(self._manifest_lines, at + len(key))[0]

    def manifest(self, info: ReleaseFiles) -> Manifest | None:
        """The release's manifest as :func:`~kcompat.data.files.load_manifest_files` builds it."""
        files = (*info.feature_files, *info.client_go_files)
        try:
            encoded = self._encoded_manifest(info.release)
        except ValueError:
            return None
        if not isinstance(encoded, dict) or encoded.get("files") != list(files) or not self.fresh(*files):
            return None
        versions: dict[str, Version] = {}
        # equal specs are one immutable object (478 specs of 1.36 are 84 distinct ones)
        made: dict[tuple[Any, ...], FeatureSpec] = {}

        def version(text: str) -> Version:
            if text not in versions:
                versions[text] = parse_version(text)
            return versions[text]

        features = []
        for name, origin, deps, specs in encoded["features"]:
            built = []
            for s in specs:
                key = tuple(s)
                found = made.get(key)
                if found is None:
                    v, default, lock, stage, mc, eff = s
                    found = made[key] = FeatureSpec(
                        version(v), default, lock, _STAGES[stage], None if mc is None else version(mc), None if eff is None else version(eff)
                    )
                built.append(found)
            features.append(Feature(name, tuple(built), tuple(deps), origin))
        return Manifest(tuple(features), tuple(cut(str(self.data_dir / f), 200) for f in files))


def read_bundle(data_dir: Path) -> Bundle | None:
    """The bundle of ``data_dir``, or None when there is none or it cannot be used."""
    path = Path(data_dir) / BUNDLE_NAME
    try:
        if os.stat(path).st_size > MAX_BUNDLE_BYTES:
            return None
        text = path.read_bytes().decode("utf-8")
        start = text.find(MANIFESTS_LINE)
        if start > 0 and text.endswith(LAYOUT_END) and text[:start].endswith(","):
            # the lines before the manifests, closed as an object of their own
            document, manifest_lines = json.loads(text[:start - 1] + "}"), text[start:]
        else:
            document, manifest_lines = json.loads(text), None
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            return None
        return Bundle(Path(data_dir), document, manifest_lines)
    except (OSError, ValueError, KeyError, TypeError):
        return None
