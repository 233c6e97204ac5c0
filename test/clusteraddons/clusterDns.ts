// The cluster DNS every Pod of the real-node cluster is given (kubelet `clusterDNS` /
// `clusterDomain`): CoreDNS behind a Service with a fixed cluster IP, as kubeadm sets it up.
// Plain constants, so the node configuration can name them without loading the add-on code.

/** The cluster domain: `<svc>.<ns>.svc.cluster.local`, what the operator's Hostname addresses end in. */
export const CLUSTER_DOMAIN = "cluster.local";

/**
 * The kube-dns Service's cluster IP: the tenth address of test/envtest's service range
 * (10.0.0.0/16), the convention kubeadm follows. Reserved here so the kubelets can be
 * configured before the Service exists.
 */
export const CLUSTER_DNS_IP = "10.0.0.10";

export const DNS_NAMESPACE = "kube-system";
export const DNS_SERVICE = "kube-dns";
