// CoreDNS as the real-node cluster's DNS: the objects kubeadm installs (ServiceAccount,
// ClusterRole for the kubernetes plugin, Corefile ConfigMap, a two-replica Deployment and
// the kube-dns Service at CLUSTER_DNS_IP), with the image test/images assembles from
// test/clusteraddons' build. The kubelets point every ClusterFirst Pod at that address
// (nodeConfig.ts). Nothing is forwarded upstream: the nodes have no route out, so only
// cluster.local (and its reverse zones) is answered.
import type { ControlPlane } from "../envtest/controlPlane.ts";
import type { KubeClient, KubeObject } from "../envtest/kubeClient.ts";
import { eventually } from "../envtest/kubeClient.ts";
import { isPodReady } from "../envtest/localCluster.ts";
import { applyObjects } from "./apply.ts";
import { CLUSTER_DNS_IP, CLUSTER_DOMAIN, DNS_NAMESPACE, DNS_SERVICE } from "./clusterDns.ts";

const NAME = "coredns";
const LABELS = { "k8s-app": DNS_SERVICE };

/** The Corefile: the kubernetes plugin reads Services, EndpointSlices, Pods and Namespaces from the API server. */
export const COREFILE = `.:53 {
    errors
    health :8080
    ready :8181
    kubernetes ${CLUSTER_DOMAIN} in-addr.arpa ip6.arpa {
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
        ttl 5
    }
    prometheus :9153
    cache 5
    loadbalance
}
`;

export function corednsObjects(image: string): KubeObject[] {
  const meta = (name: string, namespaced = true) => ({ name, ...(namespaced ? { namespace: DNS_NAMESPACE } : {}), labels: LABELS });
  return [
    { apiVersion: "v1", kind: "ServiceAccount", metadata: meta(NAME) },
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: meta("system:coredns", false),
      rules: [
        { apiGroups: [""], resources: ["endpoints", "services", "pods", "namespaces"], verbs: ["list", "watch"] },
        { apiGroups: ["discovery.k8s.io"], resources: ["endpointslices"], verbs: ["list", "watch"] },
      ],
    },
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      metadata: meta("system:coredns", false),
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "system:coredns" },
      subjects: [{ kind: "ServiceAccount", name: NAME, namespace: DNS_NAMESPACE }],
    },
    { apiVersion: "v1", kind: "ConfigMap", metadata: meta(NAME), data: { Corefile: COREFILE } },
    {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: meta(NAME),
      spec: {
        // Two replicas, one per node (as real clusters run it): a node going away leaves DNS up.
        replicas: 2,
        selector: { matchLabels: LABELS },
        template: {
          metadata: { labels: LABELS },
          spec: {
            serviceAccountName: NAME,
            // CoreDNS itself must not resolve through itself.
            dnsPolicy: "Default",
            priorityClassName: "system-cluster-critical",
            terminationGracePeriodSeconds: 1,
            affinity: {
              podAntiAffinity: {
                preferredDuringSchedulingIgnoredDuringExecution: [{
                  weight: 100,
                  podAffinityTerm: { labelSelector: { matchLabels: LABELS }, topologyKey: "kubernetes.io/hostname" },
                }],
              },
            },
            containers: [{
              name: NAME,
              image,
              imagePullPolicy: "Never",
              args: ["-conf", "/etc/coredns/Corefile"],
              ports: [
                { name: "dns", containerPort: 53, protocol: "UDP" },
                { name: "dns-tcp", containerPort: 53, protocol: "TCP" },
                { name: "metrics", containerPort: 9153, protocol: "TCP" },
              ],
              resources: { requests: { cpu: "10m", memory: "20Mi" }, limits: { memory: "100Mi" } },
              readinessProbe: { httpGet: { path: "/ready", port: 8181 }, periodSeconds: 1 },
              livenessProbe: { httpGet: { path: "/health", port: 8080 }, periodSeconds: 10, failureThreshold: 5 },
              volumeMounts: [{ name: "config", mountPath: "/etc/coredns", readOnly: true }],
            }],
            volumes: [{ name: "config", configMap: { name: NAME } }],
          },
        },
      },
    },
    {
      apiVersion: "v1",
      kind: "Service",
      metadata: { ...meta(DNS_SERVICE), annotations: { "prometheus.io/port": "9153", "prometheus.io/scrape": "true" } },
      spec: {
        selector: LABELS,
        clusterIP: CLUSTER_DNS_IP,
        ports: [
          { name: "dns", port: 53, protocol: "UDP", targetPort: 53 },
          { name: "dns-tcp", port: 53, protocol: "TCP", targetPort: 53 },
          { name: "metrics", port: 9153, protocol: "TCP", targetPort: 9153 },
        ],
      },
    },
  ];
}

/** Apply CoreDNS's objects. */
export const installCoreDns = (plane: Pick<ControlPlane, "kubectl">, image: string): Promise<void> => applyObjects(plane, corednsObjects(image));

/** Both replicas Ready, so the kube-dns Service has endpoints on every node's kube-proxy. */
export async function waitForCoreDns(kube: KubeClient, timeoutMs = 180_000): Promise<void> {
  await eventually("CoreDNS ready (2 replicas)", async () => {
    const pods = (await kube.list(`/api/v1/namespaces/${DNS_NAMESPACE}/pods`, { labelSelector: `k8s-app=${DNS_SERVICE}` })).items;
    return pods.filter(isPodReady).length >= 2;
  }, { timeoutMs, intervalMs: 500 });
}
