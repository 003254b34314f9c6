#!/usr/bin/env python3
"""Record the rollback rehearsal of a release pair on its real binaries (KEP-4330 "Rollback").

    .venv/bin/python oracle/rehearse.py v1.35.8 v1.36.5 [--bin DIR] [--time-limit SECONDS]

Runs the rehearsal of kcompat.core.rehearsal with kcompat's own runner (kcompat.data.rehearsal_run,
the code ``kcompat rehearse`` runs on a user's binaries): one etcd, and in turn kube-apiserver
<from> creating the corpus, <to> with --emulated-version=<from> reading, updating and creating,
<from> again reading, decoding and updating everything (the promise), <to> at its own version with
--min-compatibility-version raised writing, and <from> once more (the rollback the plan calls
unsupported). The binaries are those record.py builds in <bin>/<release>/ (kube-apiserver, etcd:
``python3 oracle/record.py --build-only <release>``, or only those two with its build function).

Writes data/oracle/<to>/rehearsal.json and carries it to data/rehearsals/v1.N.json
(kcompat.refresh.rehearsal), which ``kcompat plan`` cites. Needs the project installed (its venv).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _minor(release: str) -> str:
    return ".".join(release.lstrip("v").split(".")[:2])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("from_release", help="the older release, e.g. v1.35.8")
    parser.add_argument("to_release", help="the newer release, e.g. v1.36.5")
    parser.add_argument("--bin", default=os.environ.get("KCOMPAT_ORACLE_BIN", "/tmp/kcompat-oracle-bin"),
                        help="where record.py built the binaries (default: $KCOMPAT_ORACLE_BIN or /tmp/kcompat-oracle-bin)")
    parser.add_argument("--time-limit", type=float, default=3600.0)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from kcompat.answers.rehearsal import storage_changing
    from kcompat.core.rehearsal import judge
    from kcompat.data.catalog import Catalog
    from kcompat.data.rehearsal_run import Binaries, rehearse
    from kcompat.refresh.rehearsal import write_rehearsal

    frm, to = _minor(args.from_release), _minor(args.to_release)
    bindir = Path(args.bin)
    binaries = Binaries(bindir / args.from_release / "kube-apiserver", bindir / args.to_release / "kube-apiserver", bindir / args.to_release / "etcd")
    for path in (binaries.from_apiserver, binaries.to_apiserver, binaries.etcd):
        if not path.is_file():
            raise SystemExit(f"{path} missing: build it first (oracle/record.py --build-only)")
    catalog = Catalog(ROOT / "data")
    recording = rehearse(binaries, frm, to, required=storage_changing(catalog, frm, to), time_limit=args.time_limit,
                         progress=lambda line: print(line, file=sys.stderr, flush=True))
    recording["releases"] = [args.from_release, args.to_release]
    out = ROOT / "data" / "oracle" / args.to_release / "rehearsal.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(recording, sort_keys=True, separators=(",", ":")) + "\n")
    carried = write_rehearsal(ROOT / "data", out)
    judgement = judge(recording)
    print(f"{out.relative_to(ROOT)} -> {carried.relative_to(ROOT)}: {judgement.summary} ({recording['seconds']} s)", file=sys.stderr)
    return 0 if judgement.held else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
