#!/usr/bin/env bash
# Builds (or reuses) the upstream binaries of the real test control plane:
#   etcd kube-apiserver kube-controller-manager kube-scheduler kubectl
#   csi-provisioner csi-sanity helm
# from the Go modules pinned in this directory. See docs/envtest.md.
#
# Cache: ${LISTENER_OPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/listener-operator}/envtest/<hash>/bin
# where <hash> covers build.sh and every go.mod/go.sum below (the list is in
# HASHED_FILES; test/envtest/binDir.ts computes the same hash). The pointer file
# <cache>/envtest/current holds the bin dir of the last successful build/reuse.
# The last line of stdout is always the bin dir.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"

# Keep in sync with HASHED_FILES in binDir.ts.
HASHED_FILES=(
  build.sh
  go.mod
  go.sum
  tools/csi-sanity/go.mod
  tools/csi-sanity/go.sum
  tools/helm/go.mod
  tools/helm/go.sum
)
BINARIES=(etcd kube-apiserver kube-controller-manager kube-scheduler kubectl csi-provisioner csi-sanity helm)

# Versions come from the go.mod files (the single source of truth); they are used for
# logging and version stamping only.

cache_root=${LISTENER_OPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/listener-operator}
envtest_cache="$cache_root/envtest"

# hash = sha256 over lines "<sha256 of file>  <relative path>\n" (sha256sum's format), first 16 hex chars.
hash=$(sha256sum "${HASHED_FILES[@]}" | sha256sum | cut -c1-16)
final="$envtest_cache/$hash"
bin="$final/bin"

log() { echo "envtest-build: $*" >&2; }

complete() {
  local b
  for b in "${BINARIES[@]}"; do [[ -x "$1/$b" ]] || return 1; done
}

write_pointer() {
  local tmp="$envtest_cache/.current.$$"
  printf '%s\n' "$bin" >"$tmp"
  mv -f "$tmp" "$envtest_cache/current"
}

mkdir -p "$envtest_cache"

if complete "$bin"; then
  write_pointer
  echo "$bin"
  exit 0
fi

# Serialise concurrent builds (two test runs at once would otherwise both build).
if command -v flock >/dev/null 2>&1; then
  exec 9>"$envtest_cache/.lock"
  flock 9
  if complete "$bin"; then
    write_pointer
    echo "$bin"
    exit 0
  fi
fi

# Toolchain: use the installed go if it is new enough for the modules' `go 1.26.0`
# lines, else let the go command fetch that toolchain from the module proxy.
if ! command -v go >/dev/null 2>&1; then
  log "go is not installed (need go >= 1.26 or any go >= 1.21 with module proxy access)"
  exit 1
fi
go_minor=$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')
if [[ "$go_minor" =~ ^[0-9]+$ ]] && ((go_minor >= 26)); then
  export GOTOOLCHAIN=local
else
  export GOTOOLCHAIN=auto # downloads go1.26.x from the module proxy (Go >= 1.21)
fi
export CGO_ENABLED=0
export GOFLAGS="-mod=mod -buildvcs=false"

work="$envtest_cache/.tmp-$hash-$$"
rm -rf "$work"
mkdir -p "$work/bin"
cleanup() { rm -rf "$work"; [[ -n "${sampler:-}" ]] && kill "$sampler" 2>/dev/null || true; }
trap cleanup EXIT

version_ldflags() { # $1 = version (vX.Y.Z)
  local v=$1 major minor
  major=$(echo "$v" | sed -E 's/^v([0-9]+)\..*/\1/')
  minor=$(echo "$v" | sed -E 's/^v[0-9]+\.([0-9]+)\..*/\1/')
  local p
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    printf -- '-X %s.gitVersion=%s -X %s.gitMajor=%s -X %s.gitMinor=%s -X %s.gitTreeState=clean ' \
      "$p" "$v" "$p" "$major" "$p" "$minor" "$p"
  done
}

stamp() { echo "+$(($(date +%s) - build_start))s"; }

mod_version() { go list -m -f '{{.Version}}' "$1"; }

build_k8s() { # $1 = out dir
  local out=$1 build_date K8S_VERSION PROVISIONER_VERSION
  K8S_VERSION=$(mod_version k8s.io/kubernetes)
  PROVISIONER_VERSION=$(mod_version github.com/kubernetes-csi/external-provisioner/v6)
  build_date=$(go list -m -f '{{.Time.UTC.Format "2006-01-02T15:04:05Z"}}' k8s.io/kubernetes)
  local k8s_ldflags
  k8s_ldflags="-s -w $(version_ldflags "$K8S_VERSION") -X k8s.io/component-base/version.buildDate=$build_date -X k8s.io/client-go/pkg/version.buildDate=$build_date"
  log "$(stamp) kube-apiserver kube-controller-manager kube-scheduler kubectl ($K8S_VERSION)"
  go build -trimpath -ldflags "$k8s_ldflags" -o "$out/" \
    k8s.io/kubernetes/cmd/kube-apiserver \
    k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/cmd/kube-scheduler \
    k8s.io/kubernetes/cmd/kubectl
  log "$(stamp) etcd ($(mod_version go.etcd.io/etcd/server/v3))"
  go build -trimpath -ldflags "-s -w" -o "$out/etcd" go.etcd.io/etcd/server/v3
  log "$(stamp) csi-provisioner ($PROVISIONER_VERSION)"
  go build -trimpath -ldflags "-s -w -X main.version=$PROVISIONER_VERSION" \
    -o "$out/csi-provisioner" github.com/kubernetes-csi/external-provisioner/v6/cmd/csi-provisioner
  log "$(stamp) Kubernetes module done"
}

build_sanity() { # $1 = out dir
  cd tools/csi-sanity
  local SANITY_VERSION
  SANITY_VERSION=$(mod_version github.com/kubernetes-csi/csi-test/v5)
  log "$(stamp) csi-sanity ($SANITY_VERSION)"
  go build -trimpath -ldflags "-s -w -X main.VERSION=$SANITY_VERSION" -o "$1/csi-sanity" github.com/kubernetes-csi/csi-test/v5/cmd/csi-sanity
  log "$(stamp) csi-sanity done"
}

build_helm() { # $1 = out dir
  cd tools/helm
  local HELM_VERSION
  HELM_VERSION=$(mod_version helm.sh/helm/v4)
  log "$(stamp) helm ($HELM_VERSION)"
  go build -trimpath -ldflags "-s -w -X helm.sh/helm/v4/internal/version.version=$HELM_VERSION" \
    -o "$1/helm" helm.sh/helm/v4/cmd/helm
  log "$(stamp) helm done"
}

# The three modules are independent: build them concurrently (the go command shares
# GOCACHE safely) so that link phases and downloads of one overlap compiles of another.
build_all() {
  local out=$1 rc=0 p_k8s p_sanity p_helm
  build_start=$(date +%s)
  log "go: $(go version) (GOTOOLCHAIN=$GOTOOLCHAIN), $(nproc) CPUs"
  log "$(stamp) downloading modules"
  go mod download &
  local d1=$!
  (cd tools/csi-sanity && go mod download) &
  local d2=$!
  (cd tools/helm && go mod download) &
  local d3=$!
  wait "$d1" && wait "$d2" && wait "$d3" || { log "module download failed"; return 1; }
  (build_sanity "$out") &
  p_sanity=$!
  (build_helm "$out") &
  p_helm=$!
  (build_k8s "$out") &
  p_k8s=$!
  wait "$p_k8s" || { log "Kubernetes module build failed"; rc=1; }
  wait "$p_sanity" || { log "csi-sanity build failed"; rc=1; }
  wait "$p_helm" || { log "helm build failed"; rc=1; }
  return "$rc"
}

# Peak memory of the whole build (sum of RSS of the build's process tree), sampled
# every second; /usr/bin/time -v only reports the largest single process.
sample_tree_rss() { # $1 = root pid, $2 = output file
  local root=$1 outf=$2 peak=0 cur
  while kill -0 "$root" 2>/dev/null; do
    cur=$(ps -e -o pid=,ppid=,rss= | awk -v root="$root" '
      { pp[$1]=$2; rss[$1]=$3 }
      END { s=0; for (p in pp) { q=p; while (q != "" && q != 0 && q != 1) { if (q == root) { s += rss[p]; break } q = pp[q] } } print s }')
    ((cur > peak)) && peak=$cur && echo "$peak" >"$outf"
    sleep 1
  done
}

log "building into $bin (hash $hash; inputs: ${HASHED_FILES[*]})"
start=$(date +%s)
timefile="$work/time.txt"
peakfile="$work/peak-tree-kib"
echo 0 >"$peakfile"
export -f build_all build_k8s build_sanity build_helm stamp mod_version version_ldflags log
if [[ -x /usr/bin/time ]] && /usr/bin/time -v true >/dev/null 2>&1; then
  /usr/bin/time -v -o "$timefile" bash -euo pipefail -c 'build_all "$1"' _ "$work/bin" &
else
  bash -euo pipefail -c 'build_all "$1"' _ "$work/bin" &
fi
build_pid=$!
sample_tree_rss "$build_pid" "$peakfile" &
sampler=$!
status=0
wait "$build_pid" || status=$?
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true
sampler=
end=$(date +%s)
if ((status != 0)); then
  log "build FAILED (exit $status) after $((end - start))s"
  exit "$status"
fi
complete "$work/bin" || { log "build finished but binaries are missing"; exit 1; }

wall=$((end - start))
tree_peak_mib=$(($(cat "$peakfile") / 1024))
if [[ -s "$timefile" ]]; then
  max_rss_kib=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$timefile")
  cpu_seconds=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%d", s}' "$timefile")
  log "build finished (no cached binaries for this hash): wall ${wall}s ($((wall / 60))m$((wall % 60))s), CPU ${cpu_seconds}s (user+sys), peak RSS of the largest single process $((max_rss_kib / 1024)) MiB, peak RSS of the whole build tree ~${tree_peak_mib} MiB, load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
else
  log "build finished (no cached binaries for this hash): wall ${wall}s ($((wall / 60))m$((wall % 60))s), peak RSS of the whole build tree ~${tree_peak_mib} MiB"
fi
{
  echo "hash=$hash"
  echo "go=$(go version)"
  echo "wall_seconds=$wall"
  echo "peak_tree_rss_mib=$tree_peak_mib"
  [[ -n "${max_rss_kib:-}" ]] && echo "max_single_rss_mib=$((max_rss_kib / 1024))"
  [[ -n "${cpu_seconds:-}" ]] && echo "cpu_seconds=$cpu_seconds"
  echo "nproc=$(nproc)"
  echo "built_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$work/build-info.txt"
rm -f "$timefile" "$peakfile"
ls -l "$work/bin" >&2

# Atomic publish: replace any partial directory of the same hash.
rm -rf "$final"
mv -T "$work" "$final"
write_pointer
echo "$bin"
