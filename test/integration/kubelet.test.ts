// Fake node registration and the kubelet stand-in, against a real API server + controller
// manager and a test double of the node plugin on a real Unix socket.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import * as grpc from "@grpc/grpc-js";
import { leftoverProcesses, startControlPlane, type ControlPlane } from "../envtest/controlPlane.ts";
import { loadCsi } from "../envtest/csiClient.ts";
import { createFakeNode, NODE_ID_ANNOTATION, registerPlugin } from "../envtest/fakeNodes.ts";
import { startKubelet, type Kubelet } from "../envtest/kubelet.ts";
import { createNamespace, eventually, type KubeClient, type KubeObject } from "../envtest/kubeClient.ts";

const DRIVER = "listeners.test.example.com";
const TOPOLOGY_KEY = "listeners.test.example.com/node";
const log = process.env["ENVTEST_LOG"] !== undefined ? (l: string) => console.error(l) : undefined;

type Call = { method: string; request: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A minimal CSI node plugin double: records requests; scripted failures per volume id. */
async function startDouble(socketPath: string, nodeId: string) {
  const csi = loadCsi();
  const calls: Call[] = [];
  // volume_id → list of gRPC codes to answer before succeeding
  const failures = new Map<string, grpc.status[]>();
  const server = new grpc.Server();
  const unary =
    (method: string, handler: (req: any) => object) => // eslint-disable-line @typescript-eslint/no-explicit-any
    (call: grpc.ServerUnaryCall<any, any>, cb: grpc.sendUnaryData<any>) => { // eslint-disable-line @typescript-eslint/no-explicit-any
      calls.push({ method, request: call.request });
      const pending = failures.get(call.request?.volume_id ?? "");
      const code = pending?.shift();
      if (code !== undefined) {
        cb({ code, details: `scripted ${grpc.status[code]}` } as grpc.ServiceError, null);
        return;
      }
      try {
        cb(null, handler(call.request));
      } catch (e) {
        cb({ code: grpc.status.INTERNAL, details: (e as Error).message } as grpc.ServiceError, null);
      }
    };
  server.addService(csi.Identity.service, {
    GetPluginInfo: unary("GetPluginInfo", () => ({ name: DRIVER, vendor_version: "test" })),
    GetPluginCapabilities: unary("GetPluginCapabilities", () => ({ capabilities: [] })),
    Probe: unary("Probe", () => ({ ready: { value: true } })),
  });
  server.addService(csi.Node.service, {
    NodeGetInfo: unary("NodeGetInfo", () => ({
      node_id: nodeId,
      max_volumes_per_node: "0",
      accessible_topology: { segments: { [TOPOLOGY_KEY]: nodeId } },
    })),
    NodeGetCapabilities: unary("NodeGetCapabilities", () => ({ capabilities: [] })),
    NodePublishVolume: unary("NodePublishVolume", (req) => {
      mkdirSync(req.target_path, { recursive: true }); // the plugin creates `mount`
      return {};
    }),
    NodeUnpublishVolume: unary("NodeUnpublishVolume", (req) => {
      rmSync(req.target_path, { recursive: true, force: true });
      return {};
    }),
  });
  await new Promise<void>((resolveBind, reject) =>
    server.bindAsync(`unix://${socketPath}`, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolveBind())),
  );
  return {
    calls,
    failures,
    of: (method: string) => calls.filter((c) => c.method === method),
    stop: () => new Promise<void>((r) => server.tryShutdown(() => r())),
  };
}

async function createPvPvc(kube: KubeClient, ns: string, pv: string, claim: string, handle: string, extra: Record<string, unknown> = {}) {
  await kube.create("/api/v1/persistentvolumes", {
    metadata: { name: pv },
    spec: {
      capacity: { storage: "1Gi" },
      accessModes: ["ReadWriteOnce"],
      persistentVolumeReclaimPolicy: "Delete",
      storageClassName: "",
      mountOptions: ["noatime"],
      claimRef: { namespace: ns, name: claim },
      csi: { driver: DRIVER, volumeHandle: handle, fsType: "ext4", volumeAttributes: { "listeners.test/class": "x", handle } },
      ...extra,
    },
  });
}

async function createPvc(kube: KubeClient, ns: string, name: string, pv: string) {
  await kube.create(`/api/v1/namespaces/${ns}/persistentvolumeclaims`, {
    metadata: { name },
    spec: { storageClassName: "", volumeName: pv, accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
  });
}

const podStatus = (kube: KubeClient, ns: string, name: string) => kube.getOrUndefined<KubeObject>(`/api/v1/namespaces/${ns}/pods/${name}`);

async function waitRunning(kube: KubeClient, ns: string, name: string): Promise<KubeObject> {
  return eventually(
    `pod ${ns}/${name} Running and Ready`,
    async () => {
      const pod = await podStatus(kube, ns, name);
      const ready = pod?.status?.conditions?.find((c: { type: string }) => c.type === "Ready")?.status === "True";
      return pod?.status?.phase === "Running" && ready && typeof pod.status.podIP === "string" ? pod : undefined;
    },
    { timeoutMs: 120_000 },
  );
}

describe("fake nodes and the kubelet stand-in", { timeout: 900_000 }, () => {
  let plane: ControlPlane;
  let work: string;
  let double: Awaited<ReturnType<typeof startDouble>>;
  let kubelet: Kubelet | undefined;
  const nodeName = "node-a";
  const ns = "kubelet-test";

  before(async () => {
    work = await mkdtemp(join(tmpdir(), "kubelet-test-"));
    plane = await startControlPlane({ controllerManager: true, log });
    double = await startDouble(join(work, "csi.sock"), nodeName);
    await createFakeNode(plane.kube, { name: nodeName, addresses: [{ type: "InternalIP", address: "192.0.2.1" }] });
    await createNamespace(plane.kube, ns);
    await plane.kube.create("/apis/storage.k8s.io/v1/csidrivers", {
      metadata: { name: DRIVER },
      spec: { attachRequired: false, podInfoOnMount: true, volumeLifecycleModes: ["Persistent"] },
    });
  });
  after(async () => {
    await kubelet?.stop();
    await double?.stop();
    await plane?.stop();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  test("registerPlugin labels the Node and creates the CSINode as the kubelet does", async () => {
    const reg = await registerPlugin({ kube: plane.kube, node: nodeName, socketPath: join(work, "csi.sock"), driverName: DRIVER });
    assert.deepEqual(reg, { nodeId: nodeName, maxVolumesPerNode: 0, topology: { [TOPOLOGY_KEY]: nodeName } });
    assert.ok(double.of("GetPluginInfo").length >= 1, "GetPluginInfo called (as node-driver-registrar does)");
    assert.equal(double.of("NodeGetInfo").length, 1);
    const node = await plane.kube.get<KubeObject>(`/api/v1/nodes/${nodeName}`);
    assert.equal(node.metadata.labels?.[TOPOLOGY_KEY], nodeName);
    assert.deepEqual(JSON.parse(node.metadata.annotations?.[NODE_ID_ANNOTATION] ?? "{}"), { [DRIVER]: nodeName });
    const csiNode = await plane.kube.get<KubeObject>(`/apis/storage.k8s.io/v1/csinodes/${nodeName}`);
    assert.deepEqual(csiNode.spec.drivers, [{ name: DRIVER, nodeID: nodeName, topologyKeys: [TOPOLOGY_KEY] }]);
    assert.deepEqual(
      (csiNode.metadata.ownerReferences ?? []).map((o) => [o["kind"], o["name"], o["uid"]]),
      [["Node", nodeName, node.metadata.uid]],
    );
    // Registering again is idempotent (one driver entry).
    await registerPlugin({ kube: plane.kube, node: nodeName, socketPath: join(work, "csi.sock"), driverName: DRIVER });
    const again = await plane.kube.get<KubeObject>(`/apis/storage.k8s.io/v1/csinodes/${nodeName}`);
    assert.equal(again.spec.drivers.length, 1);
  });

  test("registerPlugin refuses a topology value collision and a wrong driver name", async () => {
    await createFakeNode(plane.kube, {
      name: "node-collide",
      addresses: [{ type: "InternalIP", address: "192.0.2.2" }],
      labels: { [TOPOLOGY_KEY]: "something-else" },
    });
    await assert.rejects(
      registerPlugin({ kube: plane.kube, node: "node-collide", socketPath: join(work, "csi.sock"), driverName: DRIVER }),
      /topology value collision/,
    );
    assert.equal(await plane.kube.getOrUndefined(`/apis/storage.k8s.io/v1/csinodes/node-collide`), undefined);
    await assert.rejects(
      registerPlugin({ kube: plane.kube, node: nodeName, socketPath: join(work, "csi.sock"), driverName: "other.example.com" }),
      /reports name/,
    );
  });

  test("publishes a bound PV with what the kubelet sends, retrying UNAVAILABLE, then reports Running", async () => {
    kubelet = await startKubelet({
      kube: plane.kube,
      nodeName,
      socketPath: join(work, "csi.sock"),
      kubeletDir: join(work, "kubelet"),
      driverName: DRIVER,
      log,
    });
    await createPvPvc(plane.kube, ns, "pv-one", "claim-one", "vol-one");
    await createPvc(plane.kube, ns, "claim-one", "pv-one");
    double.failures.set("vol-one", [grpc.status.UNAVAILABLE]);
    await plane.kube.create(`/api/v1/namespaces/${ns}/pods`, {
      metadata: { name: "web-0", labels: { app: "web" } },
      spec: {
        nodeName,
        volumes: [{ name: "listener", persistentVolumeClaim: { claimName: "claim-one" } }],
        containers: [{ name: "main", image: "registry.invalid/web", ports: [{ containerPort: 8080, name: "http" }] }],
      },
    });
    const pod = await waitRunning(plane.kube, ns, "web-0");
    const uid = pod.metadata.uid as string;
    const publishes = double.of("NodePublishVolume");
    assert.equal(publishes.length, 2, "one UNAVAILABLE, then one success");
    const targetDir = join(work, "kubelet", "pods", uid, "volumes", "kubernetes.io~csi", "pv-one");
    const expected = {
      volume_id: "vol-one",
      publish_context: {},
      staging_target_path: "",
      target_path: join(targetDir, "mount"),
      volume_capability: {
        mount: { fs_type: "ext4", mount_flags: ["noatime"], volume_mount_group: "" },
        access_mode: { mode: "SINGLE_NODE_WRITER" },
        access_type: "mount",
      },
      readonly: false,
      secrets: {},
      volume_context: {
        "listeners.test/class": "x",
        handle: "vol-one",
        "csi.storage.k8s.io/pod.name": "web-0",
        "csi.storage.k8s.io/pod.namespace": ns,
        "csi.storage.k8s.io/pod.uid": uid,
        "csi.storage.k8s.io/serviceAccount.name": "default",
        "csi.storage.k8s.io/ephemeral": "false",
      },
    };
    assert.deepEqual(publishes[0]?.request, expected);
    assert.deepEqual(publishes[1]?.request, expected);
    assert.equal(statSync(targetDir).mode & 0o777, 0o750);
    const volData = JSON.parse(readFileSync(join(targetDir, "vol_data.json"), "utf8")) as Record<string, string>;
    assert.equal(volData["volumeHandle"], "vol-one");
    assert.equal(volData["driverName"], DRIVER);
    assert.equal(volData["specVolID"], "pv-one");
    assert.deepEqual(kubelet.published.get(uid)?.map((v) => v.pvName), ["pv-one"]);
    // Status as the kubelet reports it.
    assert.match(pod.status.podIP, /^10\.244\./);
    assert.equal(pod.status.hostIP, "192.0.2.1");
    assert.equal(pod.status.containerStatuses[0].ready, true);
    assert.ok(pod.status.containerStatuses[0].state.running);
  });

  test("a Service selecting the Running Pod gets an EndpointSlice with its IP", async () => {
    await plane.kube.create(`/api/v1/namespaces/${ns}/services`, {
      metadata: { name: "web" },
      spec: { selector: { app: "web" }, ports: [{ name: "http", port: 80, targetPort: "http" }] },
    });
    const pod = await plane.kube.get<KubeObject>(`/api/v1/namespaces/${ns}/pods/web-0`);
    const slice = await eventually(
      "EndpointSlice with the pod's address",
      async () => {
        const list = await plane.kube.list<KubeObject>(`/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`, {
          labelSelector: "kubernetes.io/service-name=web",
        });
        return list.items.find((s) => ((s["endpoints"] ?? []) as Array<{ addresses: string[] }>).some((e) => e.addresses.includes(pod.status.podIP)));
      },
      { timeoutMs: 120_000 },
    );
    const endpoint = (slice["endpoints"] as Array<{ conditions: { ready: boolean }; nodeName: string }>)[0];
    assert.equal(endpoint?.conditions.ready, true);
    assert.equal(endpoint?.nodeName, nodeName);
    assert.deepEqual((slice["ports"] as Array<{ port: number }>).map((p) => p.port), [8080]);
  });

  test("deleting the Pod unpublishes its volume and finishes the deletion", async () => {
    const pod = await plane.kube.get<KubeObject>(`/api/v1/namespaces/${ns}/pods/web-0`);
    const uid = pod.metadata.uid as string;
    await plane.kube.delete(`/api/v1/namespaces/${ns}/pods/web-0`); // default grace period: kubelet must finish it
    await eventually("pod to be gone", async () => (await podStatus(plane.kube, ns, "web-0")) === undefined, { timeoutMs: 120_000 });
    const unpublishes = double.of("NodeUnpublishVolume").filter((c) => c.request["volume_id"] === "vol-one");
    assert.equal(unpublishes.length, 1);
    assert.deepEqual(unpublishes[0]?.request, {
      volume_id: "vol-one",
      target_path: join(work, "kubelet", "pods", uid, "volumes", "kubernetes.io~csi", "pv-one", "mount"),
    });
    assert.equal(existsSync(join(work, "kubelet", "pods", uid)), false, "pod dir cleaned up");
    assert.equal(kubelet?.published.has(uid), false);
  });

  test("generic ephemeral volumes resolve to the <pod>-<volume> PVC", async () => {
    // The ephemeral-volume controller creates PVC eph-0-data; a pre-bound PV satisfies it.
    await createPvPvc(plane.kube, ns, "pv-eph", "eph-0-data", "vol-eph");
    await plane.kube.create(`/api/v1/namespaces/${ns}/pods`, {
      metadata: { name: "eph-0" },
      spec: {
        nodeName,
        volumes: [
          {
            name: "data",
            ephemeral: {
              volumeClaimTemplate: {
                spec: { storageClassName: "", accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
              },
            },
          },
        ],
        containers: [{ name: "main", image: "registry.invalid/x" }],
      },
    });
    const pod = await waitRunning(plane.kube, ns, "eph-0");
    const call = double.of("NodePublishVolume").find((c) => c.request["volume_id"] === "vol-eph");
    assert.ok(call, "published");
    assert.equal(call.request["volume_context"]["csi.storage.k8s.io/pod.uid"], pod.metadata.uid);
    assert.equal(call.request["target_path"], join(work, "kubelet", "pods", pod.metadata.uid as string, "volumes", "kubernetes.io~csi", "pv-eph", "mount"));
  });

  test("a non-transient error is recorded as a FailedMount Event and retried", async () => {
    await createPvPvc(plane.kube, ns, "pv-bad", "claim-bad", "vol-bad");
    await createPvc(plane.kube, ns, "claim-bad", "pv-bad");
    double.failures.set("vol-bad", [grpc.status.INVALID_ARGUMENT]);
    await plane.kube.create(`/api/v1/namespaces/${ns}/pods`, {
      metadata: { name: "bad-0" },
      spec: {
        nodeName,
        volumes: [{ name: "v", persistentVolumeClaim: { claimName: "claim-bad", readOnly: true } }],
        containers: [{ name: "main", image: "registry.invalid/x" }],
      },
    });
    const pod = await waitRunning(plane.kube, ns, "bad-0");
    const events = await plane.kube.list<KubeObject>(`/api/v1/namespaces/${ns}/events`, {
      fieldSelector: `involvedObject.uid=${pod.metadata.uid}`,
    });
    const failed = events.items.filter((e) => e["reason"] === "FailedMount");
    assert.equal(failed.length, 1);
    assert.match(failed[0]?.["message"] as string, /MountVolume\.SetUp failed for volume "pv-bad" : rpc error: code = InvalidArgument/);
    const calls = double.of("NodePublishVolume").filter((c) => c.request["volume_id"] === "vol-bad");
    assert.equal(calls.length, 2);
    assert.equal(calls[1]?.request["readonly"], true, "pod volume readOnly is passed on");
  });

  test("a Pod without our volumes is just set Running", async () => {
    await plane.kube.create(`/api/v1/namespaces/${ns}/pods`, {
      metadata: { name: "plain" },
      spec: { nodeName, containers: [{ name: "main", image: "registry.invalid/x" }] },
    });
    const publishesBefore = double.of("NodePublishVolume").length;
    const pod = await waitRunning(plane.kube, ns, "plain");
    assert.equal(double.of("NodePublishVolume").length, publishesBefore, "no CSI call for a pod without our volumes");
    assert.equal(kubelet?.published.has(pod.metadata.uid as string), false);
  });

  test("without a CSIDriver (attach assumed required) the Pod waits, as with the real kubelet", async () => {
    await plane.kube.delete(`/apis/storage.k8s.io/v1/csidrivers/${DRIVER}`);
    await createPvPvc(plane.kube, ns, "pv-noattach", "claim-noattach", "vol-noattach");
    await createPvc(plane.kube, ns, "claim-noattach", "pv-noattach");
    await plane.kube.create(`/api/v1/namespaces/${ns}/pods`, {
      metadata: { name: "noattach" },
      spec: {
        nodeName,
        volumes: [{ name: "v", persistentVolumeClaim: { claimName: "claim-noattach" } }],
        containers: [{ name: "main", image: "registry.invalid/x" }],
      },
    });
    const event = await eventually(
      "FailedMount event about attach",
      async () => {
        const events = await plane.kube.list<KubeObject>(`/api/v1/namespaces/${ns}/events`, {
          fieldSelector: "involvedObject.name=noattach,reason=FailedMount",
        });
        return events.items[0];
      },
      { timeoutMs: 60_000 },
    );
    assert.match(event["message"] as string, /WaitForAttach.*CSIDriver .* not found/);
    const pod = await plane.kube.get<KubeObject>(`/api/v1/namespaces/${ns}/pods/noattach`);
    assert.notEqual(pod.status?.phase, "Running");
    assert.equal(double.of("NodePublishVolume").filter((c) => c.request["volume_id"] === "vol-noattach").length, 0);
    // Once the CSIDriver exists the retry publishes and the Pod runs.
    await plane.kube.create("/apis/storage.k8s.io/v1/csidrivers", {
      metadata: { name: DRIVER },
      spec: { attachRequired: false, podInfoOnMount: true, volumeLifecycleModes: ["Persistent"] },
    });
    await waitRunning(plane.kube, ns, "noattach");
    assert.equal(double.of("NodePublishVolume").filter((c) => c.request["volume_id"] === "vol-noattach").length, 1);
  });

  test("stop() of the stand-in and the plane leaves no process", async () => {
    await kubelet?.stop();
    kubelet = undefined;
    await plane.stop();
    assert.deepEqual(await leftoverProcesses(), []);
  });
});
