// Explainable waiting on the real API server: the node role (composed as `run node`
// composes it) answers repeated NodePublishVolume calls for volumes that cannot be
// published yet, and each waiting reason yields exactly one Event per object whose series
// counts the retries — with the API writes counted, so a retrying kubelet cannot flood.
import assert from "node:assert/strict";
import { mkdtemp, mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Context, Effect, Exit, Layer, Scope } from "effect";
import { KubeApiHttp } from "../../adapters/KubeApiHttp.ts";
import { CSI_DRIVER_NAME, LISTENER_API_VERSION } from "../../domain/constants.ts";
import { crdManifests } from "../../k8s/crds.ts";
import { Readiness } from "../../k8s/operability/probes.ts";
import { nodeRoleLayer } from "../../k8s/roles/nodeRole.ts";
import { startControlPlane, type ControlPlane } from "../envtest/controlPlane.ts";
import { connectCsi, CsiCallError, type CsiClient } from "../envtest/csiClient.ts";
import { createFakeNode } from "../envtest/fakeNodes.ts";
import { createNamespace, eventually, type KubeClient, type KubeObject } from "../envtest/kubeClient.ts";

const NS = "waiting";
const NODE = "node-w";
const LISTENERS = `/apis/listeners.stackable.tech/v1alpha1`;
const RETRIES = 20;
const SERIES_INTERVAL_MS = 1500;

describe("explainable waiting on the real API server", { timeout: 300_000 }, () => {
  let plane: ControlPlane;
  let kube: KubeClient;
  let dir: string;
  let csi: CsiClient;
  let scope: Scope.Closeable;
  let stats: () => Promise<Record<string, number>>;

  before(async () => {
    plane = await startControlPlane();
    kube = plane.kube;
    dir = await mkdtemp(join(tmpdir(), "waiting-events-"));
    for (const crd of crdManifests()) await kube.create("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
    await eventually("CRDs served", async () => (await kube.getOrUndefined(`${LISTENERS}/listenerclasses`)) !== undefined, { timeoutMs: 60_000 });
    await createNamespace(kube, NS, { waitForServiceAccount: false });
    await createFakeNode(kube, { name: NODE, addresses: [{ type: "InternalIP", address: "192.0.2.31" }] });
    await kube.create(`${LISTENERS}/listenerclasses`, { apiVersion: LISTENER_API_VERSION, kind: "ListenerClass", metadata: { name: "lb" }, spec: { serviceType: "LoadBalancer" } });
    const listener = (name: string, spec: object) =>
      kube.create(`${LISTENERS}/namespaces/${NS}/listeners`, { apiVersion: LISTENER_API_VERSION, kind: "Listener", metadata: { name }, spec });
    await listener("web", { className: "lb", ports: [{ name: "http", port: 8080 }] });
    await listener("classless", { ports: [{ name: "http", port: 8080 }] });
    await listener("unknown-class", { className: "missing", ports: [{ name: "http", port: 8080 }] });

    const socket = join(dir, "node.sock");
    const http = KubeApiHttp.layerFromKubeconfigFile(plane.kubeconfigPath);
    const role = nodeRoleLayer({ csiEndpoint: socket, nodeName: NODE, vendorVersion: "test", eventSeriesWriteInterval: `${SERIES_INTERVAL_MS} millis` }).pipe(
      Layer.provideMerge(Layer.merge(http, Readiness.layer))
    );
    scope = Effect.runSync(Scope.make());
    const context = await Effect.runPromise(Layer.buildWithScope(role, scope));
    const httpStats = Context.get(context, KubeApiHttp);
    stats = async () => (await Effect.runPromise(httpStats.stats)).byVerbResource;
    csi = connectCsi(socket);
  });

  after(async () => {
    csi?.close();
    if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void));
    await plane?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  /** A PVC bound to a PV of our driver naming `listenerName`, and a Pod on NODE using it. */
  const volumeFor = async (name: string, listenerName: string) => {
    const claim = await kube.create<KubeObject>(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, {
      metadata: { name: `data-${name}`, annotations: { "listeners.stackable.tech/listener-name": listenerName } },
      spec: { accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1" } }, storageClassName: "listeners.stackable.tech", volumeName: `pv-${name}` }
    });
    await kube.create("/api/v1/persistentvolumes", {
      metadata: { name: `pv-${name}` },
      spec: {
        capacity: { storage: "1" },
        accessModes: ["ReadWriteMany"],
        storageClassName: "listeners.stackable.tech",
        claimRef: { namespace: NS, name: `data-${name}`, uid: claim.metadata.uid },
        csi: { driver: CSI_DRIVER_NAME, volumeHandle: `pv-${name}`, volumeAttributes: { "listeners.stackable.tech/listener-name": listenerName } }
      }
    });
    const pod = await kube.create<KubeObject>(`/api/v1/namespaces/${NS}/pods`, {
      metadata: { name },
      spec: {
        nodeName: NODE,
        containers: [{ name: "app", image: "busybox", ports: [{ name: "http", containerPort: 8080 }], volumeMounts: [{ name: "listener", mountPath: "/listener" }] }],
        volumes: [{ name: "listener", persistentVolumeClaim: { claimName: `data-${name}` } }]
      }
    });
    const target = join(dir, "pods", pod.metadata.uid!, "volumes", "kubernetes.io~csi", `pv-${name}`, "mount");
    await mkdir(join(target, ".."), { recursive: true });
    return { pod, target, volumeId: `pv-${name}` };
  };

  const publish = async (volume: { pod: KubeObject; target: string; volumeId: string }, listenerName: string) => {
    try {
      await csi.call("Node", "NodePublishVolume", {
        volume_id: volume.volumeId,
        target_path: volume.target,
        volume_capability: { mount: { fs_type: "", mount_flags: [] }, access_mode: { mode: "MULTI_NODE_MULTI_WRITER" } },
        readonly: false,
        volume_context: {
          "listeners.stackable.tech/listener-name": listenerName,
          "csi.storage.k8s.io/pod.name": volume.pod.metadata.name,
          "csi.storage.k8s.io/pod.namespace": NS,
          "csi.storage.k8s.io/pod.uid": volume.pod.metadata.uid,
          "csi.storage.k8s.io/serviceAccount.name": "default",
          "csi.storage.k8s.io/ephemeral": "false"
        }
      }, 30_000);
      return "OK";
    } catch (error) {
      if (error instanceof CsiCallError) return error.codeName;
      throw error;
    }
  };

  const eventsAbout = async (name: string) => {
    const list = await kube.list<KubeObject>(`/apis/events.k8s.io/v1/namespaces/${NS}/events`);
    return list.items.filter((e) => (e["regarding"] as { name: string }).name === name).map((e) => ({
      kind: (e["regarding"] as { kind: string }).kind,
      reason: String(e["reason"]),
      note: String(e["note"]),
      count: (e["series"] as { count?: number } | undefined)?.count ?? 1
    }));
  };

  for (const [listenerName, podName, reason, note, code] of [
    ["web", "waits-for-lb", "AwaitingListenerAddress", /Listener waiting\/web has no address yet; the volume is published as soon as it has one/, "Unavailable"],
    ["ghost", "waits-for-listener", "ListenerNotFound", /Listener waiting\/ghost, named by the PVC's listeners.stackable.tech\/listener-name annotation, does not exist/, "Unavailable"],
    ["classless", "waits-for-class-name", "ListenerHasNoClass", /Listener waiting\/classless has no spec.className; set it/, "FailedPrecondition"],
    ["unknown-class", "waits-for-class", "ListenerClassNotFound", /ListenerClass missing does not exist; create it/, "Unavailable"]
  ] as const) {
    test(`${reason}: ${RETRIES} retries make one Event on the Pod and one on the PVC, counted in their series`, async () => {
      const volume = await volumeFor(podName, listenerName);
      const before = await stats();
      for (let i = 0; i < RETRIES; i++) assert.equal(await publish(volume, listenerName), code);
      const afterRetries = await stats();
      // Keys are `<verb> events.events.k8s.io` (resource.group).
      const count = (verb: string, snapshot: Record<string, number>) =>
        Object.entries(snapshot).filter(([key]) => key.startsWith(`${verb} events.`)).reduce((sum, [, n]) => sum + n, 0);
      const writes = (verb: string, snapshot: Record<string, number>) => count(verb, snapshot) - count(verb, before);
      assert.equal(writes("create", afterRetries), 2, "one Event for the Pod, one for the PVC");
      // Patches are throttled per series: far fewer than one per retry.
      assert.ok(writes("patch", afterRetries) <= 4, `series patches during the retries: ${writes("patch", afterRetries)}`);

      const settled = await eventually(`the series of ${podName} written`, async () => {
        const events = [...await eventsAbout(podName), ...await eventsAbout(`data-${podName}`)].filter((e) => e.reason === reason);
        return events.length === 2 && events.every((e) => e.count === RETRIES) ? events : undefined;
      }, { timeoutMs: 20_000, intervalMs: 250 });
      assert.deepEqual(settled.map((e) => e.kind).sort(), ["PersistentVolumeClaim", "Pod"]);
      for (const event of settled) assert.match(event.note, note);
      const total = await stats();
      assert.equal(writes("create", total), 2, "no new Event objects while the series grew");
    });
  }
});
