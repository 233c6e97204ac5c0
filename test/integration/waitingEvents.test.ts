// Explainable waiting on the real API server: the node role and the controller role
// (composed as `run node` and `run controller` compose them) answer repeated
// NodePublishVolume and CreateVolume calls for volumes that cannot be published or
// provisioned yet, and each waiting reason yields exactly one Event per object whose series
// counts the retries — with the API writes counted, so a retrying kubelet or provisioner
// cannot flood — while the Listener's Ready condition names the same missing piece.
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
import { controllerRoleLayer } from "../../k8s/composition/controllerRoleLayer.ts";
import { nodeRoleLayer } from "../../k8s/composition/nodeRoleLayer.ts";
import { startControlPlane, type ControlPlane } from "../envtest/controlPlane.ts";
import { connectCsi, CsiCallError, type CsiClient } from "../envtest/csiClient.ts";
import { createFakeNode } from "../envtest/fakeNodes.ts";
import { createNamespace, eventually, type KubeClient, type KubeObject } from "../envtest/kubeClient.ts";

const NS = "waiting";
const NODE = "node-w";
const LISTENERS = `/apis/listeners.stackable.tech/v1alpha1`;
const RETRIES = 20;
const SERIES_INTERVAL_MS = 1500;
const EXTERNAL_ONLY = "external-only";

describe("explainable waiting on the real API server", { timeout: 300_000 }, () => {
  let plane: ControlPlane;
  let kube: KubeClient;
  let dir: string;
  let csi: CsiClient;
  let controllerCsi: CsiClient;
  let scope: Scope.Closeable;
  /** API requests of the node role, and of the controller role, by `<verb> <resource>`. */
  let stats: () => Promise<Record<string, number>>;
  let controllerStats: () => Promise<Record<string, number>>;

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
    // NODE has only an InternalIP: no address of the types this class accepts.
    await kube.create(`${LISTENERS}/listenerclasses`, {
      apiVersion: LISTENER_API_VERSION,
      kind: "ListenerClass",
      metadata: { name: EXTERNAL_ONLY },
      spec: { serviceType: "NodePort", pinnedNodePorts: true, nodeAddressTypes: ["ExternalDNS", "ExternalIP"] }
    });
    await listener("external", { className: EXTERNAL_ONLY, ports: [{ name: "http", port: 8080 }] });

    // Each role on its own connection, so that each one's API writes are counted apart.
    const seriesWriteInterval = `${SERIES_INTERVAL_MS} millis` as const;
    const socket = join(dir, "node.sock");
    const nodeRole = nodeRoleLayer({ csiEndpoint: socket, nodeName: NODE, vendorVersion: "test", eventSeriesWriteInterval: seriesWriteInterval }).pipe(
      Layer.provideMerge(Layer.merge(KubeApiHttp.layerFromKubeconfigFile(plane.kubeconfigPath), Readiness.layer))
    );
    const controllerSocket = join(dir, "controller.sock");
    const controllerRole = controllerRoleLayer({
      csiEndpoint: controllerSocket,
      clusterDomain: "cluster.local",
      preset: "none",
      vendorVersion: "test",
      instance: "waiting-controller",
      eventSeriesWriteInterval: seriesWriteInterval
    }).pipe(Layer.provideMerge(Layer.merge(KubeApiHttp.layerFromKubeconfigFile(plane.kubeconfigPath), Readiness.layer)));
    scope = Effect.runSync(Scope.make());
    const statsOf = (context: Context.Context<KubeApiHttp>) => {
      const http = Context.get(context, KubeApiHttp);
      return async () => (await Effect.runPromise(http.stats)).byVerbResource;
    };
    stats = statsOf(await Effect.runPromise(Layer.buildWithScope(nodeRole, scope)));
    controllerStats = statsOf(await Effect.runPromise(Layer.buildWithScope(controllerRole, scope)));
    csi = connectCsi(socket);
    controllerCsi = connectCsi(controllerSocket);
  });

  after(async () => {
    csi?.close();
    controllerCsi?.close();
    if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void));
    await plane?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  /** A PVC bound to a PV of our driver naming `listenerName`, and a Pod on NODE using it. */
  const volumeFor = async (name: string, listenerName: string, options: { pinned?: boolean } = {}) => {
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
        csi: { driver: CSI_DRIVER_NAME, volumeHandle: `pv-${name}`, volumeAttributes: { "listeners.stackable.tech/listener-name": listenerName } },
        // As the provisioner pins a volume of a pinnedNodePorts class: the Listener controller
        // finds the Listener's nodes through this affinity (and the PV labels publishing adds).
        ...(options.pinned === true
          ? { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "listeners.stackable.tech/hostname", operator: "In", values: [NODE] }] }] } } }
          : {})
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

  /** Keys are `<verb> events.events.k8s.io` (resource.group). */
  const eventWrites = (verb: string, snapshot: Record<string, number>) =>
    Object.entries(snapshot).filter(([key]) => key.startsWith(`${verb} events.`)).reduce((sum, [, n]) => sum + n, 0);

  /**
   * Runs `attempt` RETRIES times (each answering `code`), then asserts exactly one Event of
   * `reason` per object in `regarding` whose series counts every retry, and that no other
   * Event object about them was created — on the API server and in the reporter's writes.
   */
  const assertOneEventPerObject = async (args: {
    readonly attempt: () => Promise<string>;
    readonly code: string;
    readonly reason: string;
    readonly note: RegExp;
    readonly regarding: ReadonlyArray<{ readonly kind: string; readonly name: string }>;
    readonly reporterStats: () => Promise<Record<string, number>>;
  }) => {
    const before = await args.reporterStats();
    const writes = (verb: string, snapshot: Record<string, number>) => eventWrites(verb, snapshot) - eventWrites(verb, before);
    for (let i = 0; i < RETRIES; i++) assert.equal(await args.attempt(), args.code);
    const afterRetries = await args.reporterStats();
    assert.equal(writes("create", afterRetries), args.regarding.length, "one Event per object");
    // Patches are throttled per series: far fewer than one per retry.
    assert.ok(writes("patch", afterRetries) <= 2 * args.regarding.length, `series patches during the retries: ${writes("patch", afterRetries)}`);

    const about = async () => (await Promise.all(args.regarding.map(async ({ name }) => eventsAbout(name)))).flat();
    const settled = await eventually(`the series of ${args.reason} written`, async () => {
      const events = (await about()).filter((e) => e.reason === args.reason);
      return events.length === args.regarding.length && events.every((e) => e.count === RETRIES) ? events : undefined;
    }, { timeoutMs: 20_000, intervalMs: 250 });
    assert.deepEqual(settled.map((e) => e.kind).sort(), args.regarding.map((r) => r.kind).sort());
    for (const event of settled) assert.match(event.note, args.note);
    assert.equal((await about()).length, args.regarding.length, "no other Event objects about these objects");
    assert.equal(writes("create", await args.reporterStats()), args.regarding.length, "no new Event objects while the series grew");
  };

  /** The Listener's Ready condition, once the controller has written one matching `reason`. */
  const readyConditionOf = (name: string, reason: string) =>
    eventually(`Listener ${name} Ready=False ${reason}`, async () => {
      const listener = await kube.getOrUndefined<KubeObject>(`${LISTENERS}/namespaces/${NS}/listeners/${name}`);
      const conditions = ((listener?.["status"] as { conditions?: Array<Record<string, string>> } | undefined)?.conditions) ?? [];
      const ready = conditions.find((c) => c["type"] === "Ready");
      return ready !== undefined && ready["status"] === "False" && ready["reason"] === reason ? ready : undefined;
    }, { timeoutMs: 30_000, intervalMs: 250 });

  for (const [listenerName, podName, reason, note, code, ready] of [
    ["web", "waits-for-lb", "AwaitingListenerAddress", /Listener waiting\/web has no address yet; the volume is published as soon as it has one/, "Unavailable", {
      reason: "AwaitingAddresses",
      message: /^Service web has no address yet: status.loadBalancer.ingress of the Service is empty; it fills when a load-balancer controller assigns an address/
    }],
    ["ghost", "waits-for-listener", "ListenerNotFound", /Listener waiting\/ghost, named by the PVC's listeners.stackable.tech\/listener-name annotation, does not exist/, "Unavailable", undefined],
    ["classless", "waits-for-class-name", "ListenerHasNoClass", /Listener waiting\/classless has no spec.className; set it/, "FailedPrecondition", {
      reason: "NoClassName",
      message: /^Listener waiting\/classless has no spec.className/
    }],
    ["unknown-class", "waits-for-class", "ListenerClassNotFound", /ListenerClass missing does not exist; create it/, "Unavailable", {
      reason: "ListenerClassNotFound",
      message: /^ListenerClass missing \(spec.className of Listener waiting\/unknown-class\) does not exist/
    }]
  ] as const) {
    test(`${reason}: ${RETRIES} retries make one Event on the Pod and one on the PVC, counted in their series${ready === undefined ? "" : "; the Listener's Ready condition says the same"}`, async () => {
      const volume = await volumeFor(podName, listenerName);
      await assertOneEventPerObject({
        attempt: () => publish(volume, listenerName),
        code,
        reason,
        note,
        regarding: [{ kind: "Pod", name: podName }, { kind: "PersistentVolumeClaim", name: `data-${podName}` }],
        reporterStats: stats
      });
      if (ready !== undefined) assert.match((await readyConditionOf(listenerName, ready.reason))["message"]!, ready.message);
    });
  }

  test(`NodeAddressUnusable: ${RETRIES} retries on a node without an address of the class's types make one Event on the Pod and one on the PVC; the Listener's Ready condition names the node`, async () => {
    // The controller has created the NodePort Service and recorded its node ports, so the
    // only missing piece is the node's address.
    await eventually("node ports of Listener external", async () => {
      const listener = await kube.getOrUndefined<KubeObject>(`${LISTENERS}/namespaces/${NS}/listeners/external`);
      return Object.keys((listener?.["status"] as { nodePorts?: object } | undefined)?.nodePorts ?? {}).length > 0 ? true : undefined;
    }, { timeoutMs: 30_000, intervalMs: 250 });
    const volume = await volumeFor("waits-for-node-address", "external", { pinned: true });
    await assertOneEventPerObject({
      attempt: () => publish(volume, "external"),
      code: "Unavailable",
      reason: "NodeAddressUnusable",
      note: new RegExp(
        `^node ${NODE} has no usable address of the class's nodeAddressTypes \\(ExternalDNS, ExternalIP\\); ` +
          `give the Node an address of type ExternalDNS or ExternalIP \\(the spec.nodeAddressTypes of ListenerClass ${EXTERNAL_ONLY}, in this order\\)`
      ),
      regarding: [{ kind: "Pod", name: "waits-for-node-address" }, { kind: "PersistentVolumeClaim", name: "data-waits-for-node-address" }],
      reporterStats: stats
    });
    const ready = await eventually("the Ready condition naming the node", async () => {
      const condition = await readyConditionOf("external", "AwaitingAddresses");
      return condition["message"]!.includes(NODE) ? condition : undefined;
    }, { timeoutMs: 30_000, intervalMs: 250 });
    assert.match(ready["message"]!, new RegExp(`^Service external has no address yet: node\\(s\\) ${NODE} have no address of the class's nodeAddressTypes \\(ExternalDNS, ExternalIP\\)$`));
  });

  // The chart's ValidatingAdmissionPolicy refuses these PVCs at admission (manifests.test.ts);
  // this cluster runs without it, as one where `pvcAdmissionPolicy` is off, or PVCs that
  // predate the policy: the provisioner's CreateVolume retries are explained on the PVC.
  for (const [claimName, annotations, problem] of [
    ["data-both", { "listeners.stackable.tech/listener-name": "web", "listeners.stackable.tech/listener-class": "lb" }, "has both listeners.stackable.tech/listener-name and listeners.stackable.tech/listener-class; exactly one is allowed"],
    ["data-neither", {}, "has neither listeners.stackable.tech/listener-name nor listeners.stackable.tech/listener-class; exactly one is required"]
  ] as const) {
    test(`InvalidListenerVolume (${claimName}): ${RETRIES} CreateVolume retries make one Event on the PVC, counted in its series`, async () => {
      await kube.create(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, {
        metadata: { name: claimName, annotations },
        spec: { accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1" } }, storageClassName: "listeners.stackable.tech" }
      });
      const createVolume = async () => {
        try {
          await controllerCsi.call("Controller", "CreateVolume", {
            name: `pvc-${claimName}`,
            volume_capabilities: [{ mount: { fs_type: "", mount_flags: [] }, access_mode: { mode: "MULTI_NODE_MULTI_WRITER" } }],
            // What the external provisioner sends with --extra-create-metadata.
            parameters: { "csi.storage.k8s.io/pvc/name": claimName, "csi.storage.k8s.io/pvc/namespace": NS }
          }, 30_000);
          return "OK";
        } catch (error) {
          if (error instanceof CsiCallError) return error.codeName;
          throw error;
        }
      };
      await assertOneEventPerObject({
        attempt: createVolume,
        code: "InvalidArgument",
        reason: "InvalidListenerVolume",
        note: new RegExp(`^PersistentVolumeClaim ${NS}/${claimName} ${problem}; recreate the PVC with exactly one of them`),
        regarding: [{ kind: "PersistentVolumeClaim", name: claimName }],
        reporterStats: controllerStats
      });
    });
  }
});
