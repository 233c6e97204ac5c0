// The configuration files of one real node: containerd, the CNI network, the kubelet and
// kube-proxy. Each setting that is not a default says why (see docs/real-cluster.md).
import { CLUSTER_DNS_IP, CLUSTER_DOMAIN } from "../clusteraddons/clusterDns.ts";

/** Paths as the node's components see them (inside the node's mount namespace). */
export const NODE_PATHS = {
  kubeletRoot: "/var/lib/kubelet",
  containerdSocket: "/run/containerd/containerd.sock",
  cniConfDir: "/etc/cni/net.d",
  /** Debian's containernetworking-plugins. */
  cniBinDir: "/usr/lib/cni",
} as const;

/**
 * Host directories bind-mounted over these paths in each node's private mount namespace,
 * so that every node has its own at the standard path (the chart's DaemonSet mounts
 * /var/lib/kubelet on every node) and everything mounted there dies with the namespace.
 */
export const PRIVATE_PATHS = [
  "/var/lib/kubelet",
  "/var/lib/containerd",
  "/run/containerd",
  "/etc/cni/net.d",
  "/var/lib/cni",
  "/var/log/pods",
  "/var/log/containers",
  "/run/netns",
] as const;

export function containerdConfig(options: { readonly sandboxImage: string }): string {
  return `version = 2
root = "/var/lib/containerd"
state = "/run/containerd"

[grpc]
  address = "${NODE_PATHS.containerdSocket}"

[plugins."io.containerd.grpc.v1.cri"]
  # The pause image is imported from an offline archive; nothing is ever pulled.
  sandbox_image = "${options.sandboxImage}"
  # This VM lacks CAP_SYS_RESOURCE: runc cannot lower oom_score_adj below the parent's and
  # every sandbox would fail with "can't get final child's PID from pipe: EOF".
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        # cgroup v1 without systemd: the cgroupfs driver, matching the kubelet.
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "${NODE_PATHS.cniBinDir}"
    conf_dir = "${NODE_PATHS.cniConfDir}"
`;
}

/** bridge + host-local: Pods on a node's own bridge, in its own pod CIDR; portmap for hostPorts. */
export function cniConfig(options: { readonly podCidr: string }): string {
  return JSON.stringify({
    cniVersion: "1.0.0",
    name: "listener-operator-e2e",
    plugins: [
      {
        type: "bridge",
        bridge: "cni0",
        isGateway: true,
        // Pod traffic to the API server (host side of the test bridge) leaves with the node's address.
        ipMasq: true,
        // A Pod reaching itself through a Service it backs.
        hairpinMode: true,
        ipam: { type: "host-local", ranges: [[{ subnet: options.podCidr }]], routes: [{ dst: "0.0.0.0/0" }] },
      },
      { type: "portmap", capabilities: { portMappings: true } },
    ],
  }, null, 2);
}

export function kubeletConfig(options: { readonly nodeIp: string; readonly clientCaFile: string }): string {
  return `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
# This machine mounts cgroup v1; kubelet 1.36 refuses it unless told otherwise.
failCgroupV1: false
# No systemd; containerd uses cgroupfs too (containerd 1.6 cannot report its driver over CRI).
cgroupDriver: cgroupfs
# Two kubelets share the machine's cgroup hierarchy: no per-QoS cgroups, no node allocatable
# enforcement (they would fight over /kubepods).
cgroupsPerQOS: false
enforceNodeAllocatable: []
failSwapOn: false
# The test machine's disk and memory are shared: never evict test Pods, never GC images
# (they cannot be pulled back).
evictionHard:
  memory.available: "1Mi"
  nodefs.available: "1%"
  nodefs.inodesFree: "1%"
  imagefs.available: "1%"
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
containerRuntimeEndpoint: unix://${NODE_PATHS.containerdSocket}
address: ${options.nodeIp}
port: 10250
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 10248
# The API server authenticates to the kubelet (logs, exec) with a client certificate of the
# test CA; every authenticated request is allowed.
authentication:
  anonymous:
    enabled: false
  webhook:
    enabled: false
  x509:
    clientCAFile: ${options.clientCaFile}
authorization:
  mode: AlwaysAllow
# Cluster DNS: CoreDNS behind the kube-dns Service (test/clusteraddons/coredns.ts); Pods
# with dnsPolicy ClusterFirst resolve <svc>.<ns>.svc.${CLUSTER_DOMAIN} through it.
clusterDNS: ["${CLUSTER_DNS_IP}"]
clusterDomain: ${CLUSTER_DOMAIN}
# Nothing upstream: the nodes have no route out, so the host's resolv.conf is not handed on.
resolvConf: ""
serializeImagePulls: false
# Faster reaction in tests: Pod status and volume retries.
syncFrequency: 10s
fileCheckFrequency: 10s
nodeStatusUpdateFrequency: 5s
`;
}

export function kubeProxyConfig(options: { readonly kubeconfig: string; readonly nodeName: string; readonly clusterCidr: string; readonly nodeSubnet: string }): string {
  return `apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection:
  kubeconfig: ${options.kubeconfig}
hostnameOverride: ${options.nodeName}
mode: iptables
clusterCIDR: ${options.clusterCidr}
# NodePorts answer on the node's address on the test bridge only.
nodePortAddresses: ["${options.nodeSubnet}"]
metricsBindAddress: 127.0.0.1:10249
healthzBindAddress: 127.0.0.1:10256
# Leave the machine-wide conntrack table size alone (a VM-global sysctl).
conntrack:
  maxPerCore: 0
iptables:
  minSyncPeriod: 1s
  syncPeriod: 30s
`;
}
