#!/usr/bin/env bash
# Builds kube-apiserver, etcd, kubectl and the two oracle programs of pinned releases into
# $KCOMPAT_ORACLE_BIN/<release>/ (default /tmp/kcompat-oracle-bin), for tests/live.
# Usage: oracle/build.sh v1.37.2 [v1.36.5 ...]   (a cold kube-apiserver build takes about 10 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 oracle/record.py --build-only "$@"
