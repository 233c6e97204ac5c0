#!/usr/bin/env bash
# Builds (or reuses) the node components of the real-node test cluster:
#   kubelet kube-proxy
# from the same k8s.io/kubernetes release as test/envtest's control plane (pinned in this
# directory's go.mod). See docs/real-cluster.md.
#
# Cache: ${LISTENER_OPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/listener-operator}/realnodes/<hash>/bin
# where <hash> covers HASHED_FILES (test/realnodes/binDir.ts computes the same hash).
# The Go build cache is shared with test/envtest/build.sh, so after that build only the
# node-specific packages compile. The last line of stdout is always the bin dir.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"

# Keep in sync with HASHED_FILES in binDir.ts.
HASHED_FILES=(build.sh go.mod go.sum)
BINARIES=(kubelet kube-proxy)

cache_root=${LISTENER_OPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/listener-operator}
cache="$cache_root/realnodes"
hash=$(sha256sum "${HASHED_FILES[@]}" | sha256sum | cut -c1-16)
final="$cache/$hash"
bin="$final/bin"

log() { echo "realnodes-build: $*" >&2; }
complete() {
  local b
  for b in "${BINARIES[@]}"; do [[ -x "$1/$b" ]] || return 1; done
}

mkdir -p "$cache"
if complete "$bin"; then echo "$bin"; exit 0; fi
exec 9>"$cache/.lock"
flock 9
if complete "$bin"; then echo "$bin"; exit 0; fi

command -v go >/dev/null 2>&1 || { log "go is not installed"; exit 1; }
go_minor=$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')
if [[ "$go_minor" =~ ^[0-9]+$ ]] && ((go_minor >= 26)); then export GOTOOLCHAIN=local; else export GOTOOLCHAIN=auto; fi
export CGO_ENABLED=0
export GOFLAGS="-mod=mod -buildvcs=false"

work="$cache/.tmp-$hash-$$"
rm -rf "$work"
mkdir -p "$work/bin"
trap 'rm -rf "$work"' EXIT

version=$(go list -m -f '{{.Version}}' k8s.io/kubernetes)
build_date=$(go list -m -f '{{.Time.UTC.Format "2006-01-02T15:04:05Z"}}' k8s.io/kubernetes)
major=$(echo "$version" | sed -E 's/^v([0-9]+)\..*/\1/')
minor=$(echo "$version" | sed -E 's/^v[0-9]+\.([0-9]+)\..*/\1/')
ldflags="-s -w"
for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $p.gitVersion=$version -X $p.gitMajor=$major -X $p.gitMinor=$minor -X $p.gitTreeState=clean -X $p.buildDate=$build_date"
done

start=$(date +%s)
log "building kubelet and kube-proxy $version into $bin (hash $hash)"
go build -trimpath -ldflags "$ldflags" -o "$work/bin/" k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-proxy
complete "$work/bin" || { log "build finished but binaries are missing"; exit 1; }
log "built in $(($(date +%s) - start))s"
{
  echo "hash=$hash"
  echo "go=$(go version)"
  echo "kubernetes=$version"
  echo "wall_seconds=$(($(date +%s) - start))"
  echo "built_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$work/build-info.txt"
rm -rf "$final"
mv -T "$work" "$final"
trap - EXIT
echo "$bin"
