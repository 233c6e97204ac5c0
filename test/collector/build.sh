#!/usr/bin/env bash
# Builds (or reuses) the trace collector of the telemetry e2e: Jaeger v2 (jaeger, pinned in
# this directory's go.mod) from the Go module proxy. See docs/telemetry.md for why Jaeger.
#
# Cache: ${LISTENER_OPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/listener-operator}/collector/<hash>/bin
# where <hash> covers HASHED_FILES (test/collector/binDir.ts computes the same hash).
# The last line of stdout is always the bin dir.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"

# Keep in sync with HASHED_FILES in binDir.ts.
HASHED_FILES=(build.sh go.mod go.sum)

cache_root=${LISTENER_OPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/listener-operator}
cache="$cache_root/collector"
hash=$(sha256sum "${HASHED_FILES[@]}" | sha256sum | cut -c1-16)
final="$cache/$hash"
bin="$final/bin"

log() { echo "collector-build: $*" >&2; }

mkdir -p "$cache"
if [[ -x "$bin/jaeger" ]]; then echo "$bin"; exit 0; fi
exec 9>"$cache/.lock"
flock 9
if [[ -x "$bin/jaeger" ]]; then echo "$bin"; exit 0; fi

command -v go >/dev/null 2>&1 || { log "go is not installed"; exit 1; }
go_minor=$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')
if [[ "$go_minor" =~ ^[0-9]+$ ]] && ((go_minor >= 26)); then export GOTOOLCHAIN=local; else export GOTOOLCHAIN=auto; fi
export CGO_ENABLED=0
export GOFLAGS="-mod=mod -buildvcs=false"

work="$cache/.tmp-$hash-$$"
rm -rf "$work"
mkdir -p "$work/bin"
trap 'rm -rf "$work"' EXIT

version=$(go list -m -f '{{.Version}}' github.com/jaegertracing/jaeger)
start=$(date +%s)
log "building jaeger $version into $bin (hash $hash)"
go build -trimpath -ldflags "-s -w" -o "$work/bin/jaeger" github.com/jaegertracing/jaeger/cmd/jaeger
[[ -x "$work/bin/jaeger" ]] || { log "build finished but the binary is missing"; exit 1; }
log "built in $(($(date +%s) - start))s"
{
  echo "hash=$hash"
  echo "go=$(go version)"
  echo "jaeger=$version"
  echo "wall_seconds=$(($(date +%s) - start))"
  echo "built_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$work/build-info.txt"
rm -rf "$final"
mv -T "$work" "$final"
trap - EXIT
echo "$bin"
