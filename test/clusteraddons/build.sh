#!/usr/bin/env bash
# Builds (or reuses) the cluster add-ons of the real-node test cluster, from the Go module
# proxy, each in its own module (their dependency trees do not build as one):
#   coredns            cluster DNS (github.com/coredns/coredns, pinned in coredns/go.mod)
#   metallb-controller MetalLB's address allocator  } go.universe.tf/metallb,
#   metallb-speaker    MetalLB's L2 announcer        } pinned in metallb/go.mod
#   metallb-chart/     MetalLB's Helm chart from the same module version
# See docs/real-cluster.md.
#
# Cache: ${LISTENER_OPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/listener-operator}/clusteraddons/<hash>
# where <hash> covers HASHED_FILES (binDir.ts computes the same hash): the pins are the
# go.mod/go.sum files. The last line of stdout is always the bin dir.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"

# Keep in sync with HASHED_FILES in binDir.ts.
HASHED_FILES=(build.sh coredns/go.mod coredns/go.sum metallb/go.mod metallb/go.sum)
BINARIES=(coredns metallb-controller metallb-speaker)

cache_root=${LISTENER_OPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/listener-operator}
cache="$cache_root/clusteraddons"
hash=$(sha256sum "${HASHED_FILES[@]}" | sha256sum | cut -c1-16)
final="$cache/$hash"
bin="$final/bin"

log() { echo "clusteraddons-build: $*" >&2; }
complete() {
  local b
  for b in "${BINARIES[@]}"; do [[ -x "$1/bin/$b" ]] || return 1; done
  [[ -f "$1/metallb-chart/Chart.yaml" && -f "$1/build-info.txt" ]]
}

mkdir -p "$cache"
if complete "$final"; then echo "$bin"; exit 0; fi
exec 9>"$cache/.lock"
flock 9
if complete "$final"; then echo "$bin"; exit 0; fi

command -v go >/dev/null 2>&1 || { log "go is not installed"; exit 1; }
go_minor=$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')
if [[ "$go_minor" =~ ^[0-9]+$ ]] && ((go_minor >= 26)); then export GOTOOLCHAIN=local; else export GOTOOLCHAIN=auto; fi
export CGO_ENABLED=0
export GOFLAGS="-mod=mod -buildvcs=false"

work="$cache/.tmp-$hash-$$"
rm -rf "$work"
mkdir -p "$work/bin"
trap 'rm -rf "$work"' EXIT

coredns=$(cd coredns && go list -m -f '{{.Version}}' github.com/coredns/coredns)
metallb=$(cd metallb && go list -m -f '{{.Version}}' go.universe.tf/metallb)

start=$(date +%s)
log "building coredns $coredns into $bin (hash $hash)"
(cd coredns && go build -trimpath -ldflags "-s -w" -o "$work/bin/coredns" github.com/coredns/coredns)
coredns_seconds=$(($(date +%s) - start))
log "coredns built in ${coredns_seconds}s; building metallb $metallb controller and speaker"
# MetalLB's version string is in its source (internal/version); nothing to stamp.
(cd metallb && go build -trimpath -ldflags "-s -w" -o "$work/bin/metallb-controller" go.universe.tf/metallb/controller)
(cd metallb && go build -trimpath -ldflags "-s -w" -o "$work/bin/metallb-speaker" go.universe.tf/metallb/speaker)
# MetalLB's own Helm chart at the same version: the test renders it (metallb.ts).
cp -R "$(cd metallb && go list -m -f '{{.Dir}}' go.universe.tf/metallb)/charts/metallb" "$work/metallb-chart"
chmod -R u+w "$work/metallb-chart"
metallb_seconds=$(($(date +%s) - start - coredns_seconds))
{
  echo "hash=$hash"
  echo "go=$(go version)"
  echo "coredns=$coredns"
  echo "metallb=$metallb"
  echo "coredns_seconds=$coredns_seconds"
  echo "metallb_seconds=$metallb_seconds"
  echo "wall_seconds=$(($(date +%s) - start))"
  echo "built_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$work/build-info.txt"
complete "$work" || { log "build finished but binaries or the chart are missing"; exit 1; }
log "built in $(($(date +%s) - start))s"
rm -rf "$final"
mv -T "$work" "$final"
trap - EXIT
echo "$bin"
