/**
 * The fault suite's world: the real control plane (kube-apiserver + etcd, which the tests
 * crash and restart), the CRDs, a headless ClusterIP ListenerClass (so thousands of
 * Listeners need no cluster IPs), and our controller role as separate processes
 * (`main.ts run controller`, exactly what the image runs) that the tests SIGKILL.
 *
 * What the tests count comes from the outside: the API server's own request metrics
 * (every write of every replica), the objects themselves (Services per Listener, their
 * owners) and each controller's /metrics (relists, reconciles, leadership).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { LISTENER_API_VERSION } from "../../domain/constants.ts";
import { crdManifests } from "../../k8s/crds.ts";
import { startControlPlane, type ControlPlane } from "../envtest/controlPlane.ts";
import { createNamespace, eventually, type KubeClient, type KubeObject } from "../envtest/kubeClient.ts";
import { freePorts } from "../envtest/ports.ts";
import { spawnTracked, type TrackedProcess } from "../envtest/processes.ts";

export const NS = "faults";
export const CLASS = "headless";
const LISTENERS = `/apis/listeners.stackable.tech/v1alpha1`;
const MAIN = resolve(import.meta.dirname, "..", "..", "main.ts");

/** Listeners per scenario: FAULTS_LISTENERS, else 1,000 (the documented full size) or 300 in CI. */
export const listenerCount = (): number =>
  Number(process.env["FAULTS_LISTENERS"] ?? (process.env["CI"] === "true" ? 300 : 1000));

export interface FaultPlane {
  readonly plane: ControlPlane;
  readonly kube: KubeClient;
  readonly dir: string;
  stop(): Promise<void>;
}

/** With `controllerManager`, garbage collection runs too (the Services of deleted Listeners go); with `auditLog`, the API server logs every write (who, what, when). */
export async function startFaultPlane(
  options: { readonly controllerManager?: boolean; readonly auditLog?: boolean; readonly log?: (line: string) => void } = {}
): Promise<FaultPlane> {
  const plane = await startControlPlane({
    ...(options.controllerManager === true ? { controllerManager: true } : {}),
    ...(options.auditLog === true ? { auditLog: true } : {}),
    ...(options.log !== undefined ? { log: options.log } : {})
  });
  const dir = await mkdtemp(join(tmpdir(), "faults-"));
  try {
    const kube = plane.kube;
    for (const crd of crdManifests()) await kube.create("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
    await eventually("CRDs served", async () => (await kube.getOrUndefined(`${LISTENERS}/listenerclasses`)) !== undefined, { timeoutMs: 60_000 });
    await createNamespace(kube, NS, { waitForServiceAccount: false });
    await kube.create(`${LISTENERS}/listenerclasses`, {
      apiVersion: LISTENER_API_VERSION,
      kind: "ListenerClass",
      metadata: { name: CLASS },
      spec: { serviceType: "ClusterIP", serviceOverrides: { spec: { clusterIP: "None" } } }
    });
    return {
      plane,
      kube,
      dir,
      stop: async () => {
        await plane.stop();
        await rm(dir, { recursive: true, force: true });
      }
    };
  } catch (error) {
    await plane.stop();
    throw error;
  }
}

export interface ControllerProcess {
  readonly name: string;
  readonly proc: TrackedProcess;
  /** The Prometheus text of its /metrics. */
  metrics(): Promise<string>;
  /** Whether /readyz answers 200. */
  ready(): Promise<boolean>;
}

/** Starts `run controller` as its own process; resolves once its /readyz answers 200. */
export async function spawnController(
  world: FaultPlane,
  name: string,
  options: { readonly leaderElection?: boolean; readonly kubeconfigPath?: string } = {}
): Promise<ControllerProcess> {
  const [port] = (await freePorts(1)) as [number];
  const proc = spawnTracked({
    name,
    command: process.execPath,
    args: ["--import", "tsx", MAIN, "run", "controller"],
    cwd: resolve(import.meta.dirname, "..", ".."),
    logPath: join(world.dir, `${name}.log`),
    env: {
      ...process.env,
      KUBECONFIG: options.kubeconfigPath ?? world.plane.kubeconfigPath,
      CSI_ENDPOINT: join(world.dir, `${name}.sock`),
      LISTENER_CLASS_PRESET: "none",
      METRICS_PORT: String(port),
      POD_NAME: name,
      LOG_FORMAT: "text",
      ...(options.leaderElection === true ? { POD_NAMESPACE: NS } : {})
    }
  });
  const get = async (path: string): Promise<{ status: number; text: string }> => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(5000) });
    return { status: response.status, text: await response.text() };
  };
  const ready = async () => (await get("/readyz").catch(() => ({ status: 0 }))).status === 200;
  await eventually(`${name} ready`, async () => {
    if (!proc.running()) throw new Error(`${name} exited:\n${proc.logTail()}`);
    return ready();
  }, { timeoutMs: 60_000, intervalMs: 200 });
  return { name, proc, ready, metrics: async () => (await get("/metrics")).text };
}

/** Creates `count` Listeners of the headless class, `concurrency` at a time. */
export async function createListeners(kube: KubeClient, prefix: string, count: number, concurrency = 32): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      await kube.create(`${LISTENERS}/namespaces/${NS}/listeners`, {
        apiVersion: LISTENER_API_VERSION,
        kind: "Listener",
        metadata: { name: `${prefix}-${index}` },
        spec: { className: CLASS, ports: [{ name: "http", port: 8080 }] }
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

export interface Convergence {
  readonly listeners: number;
  /** Listeners with an address and Ready=True. */
  readonly addressed: number;
  /** Services of our field manager / label. */
  readonly services: number;
  /** Services whose controlling Listener does not exist. */
  readonly orphaned: number;
  /** Listeners controlling more than one Service. */
  readonly duplicated: number;
}

const isAddressed = (listener: KubeObject): boolean => {
  const status = listener.status ?? {};
  const addresses = (status["ingressAddresses"] ?? []) as unknown[];
  const ready = ((status["conditions"] ?? []) as Array<{ type: string; status: string }>).some((c) => c.type === "Ready" && c.status === "True");
  return addresses.length > 0 && ready;
};

/** What the API server holds now: every Listener addressed, one Service each, nothing orphaned. */
export async function convergence(kube: KubeClient): Promise<Convergence> {
  const listeners = (await kube.list<KubeObject>(`${LISTENERS}/namespaces/${NS}/listeners`)).items;
  const services = (await kube.list<KubeObject>(`/api/v1/namespaces/${NS}/services`, { labelSelector: "app.kubernetes.io/managed-by=listeners.stackable.tech_listener" })).items;
  const listenerUids = new Set(listeners.map((l) => l.metadata.uid));
  const perOwner = new Map<string, number>();
  let orphaned = 0;
  for (const service of services) {
    const owner = ((service.metadata.ownerReferences ?? []) as Array<{ controller?: boolean; uid: string }>).find((o) => o.controller === true);
    if (owner === undefined || !listenerUids.has(owner.uid)) orphaned++;
    else perOwner.set(owner.uid, (perOwner.get(owner.uid) ?? 0) + 1);
  }
  return {
    listeners: listeners.length,
    addressed: listeners.filter(isAddressed).length,
    services: services.length,
    orphaned,
    duplicated: [...perOwner.values()].filter((n) => n > 1).length
  };
}

/** What the API server holds now, retried while it cannot answer yet (e.g. 429 while its caches initialise). */
export const convergenceNow = (kube: KubeClient): Promise<Convergence> =>
  eventually("Listeners and Services listed", () => convergence(kube), { timeoutMs: 60_000, intervalMs: 250 });

/** Waits until `expected` Listeners are all addressed; returns the milliseconds it took. */
export async function awaitConverged(kube: KubeClient, expected: number, timeoutMs = 300_000): Promise<{ ms: number; state: Convergence }> {
  const started = Date.now();
  const state = await eventually(`${expected} Listeners addressed`, async () => {
    const now = await convergence(kube).catch(() => undefined);
    return now !== undefined && now.listeners === expected && now.addressed === expected && now.services === expected ? now : undefined;
  }, { timeoutMs, intervalMs: 250 });
  return { ms: Date.now() - started, state };
}

/** `apiserver_request_total` summed by `VERB resource[/subresource]` (writes of every client). */
export async function apiRequests(plane: ControlPlane): Promise<Record<string, number>> {
  const totals: Record<string, number> = {};
  for (const line of (await plane.metrics()).split("\n")) {
    if (!line.startsWith("apiserver_request_total{")) continue;
    const labels = Object.fromEntries([...line.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const key = `${labels["verb"]} ${labels["resource"]}${labels["subresource"] ? `/${labels["subresource"]}` : ""}`;
    totals[key] = (totals[key] ?? 0) + Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return totals;
}

/** The difference of two `apiRequests` snapshots, keeping only keys that changed. */
export const requestsBetween = (before: Record<string, number>, after: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(after).map(([key, n]) => [key, n - (before[key] ?? 0)]).filter(([, n]) => (n as number) > 0));

/** A counter of a controller's /metrics, summed over series whose labels include `match`. */
export const metricSum = (text: string, name: string, match: Record<string, string> = {}): number =>
  text.split("\n")
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) => Object.entries(match).every(([key, value]) => line.includes(`${key}="${value}"`)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);

/**
 * What the controller's volume binder does for a Pod the node plugin marks (k8s/volumeBinder.ts):
 * its PodListeners `pod-<uid>`, owned by the Pod, bound to the Pod's node. For scenarios that
 * run the node plugin without a controller (they play the controller's part by hand): the
 * node plugin creates no PodListeners and waits for this one.
 */
export async function bindPodListeners(kube: KubeClient, pod: KubeObject): Promise<void> {
  const node = (pod.spec as { nodeName?: string } | undefined)?.nodeName ?? "";
  await kube.create(`/apis/listeners.stackable.tech/v1alpha1/namespaces/${pod.metadata.namespace}/podlisteners`, {
    apiVersion: "listeners.stackable.tech/v1alpha1",
    kind: "PodListeners",
    metadata: {
      name: `pod-${pod.metadata.uid}`,
      namespace: pod.metadata.namespace,
      labels: { "listeners.stackable.tech/bound-node": node },
      ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: pod.metadata.name, uid: pod.metadata.uid }]
    },
    spec: { listeners: {} }
  });
}
