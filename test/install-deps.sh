#!/usr/bin/env bash
# What `npm test` needs beyond Node and Go, installed when missing (and only what is missing)
# so that a fresh Debian machine passes with `npm ci && npm test`:
#   openssl (test CA of the control plane), time (GNU time: peak memory of the envtest build),
#   iproute2 + procps (process and port checks; bridges, veths and namespaces of the real
#   nodes), binutils (strip: the operator image's Node binary), prometheus (promtool for the
#   alert rule tests; the server the e2e suite scrapes the roles with), and the real-node
#   cluster's containerd, runc, CNI plugins, iptables, conntrack, util-linux (unshare,
#   nsenter), busybox-static (the test workload image) and ca-certificates (docs/real-cluster.md);
#   maven (resolves the Kafka image's jars from Maven Central) and kcat (the Kafka client on the
#   host) for the Kafka scenario. The Kafka image's JRE is `apt-get download`ed, not installed.
# Run as root it installs what is missing with apt-get; run as anyone else it stops at once
# with one line naming the command to run. Debian's containerd and prometheus services are
# never started: the tests run their own.
set -euo pipefail
# Packages' commands live in sbin too, which a non-root PATH often lacks.
PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin
missing=()
need() { # $1 = package, $2.. = files or commands that prove it is installed
  local package=$1 probe
  shift
  for probe in "$@"; do
    if [[ $probe == /* ]]; then [[ -e $probe ]] || { missing+=("$package"); return; }
    else command -v "$probe" >/dev/null 2>&1 || { missing+=("$package"); return; }
    fi
  done
}
need openssl openssl
need time /usr/bin/time
need iproute2 ip ss bridge
need procps pgrep ps
need binutils strip
need prometheus promtool /usr/bin/prometheus
need containerd containerd ctr containerd-shim-runc-v2
need runc runc
need containernetworking-plugins /usr/lib/cni/bridge /usr/lib/cni/host-local /usr/lib/cni/portmap /usr/lib/cni/loopback
need iptables iptables iptables-save
need conntrack conntrack
need util-linux unshare nsenter
need busybox-static /bin/busybox
need ca-certificates /etc/ssl/certs/ca-certificates.crt
need maven mvn
need kcat kcat

go_missing=false
command -v go >/dev/null 2>&1 || go_missing=true

if [[ $(id -u) != 0 ]]; then
  line="npm test runs real kubelets and containerd, as root"
  ((${#missing[@]} > 0)) && line+=", and installs the missing Debian packages ${missing[*]}"
  line+=": run it as root, e.g. sudo env \"PATH=\$PATH\" npm test"
  $go_missing && line+=", once Go is installed (https://go.dev/dl/)"
  echo "$line" >&2
  exit 1
fi
if $go_missing; then
  echo "npm test needs Go (it builds kube-apiserver, etcd, kubelet, ... from the Go module proxy): install it from https://go.dev/dl/ and put go on PATH" >&2
  exit 1
fi
if ((${#missing[@]} > 0)); then
  echo "install-deps: installing ${missing[*]}" >&2
  apt-get update -qq
  # policy-rc.d: never start Debian's containerd or prometheus service while installing.
  printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Debian's busybox-static installs /bin/busybox; the image recipe checks that it is static.
ldd_out=$(LC_ALL=C ldd /bin/busybox 2>&1 || true)
[[ $ldd_out == *"not a dynamic executable"* ]] || { echo "install-deps: /bin/busybox is not static ($ldd_out)" >&2; exit 1; }
echo "install-deps: everything npm test needs is present" >&2
