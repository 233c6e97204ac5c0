#!/usr/bin/env bash
# Installs the Debian packages the real-node cluster needs, only those missing:
#   containerd + runc (the container runtime), containernetworking-plugins (bridge,
#   host-local, portmap in /usr/lib/cni), iptables + conntrack (kube-proxy), iproute2
#   (bridge, veth, network namespaces), util-linux (unshare, nsenter), busybox-static (the
#   test workload image), ca-certificates (the operator image's CA bundle).
# Debian's containerd service is not started: every node runs its own containerd.
set -euo pipefail
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
need containerd containerd ctr containerd-shim-runc-v2
need runc runc
need containernetworking-plugins /usr/lib/cni/bridge /usr/lib/cni/host-local /usr/lib/cni/portmap /usr/lib/cni/loopback
need iptables iptables iptables-save
need conntrack conntrack
need iproute2 ip
need util-linux unshare nsenter
need busybox-static /bin/busybox
need ca-certificates /etc/ssl/certs/ca-certificates.crt
if ((${#missing[@]} > 0)); then
  echo "realnodes: installing ${missing[*]}" >&2
  apt-get update -qq
  # policy-rc.d: never start Debian's containerd service while installing.
  printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Debian's busybox-static installs /bin/busybox; the image recipe checks that it is static.
file_out=$(LC_ALL=C ldd /bin/busybox 2>&1 || true)
[[ $file_out == *"not a dynamic executable"* ]] || { echo "realnodes: /bin/busybox is not static ($file_out)" >&2; exit 1; }
echo "realnodes: dependencies present" >&2
