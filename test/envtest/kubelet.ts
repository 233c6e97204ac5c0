// The kubelet stand-in: the only component of the test cluster that is not the real one.
// It watches the Pods bound to one fake Node and, for their volumes that are PVCs bound to
// PVs of our CSI driver, calls NodePublishVolume / NodeUnpublishVolume over the plugin's
// real Unix socket with what the kubelet sends (pkg/volume/csi, see docs/envtest.md), then
// reports the Pod Running/Ready with an IP so that EndpointSlices appear, and finishes the
// deletion of terminating Pods. It runs no containers.
import { createHash } from "node:crypto";
import { mkdir, rm, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { NodePublishVolumeRequest } from "../../csi/proto.ts";
import { connectCsi, CsiCallError, type CsiClient } from "./csiClient.ts";
import { isNotFound, KubeError, type KubeClient, type KubeObject, type WatchEvent } from "./kubeClient.ts";

export interface KubeletOptions {
  readonly kube: KubeClient;
  readonly nodeName: string;
  /** Absolute path of the node plugin's Unix socket. */
  readonly socketPath: string;
  /** The kubelet root dir (the real one is /var/lib/kubelet). */
  readonly kubeletDir: string;
  readonly driverName: string;
  readonly log?: (line: string) => void;
  /** Deadline of each CSI call (the kubelet uses 2 min). */
  readonly callTimeoutMs?: number;
  /** Pod IP to report; default: the next address of 10.244.0.0/16 (status only, never dialled). */
  readonly podIp?: (pod: KubeObject) => string;
}

export interface PublishedVolume {
  readonly podUid: string;
  readonly podName: string;
  readonly namespace: string;
  readonly volumeName: string; // pod volume name
  readonly pvName: string;
  readonly volumeId: string;
  readonly targetPath: string;
}

export interface RecordedEvent {
  readonly pod: string; // namespace/name
  readonly reason: string;
  readonly message: string;
}

export interface Kubelet {
  /** Volumes currently published, by pod UID. */
  readonly published: ReadonlyMap<string, readonly PublishedVolume[]>;
  /** Warning events this stand-in recorded (also written to the API as Events). */
  readonly events: readonly RecordedEvent[];
  /** Every NodePublishVolume request sent, in order (compared with the real kubelet's in test/e2e). */
  readonly publishRequests: readonly NodePublishVolumeRequest[];
  stop(): Promise<void>;
}

/** Codes the kubelet treats as "operation may still be in progress": retried quickly, mount is uncertain. */
const TRANSIENT = new Set([1 /* CANCELLED */, 4 /* DEADLINE_EXCEEDED */, 8 /* RESOURCE_EXHAUSTED */, 10 /* ABORTED */, 14 /* UNAVAILABLE */]);

// Pod IPs are only written to status; 127.0.0.0/8 is refused by EndpointSlice validation.
let ipCounter = 0;
function nextPodIp(): string {
  const n = ipCounter++;
  return `10.244.${Math.floor(n / 254) % 256}.${(n % 254) + 1}`;
}

/** kubelet's EscapeQualifiedName: "/" → "~". */
const escapeQualifiedName = (s: string): string => s.replaceAll("/", "~");

const ACCESS_MODES: Record<string, [string, string]> = {
  // PV access mode → [default, if the node reports SINGLE_NODE_MULTI_WRITER]
  ReadWriteOnce: ["SINGLE_NODE_WRITER", "SINGLE_NODE_MULTI_WRITER"],
  ReadWriteOncePod: ["SINGLE_NODE_WRITER", "SINGLE_NODE_SINGLE_WRITER"],
  ReadOnlyMany: ["MULTI_NODE_READER_ONLY", "MULTI_NODE_READER_ONLY"],
  ReadWriteMany: ["MULTI_NODE_MULTI_WRITER", "MULTI_NODE_MULTI_WRITER"],
};

interface VolumeState {
  readonly pv: PublishedVolume;
  /** true when NodePublish succeeded; false while uncertain (a transient error happened). */
  mounted: boolean;
  failures: number;
  /** Exponential backoff per volume, as the kubelet's operation executor enforces it. */
  notBefore: number;
}

interface PodState {
  pod: KubeObject | undefined; // latest seen; undefined after DELETED
  volumes: Map<string, VolumeState>; // by pod volume name
  ip?: string;
  running: boolean; // status reported Running/Ready
  timer?: NodeJS.Timeout;
  dueAt?: number;
  busy: boolean;
  again: boolean;
  finished: boolean; // final delete issued / nothing left to do
}

class Retry extends Error {
  constructor(
    readonly delayMs: number,
    message: string,
    /** Record a FailedMount Event for it (slow retries only; CSI errors record their own). */
    readonly recordEvent: boolean = delayMs >= 5000,
  ) {
    super(message);
  }
}

const now = (): string => new Date().toISOString().replace(/\.\d+Z$/, "Z");

export async function startKubelet(opts: KubeletOptions): Promise<Kubelet> {
  const { kube, nodeName, driverName, kubeletDir } = opts;
  const log = opts.log ?? (() => undefined);
  const callTimeoutMs = opts.callTimeoutMs ?? 120_000;
  const csi: CsiClient = connectCsi(opts.socketPath);
  const pods = new Map<string, PodState>();
  const published = new Map<string, PublishedVolume[]>();
  const publishRequests: NodePublishVolumeRequest[] = [];
  const events: RecordedEvent[] = [];
  const abort = new AbortController();
  let stopped = false;
  const inflight = new Set<Promise<void>>();

  const node = await kube.get<KubeObject>(`/api/v1/nodes/${nodeName}`);
  const addresses = (node.status?.addresses ?? []) as Array<{ type: string; address: string }>;
  const hostIp = addresses.find((a) => a.type === "InternalIP")?.address ?? addresses.find((a) => a.type === "ExternalIP")?.address;

  const refreshPublished = (uid: string, st: PodState): void => {
    const list = [...st.volumes.values()].filter((v) => v.mounted).map((v) => v.pv);
    if (list.length > 0) published.set(uid, list);
    else published.delete(uid);
  };

  const recordEvent = async (pod: KubeObject, reason: string, message: string): Promise<void> => {
    const ns = pod.metadata.namespace ?? "default";
    events.push({ pod: `${ns}/${pod.metadata.name}`, reason, message });
    log(`event ${reason} ${ns}/${pod.metadata.name}: ${message}`);
    try {
      await kube.create(`/api/v1/namespaces/${ns}/events`, {
        apiVersion: "v1",
        kind: "Event",
        metadata: { generateName: `${pod.metadata.name}.`, namespace: ns },
        involvedObject: { apiVersion: "v1", kind: "Pod", namespace: ns, name: pod.metadata.name, uid: pod.metadata.uid },
        reason,
        message,
        type: "Warning",
        source: { component: "kubelet", host: nodeName },
        reportingComponent: "kubelet",
        reportingInstance: nodeName,
        firstTimestamp: now(),
        lastTimestamp: now(),
        count: 1,
      });
    } catch (e) {
      log(`could not record event: ${(e as Error).message}`);
    }
  };

  let nodeCaps: Set<string> | undefined;
  const nodeCapabilities = async (): Promise<Set<string>> => {
    if (nodeCaps !== undefined) return nodeCaps;
    const res = await csi.call<{ capabilities: Array<{ rpc?: { type: string } }> }>("Node", "NodeGetCapabilities", {}, callTimeoutMs);
    nodeCaps = new Set(res.capabilities.map((c) => c.rpc?.type ?? "UNKNOWN"));
    return nodeCaps;
  };

  const backoff = (failures: number, transient: boolean): number =>
    transient ? Math.min(250 * 2 ** failures, 5000) : Math.min(2000 * 2 ** failures, 30_000);

  /** Resolve one pod volume to our PV, or undefined if it is not ours / not a PVC. */
  const resolveVolume = async (
    pod: KubeObject,
    vol: Record<string, any>, // eslint-disable-line @typescript-eslint/no-explicit-any
  ): Promise<{ pvc: KubeObject; pv: KubeObject; readOnly: boolean } | undefined> => {
    const ns = pod.metadata.namespace ?? "default";
    let claimName: string;
    let readOnly = false;
    let ephemeral = false;
    if (vol["persistentVolumeClaim"] !== undefined) {
      claimName = vol["persistentVolumeClaim"].claimName as string;
      readOnly = vol["persistentVolumeClaim"].readOnly === true;
    } else if (vol["ephemeral"] !== undefined) {
      claimName = `${pod.metadata.name}-${vol["name"]}`;
      ephemeral = true;
    } else if (vol["csi"] !== undefined && vol["csi"].driver === driverName) {
      throw new Retry(30_000, `inline CSI volume "${vol["name"]}": not supported by the kubelet stand-in`);
    } else {
      return undefined; // configMap, secret, projected, emptyDir, …: nothing to do
    }
    const pvc = await kube.getOrUndefined<KubeObject>(`/api/v1/namespaces/${ns}/persistentvolumeclaims/${claimName}`);
    if (pvc === undefined) throw new Retry(1000, `persistentvolumeclaim "${claimName}" not found`);
    if (ephemeral) {
      const owner = (pvc.metadata.ownerReferences ?? []).find((o) => o["controller"] === true);
      if (owner?.["uid"] !== pod.metadata.uid) {
        throw new Retry(5000, `PVC ${ns}/${claimName} was not created for pod ${ns}/${pod.metadata.name} (pod is not owner)`);
      }
    }
    if (pvc.status?.phase !== "Bound" || typeof pvc.spec?.volumeName !== "string" || pvc.spec.volumeName === "") {
      throw new Retry(1000, `persistentvolumeclaim "${claimName}" is not bound`);
    }
    const pv = await kube.getOrUndefined<KubeObject>(`/api/v1/persistentvolumes/${pvc.spec.volumeName}`);
    if (pv === undefined) throw new Retry(1000, `persistentvolume "${pvc.spec.volumeName}" not found`);
    if (pv.spec?.claimRef?.uid !== undefined && pv.spec.claimRef.uid !== pvc.metadata.uid) {
      throw new Retry(1000, `persistentvolume "${pv.metadata.name}" is bound to another claim`);
    }
    if (pv.spec?.csi?.driver !== driverName) return undefined; // another driver: not simulated
    return { pvc, pv, readOnly };
  };

  const publishVolume = async (
    pod: KubeObject,
    st: PodState,
    volName: string,
    pv: KubeObject,
    readOnlyFromPod: boolean,
  ): Promise<void> => {
    const uid = pod.metadata.uid as string;
    const pvName = pv.metadata.name as string;
    const targetDir = join(kubeletDir, "pods", uid, "volumes", "kubernetes.io~csi", escapeQualifiedName(pvName));
    const targetPath = join(targetDir, "mount");
    const volumeId = pv.spec.csi.volumeHandle as string;
    let state = st.volumes.get(volName);
    if (state?.mounted === true) return;
    if (state !== undefined && Date.now() < state.notBefore) {
      throw new Retry(state.notBefore - Date.now(), `backing off publish of volume "${pvName}"`, false);
    }
    const caps = await nodeCapabilities();
    if (caps.has("STAGE_UNSTAGE_VOLUME")) {
      throw new Retry(30_000, `driver ${driverName} reports STAGE_UNSTAGE_VOLUME; NodeStageVolume is not simulated by the kubelet stand-in`);
    }
    const csiDriver = await kube.getOrUndefined<KubeObject>(`/apis/storage.k8s.io/v1/csidrivers/${driverName}`);
    if (csiDriver === undefined || csiDriver.spec?.attachRequired !== false) {
      // Without a CSIDriver saying attachRequired: false the kubelet waits for a VolumeAttachment,
      // which needs the attach/detach controller and an external-attacher; neither runs here.
      throw new Retry(
        5000,
        `MountVolume.WaitForAttach failed for volume "${pvName}": CSIDriver ${driverName} ${csiDriver === undefined ? "not found" : "has attachRequired != false"} (attach is not simulated)`,
      );
    }
    const volumeContext: Record<string, string> = { ...(pv.spec.csi.volumeAttributes ?? {}) };
    if (csiDriver.spec?.podInfoOnMount === true) {
      volumeContext["csi.storage.k8s.io/pod.name"] = pod.metadata.name as string;
      volumeContext["csi.storage.k8s.io/pod.namespace"] = pod.metadata.namespace as string;
      volumeContext["csi.storage.k8s.io/pod.uid"] = uid;
      volumeContext["csi.storage.k8s.io/serviceAccount.name"] = (pod.spec?.serviceAccountName as string | undefined) ?? "";
      volumeContext["csi.storage.k8s.io/ephemeral"] = "false";
    }
    const pvAccess = ((pv.spec.accessModes ?? []) as string[])[0] ?? "ReadWriteOnce";
    const modes = ACCESS_MODES[pvAccess] ?? ["UNKNOWN", "UNKNOWN"];
    const mode = caps.has("SINGLE_NODE_MULTI_WRITER") ? modes[1] : modes[0];
    const capability =
      pv.spec.volumeMode === "Block"
        ? { block: {}, access_mode: { mode } }
        : {
            mount: {
              fs_type: (pv.spec.csi.fsType as string | undefined) ?? "",
              mount_flags: (pv.spec.mountOptions as string[] | undefined) ?? [],
              volume_mount_group: "",
            },
            access_mode: { mode },
          };
    let secrets: Record<string, string> = {};
    const secretRef = pv.spec.csi.nodePublishSecretRef as { name: string; namespace: string } | undefined;
    if (secretRef !== undefined) {
      const secret = await kube.getOrUndefined<KubeObject>(`/api/v1/namespaces/${secretRef.namespace}/secrets/${secretRef.name}`);
      if (secret === undefined) throw new Retry(2000, `secret ${secretRef.namespace}/${secretRef.name} not found`);
      secrets = Object.fromEntries(
        Object.entries((secret["data"] ?? {}) as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]),
      );
    }
    // The kubelet creates the parent (0750) and vol_data.json; the driver creates `mount`.
    await mkdir(targetDir, { recursive: true, mode: 0o750 });
    await writeFile(
      join(targetDir, "vol_data.json"),
      JSON.stringify({
        specVolID: pvName,
        volumeHandle: volumeId,
        driverName,
        nodeName,
        attachmentID: createHash("sha256").update(`${volumeId}${driverName}${nodeName}`).digest("hex"),
        volumeLifecycleMode: "Persistent",
      }),
    );
    const info: PublishedVolume = {
      podUid: uid,
      podName: pod.metadata.name as string,
      namespace: pod.metadata.namespace as string,
      volumeName: volName,
      pvName,
      volumeId,
      targetPath,
    };
    if (state === undefined) {
      state = { pv: info, mounted: false, failures: 0, notBefore: 0 };
      st.volumes.set(volName, state);
    }
    const request = {
      volume_id: volumeId,
      publish_context: {},
      staging_target_path: "",
      target_path: targetPath,
      volume_capability: capability,
      readonly: readOnlyFromPod || pv.spec.csi.readOnly === true,
      secrets,
      volume_context: volumeContext,
    };
    // The mode strings come from ACCESS_MODES, which holds only CSI access mode names.
    publishRequests.push(request as NodePublishVolumeRequest);
    try {
      await csi.call("Node", "NodePublishVolume", request, callTimeoutMs);
    } catch (e) {
      if (!(e instanceof CsiCallError)) throw e;
      const transient = TRANSIENT.has(e.code);
      const delay = backoff(state.failures++, transient);
      state.notBefore = Date.now() + delay;
      const message = `MountVolume.SetUp failed for volume "${pvName}" : ${e.message}`;
      if (!transient) await recordEvent(pod, "FailedMount", message);
      throw new Retry(delay, message, false);
    }
    state.mounted = true;
    state.failures = 0;
    log(`published ${pvName} for ${info.namespace}/${info.podName} at ${targetPath}`);
  };

  const unpublishAll = async (uid: string, st: PodState): Promise<void> => {
    for (const [volName, v] of st.volumes) {
      if (Date.now() < v.notBefore) throw new Retry(v.notBefore - Date.now(), `backing off unpublish of volume "${v.pv.pvName}"`, false);
      try {
        // Uncertain mounts (transient errors) are unpublished too, as the kubelet does.
        await csi.call("Node", "NodeUnpublishVolume", { volume_id: v.pv.volumeId, target_path: v.pv.targetPath }, callTimeoutMs);
      } catch (e) {
        if (!(e instanceof CsiCallError)) throw e;
        const transient = TRANSIENT.has(e.code);
        const message = `UnmountVolume.TearDown failed for volume "${v.pv.pvName}" : ${e.message}`;
        if (!transient && st.pod !== undefined) await recordEvent(st.pod, "FailedUnmount", message);
        const delay = backoff(v.failures++, transient);
        v.notBefore = Date.now() + delay;
        throw new Retry(delay, message, false);
      }
      const dir = join(v.pv.targetPath, "..");
      await rmdir(v.pv.targetPath).catch(() => undefined); // only if the driver left it empty
      await rm(join(dir, "vol_data.json"), { force: true });
      await rmdir(dir).catch(() => undefined);
      st.volumes.delete(volName);
      refreshPublished(uid, st);
      log(`unpublished ${v.pv.pvName} of ${v.pv.namespace}/${v.pv.podName}`);
    }
    await rm(join(kubeletDir, "pods", uid), { recursive: true, force: true });
  };

  const setRunning = async (pod: KubeObject, st: PodState): Promise<void> => {
    const ns = pod.metadata.namespace as string;
    const hostNetwork = pod.spec?.hostNetwork === true;
    st.ip ??= hostNetwork && hostIp !== undefined ? hostIp : (opts.podIp?.(pod) ?? nextPodIp());
    const t = now();
    const cond = (type: string): Record<string, string> => ({ type, status: "True", lastTransitionTime: t });
    const containers = (pod.spec?.containers ?? []) as Array<{ name: string; image?: string }>;
    const initContainers = (pod.spec?.initContainers ?? []) as Array<{ name: string; image?: string; restartPolicy?: string }>;
    const containerId = (name: string): string => `envtest://${pod.metadata.uid}/${name}`;
    await kube.patch(
      `/api/v1/namespaces/${ns}/pods/${pod.metadata.name}/status`,
      {
        metadata: { uid: pod.metadata.uid },
        status: {
          phase: "Running",
          conditions: [cond("PodReadyToStartContainers"), cond("Initialized"), cond("Ready"), cond("ContainersReady"), cond("PodScheduled")],
          ...(hostIp !== undefined ? { hostIP: hostIp, hostIPs: [{ ip: hostIp }] } : {}),
          podIP: st.ip,
          podIPs: [{ ip: st.ip }],
          startTime: t,
          initContainerStatuses: initContainers.map((c) =>
            c.restartPolicy === "Always"
              ? { name: c.name, image: c.image ?? "", imageID: "", containerID: containerId(c.name), ready: true, started: true, restartCount: 0, state: { running: { startedAt: t } } }
              : {
                  name: c.name,
                  image: c.image ?? "",
                  imageID: "",
                  containerID: containerId(c.name),
                  ready: true,
                  restartCount: 0,
                  state: { terminated: { exitCode: 0, reason: "Completed", startedAt: t, finishedAt: t } },
                },
          ),
          containerStatuses: containers.map((c) => ({
            name: c.name,
            image: c.image ?? "",
            imageID: "",
            containerID: containerId(c.name),
            ready: true,
            started: true,
            restartCount: 0,
            state: { running: { startedAt: t } },
          })),
        },
      },
      "merge",
    );
    st.running = true;
    log(`pod ${ns}/${pod.metadata.name} Running with IP ${st.ip}`);
  };

  const finishDeletion = async (pod: KubeObject): Promise<void> => {
    try {
      await kube.delete(`/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`, {
        apiVersion: "v1",
        kind: "DeleteOptions",
        gracePeriodSeconds: 0,
        preconditions: { uid: pod.metadata.uid },
      });
    } catch (e) {
      if (!isNotFound(e) && !(e instanceof KubeError && e.status === 409)) throw e;
    }
  };

  /** One reconcile of one pod; throws Retry to be called again later. */
  const sync = async (uid: string, st: PodState): Promise<void> => {
    const pod = st.pod;
    if (pod === undefined) {
      // Gone from the API (force-deleted): clean up what we published, like the kubelet's orphan cleanup.
      await unpublishAll(uid, st);
      st.finished = true;
      pods.delete(uid);
      return;
    }
    if (st.finished) return;
    if (pod.metadata.deletionTimestamp !== undefined) {
      await unpublishAll(uid, st);
      await finishDeletion(pod);
      st.finished = true;
      return;
    }
    const phase = pod.status?.phase as string | undefined;
    if (phase === "Succeeded" || phase === "Failed") return;
    const volumes = (pod.spec?.volumes ?? []) as Array<Record<string, unknown>>;
    for (const vol of volumes) {
      const name = vol["name"] as string;
      if (st.volumes.get(name)?.mounted === true) continue;
      let resolved: Awaited<ReturnType<typeof resolveVolume>>;
      try {
        resolved = await resolveVolume(pod, vol);
      } catch (e) {
        if (e instanceof Retry && e.recordEvent) await recordEvent(pod, "FailedMount", e.message);
        throw e;
      }
      if (resolved === undefined) continue;
      try {
        await publishVolume(pod, st, name, resolved.pv, resolved.readOnly);
      } catch (e) {
        if (e instanceof Retry && e.recordEvent) await recordEvent(pod, "FailedMount", e.message);
        throw e;
      } finally {
        refreshPublished(uid, st);
      }
    }
    if (!st.running) await setRunning(pod, st);
  };

  const schedule = (uid: string, delayMs: number): void => {
    if (stopped) return;
    const st = pods.get(uid);
    if (st === undefined) return;
    if (delayMs <= 0) {
      if (st.timer !== undefined) {
        clearTimeout(st.timer);
        st.timer = undefined;
        st.dueAt = undefined;
      }
      if (st.busy) {
        st.again = true;
        return;
      }
      st.busy = true;
      const p = (async () => {
        try {
          await sync(uid, st);
        } catch (e) {
          if (e instanceof Retry) {
            log(`retry ${uid} in ${e.delayMs} ms: ${e.message}`);
            schedule(uid, e.delayMs);
          } else {
            log(`error syncing pod ${uid}: ${(e as Error).message}`);
            schedule(uid, 1000);
          }
        } finally {
          st.busy = false;
          if (st.again) {
            st.again = false;
            schedule(uid, 0);
          }
        }
      })();
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
      return;
    }
    const due = Date.now() + delayMs;
    if (st.timer !== undefined && st.dueAt !== undefined && st.dueAt <= due) return;
    if (st.timer !== undefined) clearTimeout(st.timer);
    st.dueAt = due;
    st.timer = setTimeout(() => {
      st.timer = undefined;
      st.dueAt = undefined;
      schedule(uid, 0);
    }, delayMs);
  };

  const observe = (pod: KubeObject, deleted: boolean): void => {
    const uid = pod.metadata.uid as string;
    let st = pods.get(uid);
    if (st === undefined) {
      if (deleted) return;
      st = { pod, volumes: new Map(), running: false, busy: false, again: false, finished: false };
      pods.set(uid, st);
    }
    st.pod = deleted ? undefined : pod;
    if (!deleted && !st.running) {
      // Already reported Running (e.g. by an earlier stand-in instance)? Keep its IP.
      if (pod.status?.phase === "Running" && typeof pod.status?.podIP === "string") st.ip = pod.status.podIP;
    }
    if (deleted && st.volumes.size === 0) {
      pods.delete(uid);
      return;
    }
    schedule(uid, 0);
  };

  // list + watch loop (relist on 410 Gone or any watch failure)
  const path = "/api/v1/pods";
  const selector = { fieldSelector: `spec.nodeName=${nodeName}` };
  const initial = await kube.list<KubeObject>(path, selector);
  for (const p of initial.items) observe(p, false);
  let resourceVersion = initial.metadata.resourceVersion ?? "";
  const loop = (async () => {
    while (!stopped) {
      try {
        await kube.watch<KubeObject>(
          path,
          { ...selector, resourceVersion, allowWatchBookmarks: true, timeoutSeconds: 300 },
          (ev: WatchEvent<KubeObject>) => {
            if (ev.type === "ERROR") {
              const status = ev.object as unknown as { code?: number; message?: string };
              throw new KubeError("WATCH", path, status.code ?? 500, JSON.stringify(status));
            }
            if (ev.object.metadata.resourceVersion !== undefined) resourceVersion = ev.object.metadata.resourceVersion;
            if (ev.type === "BOOKMARK") return;
            observe(ev.object, ev.type === "DELETED");
          },
          abort.signal,
        );
      } catch (e) {
        if (stopped) break;
        const gone = e instanceof KubeError && e.status === 410;
        if (!gone) log(`pod watch failed: ${(e as Error).message}`);
        await new Promise((r) => setTimeout(r, gone ? 0 : 1000));
        try {
          const relist = await kube.list<KubeObject>(path, selector);
          const seen = new Set<string>();
          for (const p of relist.items) {
            seen.add(p.metadata.uid as string);
            observe(p, false);
          }
          for (const [uid, st] of pods) if (!seen.has(uid) && st.pod !== undefined) observe(st.pod, true);
          resourceVersion = relist.metadata.resourceVersion ?? "";
        } catch (e2) {
          log(`pod relist failed: ${(e2 as Error).message}`);
        }
      }
    }
  })();

  log(`kubelet stand-in for node ${nodeName} started (driver ${driverName}, socket ${opts.socketPath})`);
  return {
    published,
    publishRequests,
    events,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      abort.abort();
      for (const st of pods.values()) if (st.timer !== undefined) clearTimeout(st.timer);
      await loop;
      await Promise.allSettled([...inflight]);
      csi.close();
      log(`kubelet stand-in for node ${nodeName} stopped`);
    },
  };
}
