// Fault suite, scenario 6: hostile and malformed input, fuzzed with fast-check.
//  (a) CSI requests at both sockets — the controller role's (CreateVolume, DeleteVolume,
//      ValidateVolumeCapabilities) and the node role's (NodePublish/NodeUnpublishVolume),
//      each its own process — with random ids, paths, volume contexts and capabilities;
//  (b) ListenerClass and Listener specs, Node addresses and override annotations, and
//      load-balancer ingress values written through the real API server.
// Invariants: neither process ever exits; every refusal carries a CSI code a caller can act
// on, and INVALID_ARGUMENT names a field of the request; nothing is written or removed
// but the targets of accepted publishes and unpublishes (the test snapshots the directory
// that holds the kubelet dir — Pod directories full of what the kubelet keeps there
// included —, the sockets and a decoy "outside" tree); every Listener the API server accepted ends up
// with a Ready condition, and every address it publishes is an IP or a DNS name.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import fc from "fast-check";
import { status as grpcStatus } from "@grpc/grpc-js";
import { CSI_DRIVER_NAME, LISTENER_API_VERSION, mountLabelKey } from "../../domain/constants.ts";
import { addressProblem } from "../../domain/addressSyntax.ts";
import { connectCsi, CsiCallError, type CsiClient } from "../envtest/csiClient.ts";
import { createFakeNode, type NodeAddress } from "../envtest/fakeNodes.ts";
import { eventually, KubeError, type KubeObject } from "../envtest/kubeClient.ts";
import { spawnTracked, type TrackedProcess } from "../envtest/processes.ts";
import { apiCase, csiCase, KNOWN_PODS, KNOWN_VOLUMES, type ApiCase, type CsiCase } from "./fuzzInputs.ts";
import { CLASS, NS, spawnController, startFaultPlane, type ControllerProcess, type FaultPlane } from "./harness.ts";
import { report } from "./report.ts";

const CI = process.env["CI"] === "true";
const CSI_RUNS = Number(process.env["FAULTS_RUNS"] ?? (CI ? 2000 : 5000));
const API_RUNS = Number(process.env["FAULTS_API_RUNS"] ?? (CI ? 60 : 300));
const SEED = Number(process.env["FAULTS_SEED"] ?? 20261125);
const BUNDLE = resolve(import.meta.dirname, "..", "..", "dist", "bin", "main.js");
const LISTENERS = `/apis/listeners.stackable.tech/v1alpha1`;
const NODE = "fuzz-node";

/** Codes a caller can act on; INTERNAL, UNKNOWN or a deadline would mean a defect. */
const ACCEPTABLE_CODES = new Set([
  grpcStatus.INVALID_ARGUMENT, grpcStatus.NOT_FOUND, grpcStatus.ALREADY_EXISTS, grpcStatus.FAILED_PRECONDITION,
  grpcStatus.UNAVAILABLE, grpcStatus.ABORTED, grpcStatus.UNIMPLEMENTED
]);

/** Every path below `root` (relative) with what it is: file contents hash, link target, or dir. */
const snapshot = (root: string, skip: (relative: string) => boolean): Map<string, string> => {
  const seen = new Map<string, string>();
  const walk = (relative: string) => {
    for (const name of readdirSync(join(root, relative))) {
      const path = relative === "" ? name : `${relative}/${name}`;
      if (skip(path)) continue;
      const stat = lstatSync(join(root, path));
      if (stat.isSymbolicLink()) seen.set(path, `link ${readlinkSync(join(root, path))}`);
      else if (stat.isDirectory()) {
        seen.set(path, "dir");
        walk(path);
      } else seen.set(path, stat.isFile() ? `file ${createHash("sha256").update(readFileSync(join(root, path))).digest("hex")}` : "other");
    }
  };
  walk("");
  return seen;
};

describe("hostile and malformed input, fuzzed", { timeout: 1_800_000 }, () => {
  let world: FaultPlane;
  let controller: ControllerProcess;
  let nodePlugin: TrackedProcess;
  let sockets: { Controller: CsiClient; Node: CsiClient; Identity: CsiClient };
  let podsDir: string;
  let outsideDir: string;
  const goodContext: Record<string, string> = {};

  before(async () => {
    assert.ok(existsSync(BUNDLE), `${BUNDLE} is missing: npm run bundle`);
    world = await startFaultPlane();
    const kube = world.kube;
    podsDir = join(world.dir, "kubelet", "pods");
    outsideDir = join(world.dir, "outside");
    await createFakeNode(kube, { name: NODE, addresses: [{ type: "InternalIP", address: "192.0.2.10" }] });
    // A Listener that publishes (headless ClusterIP: its address is the Service's DNS name).
    await kube.create(`${LISTENERS}/namespaces/${NS}/listeners`, {
      apiVersion: LISTENER_API_VERSION, kind: "Listener", metadata: { name: "fuzz" }, spec: { className: CLASS, ports: [{ name: "http", port: 8080 }] }
    });
    const claim = await kube.create<KubeObject>(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, {
      metadata: { name: "data-0", annotations: { "listeners.stackable.tech/listener-name": "fuzz" } },
      spec: { accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1" } }, storageClassName: "listeners.stackable.tech", volumeName: "pv-fuzz-0" }
    });
    await kube.create("/api/v1/persistentvolumes", {
      metadata: { name: "pv-fuzz-0" },
      spec: {
        capacity: { storage: "1" }, accessModes: ["ReadWriteMany"], storageClassName: "listeners.stackable.tech",
        claimRef: { namespace: NS, name: "data-0", uid: claim.metadata.uid },
        csi: { driver: CSI_DRIVER_NAME, volumeHandle: "pv-fuzz-0", volumeAttributes: { "listeners.stackable.tech/listener-name": "fuzz" } }
      }
    });
    const pod = await kube.create<KubeObject>(`/api/v1/namespaces/${NS}/pods`, {
      metadata: { name: "fuzz-0" },
      spec: { nodeName: NODE, containers: [{ name: "app", image: "busybox" }], volumes: [{ name: "listener", persistentVolumeClaim: { claimName: "data-0" } }] }
    });
    Object.assign(goodContext, {
      "listeners.stackable.tech/listener-name": "fuzz",
      "csi.storage.k8s.io/pod.name": "fuzz-0",
      "csi.storage.k8s.io/pod.namespace": NS,
      "csi.storage.k8s.io/pod.uid": pod.metadata.uid!,
      "csi.storage.k8s.io/serviceAccount.name": "default",
      "csi.storage.k8s.io/ephemeral": "false"
    });

    // What must survive: a decoy tree outside the kubelet dir, another Pod's volume, plugin dirs.
    await mkdir(join(outsideDir, "keep"), { recursive: true });
    await writeFile(join(outsideDir, "keep", "precious"), "do not touch\n");
    await mkdir(join(podsDir, "sentinel-pod", "volumes", "kubernetes.io~csi", "pv", "mount"), { recursive: true });
    await writeFile(join(podsDir, "sentinel-pod", "volumes", "kubernetes.io~csi", "pv", "mount", "address"), "198.51.100.1");
    await mkdir(join(world.dir, "kubelet", "plugins"), { recursive: true });
    await writeFile(join(world.dir, "kubelet", "plugins", "keep"), "plugin state\n");
    // Pod directories the fuzzer publishes into, holding what the kubelet keeps there: each
    // file and directory in them must be left as it is (only accepted targets may change).
    for (const pod of KNOWN_PODS) {
      const dir = join(podsDir, `f-${pod}`);
      await mkdir(join(dir, "containers", "app"), { recursive: true });
      await writeFile(join(dir, "containers", "app", "0"), "container log\n");
      await writeFile(join(dir, "etc-hosts"), `hosts of ${pod}\n`);
      await mkdir(join(dir, "plugins", "kubernetes.io~empty-dir", "cache"), { recursive: true });
      await writeFile(join(dir, "plugins", "kubernetes.io~empty-dir", "cache", "ready"), "");
      await mkdir(join(dir, "volumes", "kubernetes.io~empty-dir", "cache"), { recursive: true });
      await writeFile(join(dir, "volumes", "kubernetes.io~empty-dir", "cache", "data"), "cached\n");
      await mkdir(join(dir, "volumes", "kubernetes.io~csi", "decoy", "mount"), { recursive: true });
      await writeFile(join(dir, "volumes", "kubernetes.io~csi", "decoy", "mount", "address"), "198.51.100.2");
      await writeFile(join(dir, "volumes", "kubernetes.io~csi", "decoy", "vol_data.json"), "{\"driverName\":\"other\"}\n");
      for (const volume of KNOWN_VOLUMES) {
        await mkdir(join(dir, "volumes", "kubernetes.io~csi", volume), { recursive: true });
        await writeFile(join(dir, "volumes", "kubernetes.io~csi", volume, "vol_data.json"), `{"volumeHandle":"pv-fuzz-0","specVolID":"${volume}"}\n`);
      }
    }

    controller = await spawnController(world, "fuzz-controller");
    nodePlugin = spawnTracked({
      name: "fuzz-node-plugin",
      command: process.execPath,
      args: [BUNDLE, "run", "node"],
      logPath: join(world.dir, "node-plugin.log"),
      env: {
        ...process.env,
        KUBECONFIG: world.plane.kubeconfigPath,
        CSI_ENDPOINT: join(world.dir, "node.sock"),
        KUBERNETES_NODE_NAME: NODE,
        KUBELET_PODS_DIR: podsDir,
        METRICS_PORT: "0",
        LOG_FORMAT: "text"
      }
    });
    sockets = {
      Controller: connectCsi(join(world.dir, "fuzz-controller.sock")),
      Node: connectCsi(join(world.dir, "node.sock")),
      Identity: connectCsi(join(world.dir, "node.sock"))
    };
    await eventually("node plugin serving", async () => {
      if (!nodePlugin.running()) throw new Error(`node plugin exited:\n${nodePlugin.logTail()}`);
      return sockets.Node.call("Identity", "Probe", {}, 1000).then(() => true, () => false);
    }, { timeoutMs: 30_000, intervalMs: 50 });
  });

  after(async () => {
    for (const client of Object.values(sockets ?? {})) client.close();
    await nodePlugin?.stop();
    await controller?.proc.stop();
    await world?.stop();
  });

  test(`${CSI_RUNS} random CSI requests at both sockets: right codes naming fields, nothing touched outside target paths, no crash`, async () => {
    // Nothing below the test dir may change but the targets of accepted publishes and
    // unpublishes (with everything in them) and the staging siblings the driver documents
    // beside a target (`.<name>.publishing`, `.<name>.retired`; none may be left at the end).
    // Exempt besides: the plugin's own state (`published-volumes/`), the logs and sockets at
    // the top, and the parent directories this test creates as the kubelet would.
    const exempt = (path: string) => path.startsWith("published-volumes/") || path === "published-volumes" || /^[^/]+\.(log|sock)$/u.test(path);
    const before = snapshot(world.dir, exempt);
    const outcomes: Record<string, number> = {};
    const count = (key: string) => { outcomes[key] = (outcomes[key] ?? 0) + 1; };
    const relativeToWorld = (path: string) => relative(world.dir, path);
    /** Accepted targets (relative to the test dir) and the last call that went through for each. */
    const accepted = new Map<string, "NodePublishVolume" | "NodeUnpublishVolume">();
    /** Directories this test created as the kubelet (parents of targets). */
    const createdByKubelet = new Set<string>();

    // The kubelet creates a target's parent directory before NodePublishVolume; so does this
    // test for targets of the kubelet's shape (other targets' parents are left missing).
    const kubeletShape = new RegExp(`^${podsDir.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")}/f-[^/\0]+/volumes/kubernetes\\.io~csi/(?!\\.\\.?/)[^/\0]+/mount$`, "u");
    await fc.assert(fc.asyncProperty(csiCase(podsDir, outsideDir, goodContext), async ({ service, method, request }: CsiCase) => {
      const target = request["target_path"];
      if (method === "NodePublishVolume" && typeof target === "string" && kubeletShape.test(target)) {
        const first = await mkdir(dirname(target), { recursive: true });
        if (first !== undefined) {
          for (let dir = dirname(target); dir.length >= first.length; dir = dirname(dir)) createdByKubelet.add(relativeToWorld(dir));
        }
      }
      const answer = await sockets[service].call(service, method, request, 20_000).then(() => "OK", (error: unknown) => error);
      if (answer === "OK") {
        if (method === "NodePublishVolume" || method === "NodeUnpublishVolume") {
          assert.ok(typeof target === "string" && kubeletShape.test(target), `${method} accepted a target outside the kubelet's shape: ${JSON.stringify(target)}`);
          accepted.set(relativeToWorld(target), method);
        }
        return count(`${method} OK`);
      }
      assert.ok(answer instanceof CsiCallError, `${method}: ${String(answer)}`);
      count(`${method} ${answer.codeName}`);
      assert.ok(ACCEPTABLE_CODES.has(answer.code), `${method} answered ${answer.codeName}: ${answer.details}\nrequest: ${JSON.stringify(request)}`);
      if (answer.code === grpcStatus.INVALID_ARGUMENT) {
        const field = answer.details.slice(0, answer.details.indexOf(": "));
        const root = field.split(/[[.]/u)[0]!;
        assert.ok(root in request || ["volume_capability", "volume_capabilities", "volume_context", "parameters"].includes(root),
          `${method}: INVALID_ARGUMENT must name a request field, got ${JSON.stringify(answer.details)}`);
      }
    }), { numRuns: CSI_RUNS, seed: SEED, endOnFailure: true });

    assert.ok(nodePlugin.running(), `the node plugin exited:\n${nodePlugin.logTail()}`);
    assert.ok(controller.proc.running(), `the controller exited:\n${controller.proc.logTail()}`);
    const afterwards = snapshot(world.dir, exempt);
    const targets = [...accepted.keys()];
    const siblings = targets.flatMap((target) => [join(dirname(target), `.${basename(target)}.publishing`), join(dirname(target), `.${basename(target)}.retired`)]);
    const within = (path: string, roots: readonly string[]) => roots.some((root) => path === root || path.startsWith(`${root}/`));
    const changed = [...new Set([...before.keys(), ...afterwards.keys()])].filter((path) => before.get(path) !== afterwards.get(path));
    const outsideTargets = changed.filter((path) =>
      !within(path, targets) && !within(path, siblings) && !(createdByKubelet.has(path) && !before.has(path) && afterwards.get(path) === "dir"));
    assert.deepEqual(outsideTargets.map((path) => `${path}: ${before.get(path) ?? "absent"} -> ${afterwards.get(path) ?? "absent"}`), [],
      "paths other than accepted targets changed");
    // And each accepted target is what its last accepted call left: a published tree, or nothing.
    for (const [target, last] of accepted) {
      if (last === "NodePublishVolume") {
        assert.equal(afterwards.get(target), "dir", `${target} was published last`);
        assert.match(afterwards.get(`${target}/..data`) ?? "", /^link \.\.v[0-9]+$/u, `${target}/..data`);
        assert.equal(afterwards.get(`${target}/default-address`), "link ..data/default-address", `${target}/default-address`);
      } else {
        assert.deepEqual([...afterwards.keys()].filter((path) => within(path, [target])), [], `${target} was unpublished last`);
      }
    }
    const leftovers = [...afterwards.keys()].filter((path) => /(^|\/)\.[^/]+\.(publishing|retired)$/u.test(path));
    assert.deepEqual(leftovers, [], "staging directories left behind");
    assert.equal(readFileSync(join(outsideDir, "keep", "precious"), "utf8"), "do not touch\n");
    for (const pod of KNOWN_PODS) {
      assert.equal(readFileSync(join(podsDir, `f-${pod}`, "etc-hosts"), "utf8"), `hosts of ${pod}\n`);
    }
    assert.ok((outcomes["NodePublishVolume OK"] ?? 0) > 0, `some publishes went through: ${JSON.stringify(outcomes)}`);
    assert.ok((outcomes["NodePublishVolume InvalidArgument"] ?? 0) > 0, `some publishes were refused: ${JSON.stringify(outcomes)}`);
    const published = [...accepted.values()].filter((last) => last === "NodePublishVolume").length;
    assert.ok(published > 0 && published < accepted.size, `some targets were left published (${published}), some unpublished (${accepted.size - published})`);
    report("fuzz.csi", {
      cases: CSI_RUNS,
      seed: SEED,
      outcomes,
      acceptedTargets: accepted.size,
      leftPublished: published,
      pathsUnchanged: [...afterwards.keys()].filter((path) => before.get(path) === afterwards.get(path)).length,
      pathsInKnownPodsUnchanged: [...afterwards.keys()].filter((path) => /^kubelet\/pods\/f-p[0-9]\//u.test(path) && before.get(path) === afterwards.get(path)).length
    });
  });

  test(`${API_RUNS} random ListenerClasses, Listeners, Node addresses and load-balancer ingresses: refused at admission or reported on status`, async () => {
    const kube = world.kube;
    const refused: Record<string, number> = {};
    const refuse = (what: string, error: unknown) => {
      if (!(error instanceof KubeError) || error.status !== 422) throw error;
      refused[what] = (refused[what] ?? 0) + 1;
      return undefined;
    };
    const accepted: Array<{ name: string; case: ApiCase; classAccepted: boolean }> = [];
    let index = 0;
    await fc.assert(fc.asyncProperty(apiCase("will-be-replaced"), async (fuzzed: ApiCase) => {
      const i = index++;
      const className = `fuzz-c${i}`;
      const spec = fuzzed.listenerSpec["className"] === "will-be-replaced" ? { ...fuzzed.listenerSpec, className } : fuzzed.listenerSpec;
      const classAccepted = await kube.create(`${LISTENERS}/listenerclasses`, { apiVersion: LISTENER_API_VERSION, kind: "ListenerClass", metadata: { name: className }, spec: fuzzed.classSpec })
        .then(() => true, (error: unknown) => {
          refuse("ListenerClass", error);
          assert.match((error as Error).message, /spec\./u, "a refused ListenerClass names the field");
          return false;
        });
      const node = `fuzz-n${i}`;
      await createFakeNode(kube, {
        name: node,
        addresses: fuzzed.nodeAddresses as unknown as NodeAddress[],
        ...(fuzzed.nodeAddressOverride !== undefined ? { annotations: { "listeners.stackable.tech/node-address": fuzzed.nodeAddressOverride } } : {})
      }).catch((error: unknown) => refuse("Node", error));
      const listener = await kube.create<KubeObject>(`${LISTENERS}/namespaces/${NS}/listeners`, {
        apiVersion: LISTENER_API_VERSION, kind: "Listener", metadata: { name: `fuzz-l${i}` }, spec
      }).catch((error: unknown) => {
        refuse("Listener", error);
        assert.match((error as Error).message, /spec\./u, "a refused Listener names the field");
        return undefined;
      });
      if (listener === undefined) return;
      accepted.push({ name: `fuzz-l${i}`, case: fuzzed, classAccepted: classAccepted && spec["className"] === className });
      // A Pod that mounts it, on the fuzzed Node: NodePort classes publish that Node's address.
      const nodeExists = (await kube.getOrUndefined(`/api/v1/nodes/${node}`)) !== undefined;
      await kube.create(`/api/v1/namespaces/${NS}/pods`, {
        metadata: { name: `fuzz-p${i}`, labels: { [mountLabelKey(listener.metadata.uid!)]: listener.metadata.name! } },
        spec: { nodeName: nodeExists ? node : NODE, containers: [{ name: "app", image: "busybox" }] }
      });
    }), { numRuns: API_RUNS, seed: SEED, endOnFailure: true });

    // Load balancers: whatever ingress the fuzzer chose, written on each LoadBalancer Service.
    for (const { name, case: fuzzed, classAccepted } of accepted) {
      if (!classAccepted || fuzzed.classSpec["serviceType"] !== "LoadBalancer") continue;
      const service = await eventually(`Service ${name}`, () => kube.getOrUndefined<KubeObject>(`/api/v1/namespaces/${NS}/services/${name}`), { timeoutMs: 5000 }).catch(() => undefined);
      if (service?.spec?.type !== "LoadBalancer") continue;
      await kube.patch(`/api/v1/namespaces/${NS}/services/${name}/status`, { status: { loadBalancer: { ingress: fuzzed.ingress } } }, "merge")
        .catch((error: unknown) => refuse("Service ingress", error));
    }

    // Every accepted Listener gets a Ready condition with a reason; published addresses are valid.
    const stuck = await eventually("every accepted Listener has a Ready condition", async () => {
      const listeners = (await kube.list<KubeObject>(`${LISTENERS}/namespaces/${NS}/listeners`)).items.filter((l) => l.metadata.name!.startsWith("fuzz-l"));
      const without = listeners.filter((l) => !((l.status?.conditions ?? []) as Array<{ type: string; reason?: string }>).some((c) => c.type === "Ready" && (c.reason ?? "") !== ""));
      return without.length === 0 ? listeners : undefined;
    }, { timeoutMs: 120_000, intervalMs: 500 }).catch(async (error: Error) => {
      const listeners = (await kube.list<KubeObject>(`${LISTENERS}/namespaces/${NS}/listeners`)).items;
      const classes = new Map((await kube.list<KubeObject>(`${LISTENERS}/listenerclasses`)).items.map((c) => [c.metadata.name, c.spec]));
      const without = listeners.filter((l) => (l.status?.conditions ?? []).length === 0)
        .map((l) => `${l.metadata.name}: ${JSON.stringify(l.spec)}\n  class: ${JSON.stringify(classes.get(l.spec?.className))}`);
      throw new Error(`${error.message}\nwithout a condition:\n${without.slice(0, 5).join("\n")}`);
    });
    const reasons: Record<string, number> = {};
    for (const listener of stuck) {
      const ready = (listener.status.conditions as Array<{ type: string; status: string; reason: string }>).find((c) => c.type === "Ready")!;
      reasons[`${ready.status} ${ready.reason}`] = (reasons[`${ready.status} ${ready.reason}`] ?? 0) + 1;
      for (const published of (listener.status.ingressAddresses ?? []) as Array<{ address: string; ports: Record<string, number> }>) {
        assert.equal(addressProblem(published.address), undefined, `${listener.metadata.name} publishes ${JSON.stringify(published.address)}`);
        for (const port of Object.values(published.ports ?? {})) assert.ok(Number.isInteger(port) && port > 0 && port < 65_536, `${listener.metadata.name} port ${port}`);
      }
    }
    assert.ok(controller.proc.running(), `the controller exited:\n${controller.proc.logTail()}`);
    assert.ok(accepted.length > 0 && Object.keys(refused).length > 0, `both accepted (${accepted.length}) and refused (${JSON.stringify(refused)}) cases ran`);
    report("fuzz.api", { cases: API_RUNS, seed: SEED, listenersAccepted: accepted.length, refusedAtAdmission: refused, readyConditions: reasons });
  });
});
