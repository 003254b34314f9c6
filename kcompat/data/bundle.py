"""``data/bundle.json``: the bundled YAML data, parsed and validated once, in a form that loads fast.

Parsing the YAML of a release takes longer than everything else a ``kcompat gates`` call does.
``kcompat data compile`` (and every ``kcompat data refresh``) loads each release from its YAML
files with every check and writes the result here, with the SHA-256 of each YAML file it read.

The bundle is only used for a file whose hash still matches: a release or release list whose
YAML changed since the bundle was written is loaded from the YAML again, never from a stale
bundle. The bundle only holds the project's own data; files a user supplies (uploads,
``--manifest``) always go through the bounded YAML reader of :mod:`kcompat.core.manifest`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from kcompat.core.errors import KcompatError, cut
from kcompat.core.manifest import Feature, FeatureSpec, Manifest
from kcompat.core.stages import Stage
from kcompat.core.versions import parse_version

BUNDLE_NAME = "bundle.json"
#: Changes whenever the layout below changes: a bundle of another format is ignored.
FORMAT = 1
#: Far more than the bundle needs (about 200 KB): a larger file is ignored, not read.
MAX_BUNDLE_BYTES = 32 * 1024 * 1024
_STAGES = {s.value: s for s in Stage}
_INFO_TUPLES = ("feature_files", "client_go_files")


try:  # the built-in SHA-256: importing hashlib loads OpenSSL, a few ms of every CLI start
    from _sha256 import sha256 as _sha256
except ImportError:  # pragma: no cover - other Python builds
    from hashlib import sha256 as _sha256


def file_hash(path: Path) -> str | None:
    """SHA-256 of a file's bytes (hex), None when it cannot be read."""
    try:
        return _sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


class Bundle:
    """A bundle read from disk. Each answer is None when the YAML it came from has changed."""

    def __init__(self, data_dir: Path, document: dict):
        self.data_dir = data_dir
        self.hashes: dict = document["hashes"]
        self._releases: list = document["releases"]
        self._manifests: dict = document["manifests"]
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

    def releases(self):
        from .catalog import ReleaseInfo

        if not self.fresh("releases.yaml"):
            return None
        return tuple(ReleaseInfo(**{k: tuple(v) if k in _INFO_TUPLES else v for k, v in item.items()}) for item in self._releases)

    def manifest(self, info) -> Manifest | None:
        """The release's manifest as :func:`~kcompat.core.manifest.load_manifest_files` builds it."""
        encoded = self._manifests.get(info.release)
        files = (*info.feature_files, *info.client_go_files)
        if encoded is None or encoded["files"] != list(files) or not self.fresh(*files):
            return None
        versions: dict = {}

        def version(text):
            if text is None:
                return None
            if text not in versions:
                versions[text] = parse_version(text)
            return versions[text]

        features = tuple(
            Feature(
                name,
                tuple(FeatureSpec(version(v), default, lock, _STAGES[stage], version(mc), version(eff)) for v, default, lock, stage, mc, eff in specs),
                tuple(deps),
                origin,
            )
            for name, origin, deps, specs in encoded["features"]
        )
        return Manifest(features, tuple(cut(str(self.data_dir / f), 200) for f in files))


def read_bundle(data_dir: Path) -> Bundle | None:
    """The bundle of ``data_dir``, or None when there is none or it cannot be used."""
    path = Path(data_dir) / BUNDLE_NAME
    try:
        if os.stat(path).st_size > MAX_BUNDLE_BYTES:
            return None
        document = json.loads(path.read_bytes())
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            return None
        return Bundle(Path(data_dir), document)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _encode_manifest(manifest: Manifest, files: list[str]) -> dict:
    def text(v):
        return None if v is None else str(v)

    return {
        "files": files,
        "features": [
            [
                f.name,
                f.origin,
                list(f.dependencies),
                [
                    [text(s.version), s.default, s.lock_to_default, s.stage.value, text(s.min_compatibility_version), text(s.effective_min_compatibility)]
                    for s in f.specs
                ],
            ]
            for f in manifest.features
        ],
    }


def compile_bundle(data_dir: Path) -> dict:
    """The bundle document of ``data_dir``: every release loaded from its YAML, with every check."""
    from dataclasses import asdict

    from .catalog import Catalog

    data_dir = Path(data_dir)
    catalog = Catalog(data_dir, use_bundle=False)
    hashes = {"releases.yaml": file_hash(data_dir / "releases.yaml")}
    releases, manifests = [], {}
    for info in catalog.releases:
        data = catalog.load(info.release)
        if data.manifest is None:
            raise KcompatError(f"release {info.release} cannot be compiled: {data.problem}")
        files = [*info.feature_files, *info.client_go_files]
        for name in files:
            hashes[name] = file_hash(data_dir / name)
        releases.append(asdict(info))
        manifests[info.release] = _encode_manifest(data.manifest, files)
    return {
        "format": FORMAT,
        "comment": "Generated by `kcompat data compile` from the YAML files named in hashes; do not edit.",
        "hashes": dict(sorted(hashes.items())),
        "releases": releases,
        "manifests": manifests,
    }


def bundle_text(document: dict) -> str:
    """One line per release and per hash: small diffs when one release changes."""
    lines = ["{"]
    lines.append(f'"format": {json.dumps(document["format"])},')
    lines.append(f'"comment": {json.dumps(document["comment"])},')
    lines.append(f'"hashes": {json.dumps(document["hashes"], indent=0, sort_keys=True)},')
    lines.append('"releases": [')
    lines.append(",\n".join(json.dumps(r, separators=(",", ":")) for r in document["releases"]))
    lines.append("],")
    lines.append('"manifests": {')
    lines.append(",\n".join(f"{json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}" for k, v in document["manifests"].items()))
    lines.append("}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_bundle(data_dir: Path, text: str | None = None) -> Path:
    """Write ``data_dir/bundle.json`` (compiled now unless ``text`` is given), atomically: a reader
    never sees half a file."""
    from kcompat.refresh.common import write_file_atomically

    data_dir = Path(data_dir)
    path = data_dir / BUNDLE_NAME
    write_file_atomically(path, bundle_text(compile_bundle(data_dir)) if text is None else text)
    return path


def rebuild_after_refresh(data_dir: Path) -> str:
    """The bundle after ``kcompat data refresh``: rewritten, or removed when the data cannot be
    compiled (the YAML is then read directly); one line saying which."""
    try:
        path = write_bundle(data_dir)
        return f"bundle: wrote {path}"
    except (KcompatError, OSError) as exc:
        try:
            (Path(data_dir) / BUNDLE_NAME).unlink(missing_ok=True)
        except OSError:
            pass
        return f"bundle: not written ({cut(exc, 300)}); the YAML files are read directly"


def add_compile_arguments(parser: argparse.ArgumentParser) -> None:
    from .catalog import DATA_DIR

    parser.add_argument("--data", metavar="DIR", type=Path, default=DATA_DIR, help=f"data folder to compile (default: {DATA_DIR})")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when the bundle is missing or stale")


def run_compile(args: argparse.Namespace) -> int:
    data_dir = Path(args.data)
    try:
        text = bundle_text(compile_bundle(data_dir))
    except KcompatError as exc:
        print(f"kcompat data compile: {cut(exc, 2000)}", file=sys.stderr)
        return 2
    path = data_dir / BUNDLE_NAME
    if args.check:
        try:
            current = path.read_text(encoding="utf-8")
        except OSError:
            current = None
        if current != text:
            print(f"{path}: missing or stale; run `kcompat data compile`", file=sys.stderr)
            return 1
        print(f"{path}: up to date")
        return 0
    write_bundle(data_dir, text)
    print(f"wrote {path}")
    return 0


def version_text() -> str:
    """``kcompat --version``: the package version, then the bundled releases and the bundle's state."""
    from kcompat import __version__
    from .catalog import DEFAULT_CATALOG

    lines = [f"kcompat {__version__}"]
    try:
        releases = DEFAULT_CATALOG.releases
        lines.append("bundled releases: " + ", ".join(f"{r.release} ({r.status})" for r in releases))
        bundle = DEFAULT_CATALOG.bundle
        fresh = bundle is not None and bundle.fresh(*bundle.hashes)
        lines.append(f"data: {DEFAULT_CATALOG.data_dir} ({'compiled bundle up to date' if fresh else 'YAML read directly: bundle missing or stale'})")
    except KcompatError as exc:
        lines.append(f"bundled releases: cannot be read ({cut(exc, 300)})")
    return "\n".join(lines) + "\n"
