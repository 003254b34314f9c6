#!/usr/bin/env bash
# Writes modfiles/vX.Y.Z.mod: require k8s.io/kubernetes vX.Y.Z and pin every staging module it
# replaces with a local path to the published k8s.io/<name> v0.Y.Z, the usual way to depend on
# k8s.io/kubernetes. A staging module the Go module proxy does not serve at v0.Y.Z (k8s.io/endpointslice
# v0.32.13, k8s.io/kube-scheduler v0.31.14, ...) is pinned to its nearest lower served patch (or, with none below, the nearest above), and the
# modfile says so in a comment (record.py copies it into meta.json). Usage: oracle/gen_mod.sh v1.37.2
set -euo pipefail
cd "$(dirname "$0")"
v="$1"; minor="${v#v1.}"; staging="v0.${minor}"
gomod="$(go mod download -json "k8s.io/kubernetes@$v" | sed -n 's/.*"GoMod": "\(.*\)",/\1/p')"
mkdir -p modfiles
out="modfiles/$v.mod"
served() { go mod download "$1@$2" >/dev/null 2>&1; }
lines=(); notes=()
while read -r name; do
  pin="$staging"
  if ! served "$name" "$pin"; then
    base="${staging%.*}"; patch="${staging##*.}"; pin=""
    if [[ "$patch" =~ ^[0-9]+$ ]]; then
      for ((p = patch - 1; p >= 0; p--)); do
        if served "$name" "$base.$p"; then pin="$base.$p"; break; fi
      done
      # a .0 (or an early patch) with none below: the nearest served patch above
      if [ -z "$pin" ]; then
        for ((p = patch + 1; p <= patch + 20; p++)); do
          if served "$name" "$base.$p"; then pin="$base.$p"; break; fi
        done
      fi
    fi
    [ -n "$pin" ] || { echo "$name: no patch of ${base} is served" >&2; exit 1; }
    notes+=("// not served: $name $staging; pinned to $pin")
  fi
  lines+=("	$name => $name $pin")
done < <(sed -n '/^replace (/,/^)/p' "$gomod" | sed -n 's#^\s*\(k8s.io/[a-z0-9-]*\) => ./staging/src/.*#\1#p')
{
  echo "module kcompat.local/oracle"
  echo
  echo "go $(sed -n 's/^go \([0-9.]*\)$/\1/p' "$gomod")"
  echo
  for n in "${notes[@]}"; do echo "$n"; done
  [ ${#notes[@]} -eq 0 ] || echo
  echo "require k8s.io/kubernetes $v"
  echo
  echo "replace ("
  printf '%s\n' "${lines[@]}"
  echo ")"
} > "$out"
echo "$out"
