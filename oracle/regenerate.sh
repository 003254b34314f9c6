#!/usr/bin/env bash
# Regenerates every recording in data/oracle/ and the data built from them, in one command:
#   oracle/regenerate.sh
# For each minor release with modfiles in oracle/modfiles/, the newest patch is built whole
# (kube-apiserver, kube-scheduler, kube-controller-manager, etcd, the oracle programs: about 10
# minutes of a cold build on 2 cores) and recorded live, readiness included (record.py); the other
# patches run the small gates program only. Then `kcompat data refresh --oracle` rewrites
# data/features and data/apis from the recordings.
# Add a release first with: oracle/gen_mod.sh v1.N.P && (cd oracle && go mod tidy -e -modfile=modfiles/v1.N.P.mod)
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t all < <(ls oracle/modfiles/*.mod | xargs -n1 basename | sed 's/\.mod$//' | grep -E '^v1\.[0-9]+\.[0-9]+$' | sort -V)
# pre-releases of a minor with no release yet (v1.38.0-beta.0): recorded whole, a development release
mapfile -t pre < <(ls oracle/modfiles/*.mod | xargs -n1 basename | sed 's/\.mod$//' | grep -E '^v1\.[0-9]+\.0-(alpha|beta|rc)\.[0-9]+$' | sort -V)
declare -A newest
for v in "${all[@]}"; do minor="${v%.*}"; newest[$minor]="$v"; done
full=(); patches=()
for v in "${all[@]}"; do
  if [ "${newest[${v%.*}]}" = "$v" ]; then full+=("$v"); else patches+=("$v"); fi
done
for v in "${pre[@]}"; do minor="${v%%.0-*}"; [ -n "${newest[$minor]:-}" ] || full+=("$v"); done
python3 oracle/record.py "${full[@]}"
python3 oracle/record.py --gates-only "${patches[@]}"
PY="${PYTHON:-.venv/bin/python}"
"$PY" -m kcompat data refresh --oracle
