#!/usr/bin/env bash
# Writes modfiles/vX.Y.Z.mod: require k8s.io/kubernetes vX.Y.Z and pin every staging module it
# replaces with a local path to the published k8s.io/<name> v0.Y.Z, the usual way to depend on
# k8s.io/kubernetes. Usage: oracle/gen_mod.sh v1.37.2
set -euo pipefail
cd "$(dirname "$0")"
v="$1"; minor="${v#v1.}"; staging="v0.${minor}"
gomod="$(go mod download -json "k8s.io/kubernetes@$v" | sed -n 's/.*"GoMod": "\(.*\)",/\1/p')"
mkdir -p modfiles
out="modfiles/$v.mod"
{
  echo "module kcompat.local/oracle"
  echo
  echo "go $(sed -n 's/^go \([0-9.]*\)$/\1/p' "$gomod")"
  echo
  echo "require k8s.io/kubernetes $v"
  echo
  echo "replace ("
  sed -n '/^replace (/,/^)/p' "$gomod" | sed -n 's#^\s*\(k8s.io/[a-z0-9-]*\) => ./staging/src/.*#\t\1 => \1 '"$staging"'#p'
  echo ")"
} > "$out"
echo "$out"
