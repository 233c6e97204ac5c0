// MetalLB in L2 mode as the real-node cluster's load balancer: MetalLB's own Helm chart
// (from the pinned module, test/clusteraddons/build.sh) rendered by the real Helm, with the
// controller and speaker images test/images assembles under the chart's default names. Two
// things of the chart are left out, both because the API server runs on the host, which
// has no route to cluster IPs (kube-proxy runs inside the nodes' namespaces): the
// validating webhook (the controller runs with `--webhook-mode=disabled`) and the bgppeers
// CRD's conversion webhook (L2 mode has no BGP peers). Everything else is as the chart
// installs it: RBAC, the memberlist secret the controller creates, the speaker DaemonSet on
// the host network with NET_RAW answering ARP on each node's interface on the test bridge.
import { execFile } from "node:child_process";
import { parseAllDocuments } from "yaml";
import { binary, binDir } from "../envtest/binDir.ts";
import type { ControlPlane } from "../envtest/controlPlane.ts";
import type { KubeClient, KubeObject } from "../envtest/kubeClient.ts";
import { eventually } from "../envtest/kubeClient.ts";
import { isPodReady } from "../envtest/localCluster.ts";
import { applyObjects } from "./apply.ts";
import { metallbChartDir } from "./binDir.ts";

export const METALLB_NAMESPACE = "metallb-system";
export const METALLB_API = "/apis/metallb.io/v1beta1";

/** MetalLB's Service annotations (the stable `metallb.io/` names; `metallb.universe.tf/` are deprecated). */
export const METALLB_ANNOTATIONS = {
  addressPool: "metallb.io/address-pool",
  loadBalancerIPs: "metallb.io/loadBalancerIPs",
} as const;

/** `helm template` values: L2 only, no webhook (see above); fast probes, since a test waits for them. */
const VALUES = [
  // L2 mode only: no frr-k8s (the chart's default BGP backend since v0.16, a subchart).
  "frrk8s.enabled=false",
  "controller.webhookMode=disabled",
  "crds.validationFailurePolicy=Ignore",
  "controller.livenessProbe.initialDelaySeconds=1",
  "controller.readinessProbe.initialDelaySeconds=1",
  "controller.readinessProbe.periodSeconds=1",
  "speaker.livenessProbe.initialDelaySeconds=1",
  "speaker.readinessProbe.initialDelaySeconds=1",
  "speaker.readinessProbe.periodSeconds=1",
  "speaker.startupProbe.periodSeconds=1",
  "speaker.startupProbe.failureThreshold=120",
] as const;

const run = (command: string, args: ReadonlyArray<string>): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(command, [...args], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error !== null) reject(new Error(`${command} ${args.slice(0, 3).join(" ")} failed: ${stderr.trim() || error.message}`));
      else resolve(stdout);
    });
  });

/** The chart's objects as `helm template` renders them, less the webhooks. */
export async function renderMetallb(options: { readonly logLevel?: string } = {}): Promise<KubeObject[]> {
  const values = [...VALUES, ...(options.logLevel !== undefined ? [`controller.logLevel=${options.logLevel}`, `speaker.logLevel=${options.logLevel}`] : [])];
  const rendered = await run(binary("helm", binDir()), [
    "template", "metallb", metallbChartDir(), "--namespace", METALLB_NAMESPACE, "--include-crds",
    ...values.flatMap((v) => ["--set", v]),
  ]);
  const objects = parseAllDocuments(rendered).map((doc) => doc.toJS() as KubeObject | null).filter((o): o is KubeObject => o !== null && typeof o === "object" && o.kind !== undefined);
  return objects
    .filter((o) => o.kind !== "ValidatingWebhookConfiguration")
    .map((o) => o.kind === "CustomResourceDefinition" && o.spec?.conversion !== undefined ? { ...o, spec: { ...o.spec, conversion: { strategy: "None" } } } : o);
}

export async function installMetallb(plane: Pick<ControlPlane, "kubectl">, kube: KubeClient, options: { readonly logLevel?: string } = {}): Promise<void> {
  const objects = await renderMetallb(options);
  await applyObjects(plane, [{ apiVersion: "v1", kind: "Namespace", metadata: { name: METALLB_NAMESPACE } }]);
  // CRDs first and Established, then the rest (nothing of the chart is a MetalLB resource, but the controller lists them at start).
  const crds = objects.filter((o) => o.kind === "CustomResourceDefinition");
  await applyObjects(plane, crds);
  for (const crd of crds) {
    await eventually(`CRD ${crd.metadata.name} established`, async () => {
      const live = await kube.getOrUndefined(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`);
      return ((live?.status?.conditions ?? []) as Array<{ type: string; status: string }>).some((c) => c.type === "Established" && c.status === "True");
    }, { timeoutMs: 60_000, intervalMs: 200 });
  }
  await applyObjects(plane, objects.filter((o) => o.kind !== "CustomResourceDefinition"));
}

/** The controller Ready and a Ready speaker on each of `nodes`. */
export async function waitForMetallb(kube: KubeClient, nodes: ReadonlyArray<string>, timeoutMs = 180_000): Promise<void> {
  await eventually(`MetalLB controller and speakers on ${nodes.join(", ")} ready`, async () => {
    const pods = (await kube.list(`/api/v1/namespaces/${METALLB_NAMESPACE}/pods`)).items.filter(isPodReady);
    const component = (p: KubeObject) => p.metadata.labels?.["app.kubernetes.io/component"];
    return pods.some((p) => component(p) === "controller") &&
      nodes.every((n) => pods.some((p) => component(p) === "speaker" && p.spec?.nodeName === n));
  }, { timeoutMs, intervalMs: 500 });
}

/** An IPAddressPool of `addresses` (CIDRs or `a-b` ranges) announced in L2 mode. */
export function l2Pool(name: string, addresses: ReadonlyArray<string>, options: { readonly autoAssign?: boolean } = {}): KubeObject[] {
  return [
    {
      apiVersion: "metallb.io/v1beta1",
      kind: "IPAddressPool",
      metadata: { name, namespace: METALLB_NAMESPACE },
      spec: { addresses: [...addresses], autoAssign: options.autoAssign ?? true },
    },
    {
      apiVersion: "metallb.io/v1beta1",
      kind: "L2Advertisement",
      metadata: { name, namespace: METALLB_NAMESPACE },
      spec: { ipAddressPools: [name] },
    },
  ];
}

/** Create or change (server-side apply) an L2 pool: changing `addresses` moves the Services that hold an address outside them. */
export const applyL2Pool = (plane: Pick<ControlPlane, "kubectl">, name: string, addresses: ReadonlyArray<string>, options: { readonly autoAssign?: boolean } = {}): Promise<void> =>
  applyObjects(plane, l2Pool(name, addresses, options));

/** The load-balancer addresses MetalLB wrote into a Service's status. */
export const ingressIps = (service: KubeObject): string[] =>
  ((service.status?.loadBalancer?.ingress ?? []) as Array<{ ip?: string }>).flatMap((i) => (i.ip !== undefined ? [i.ip] : []));
