// Fake Nodes (no kubelet behind them) and CSI plugin registration done the way the kubelet
// does it after node-driver-registrar announced the plugin (pkg/volume/csi/nodeinfomanager).
import { connectCsi, CsiCallError } from "./csiClient.ts";
import { eventually, isConflict, isNotFound, KubeClient, type KubeObject } from "./kubeClient.ts";

export interface NodeAddress {
  readonly type: "InternalIP" | "ExternalIP" | "Hostname" | "InternalDNS" | "ExternalDNS";
  readonly address: string;
}

export interface FakeNodeOptions {
  readonly name: string;
  readonly addresses: readonly NodeAddress[];
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
  /** Defaults: cpu 4, memory 16Gi, pods 110, ephemeral-storage 100Gi. */
  readonly allocatable?: Record<string, string>;
}

const NOT_READY_TAINT = "node.kubernetes.io/not-ready";

/**
 * Create a Node that the scheduler and controllers treat as a healthy node: Ready condition,
 * allocatable resources, the given addresses, no taints. The TaintNodesByCondition admission
 * plugin is disabled by startControlPlane(); if it is active anyway (another API server), the
 * not-ready taint it adds at create is removed here.
 */
export async function createFakeNode(kube: KubeClient, opts: FakeNodeOptions): Promise<KubeObject> {
  const allocatable = { cpu: "4", memory: "16Gi", pods: "110", "ephemeral-storage": "100Gi", ...opts.allocatable };
  const created = await kube.create<KubeObject>("/api/v1/nodes", {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name: opts.name,
      labels: {
        "kubernetes.io/hostname": opts.name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        ...opts.labels,
      },
      annotations: opts.annotations,
    },
    spec: {},
  });
  const taints = (created.spec?.taints ?? []) as Array<{ key: string }>;
  if (taints.some((t) => t.key === NOT_READY_TAINT)) {
    await kube.patch(`/api/v1/nodes/${opts.name}`, [{ op: "replace", path: "/spec/taints", value: taints.filter((t) => t.key !== NOT_READY_TAINT) }], "json");
  }
  const now = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  const condition = (type: string, status: string, reason: string, message: string): Record<string, string> => ({
    type,
    status,
    reason,
    message,
    lastHeartbeatTime: now,
    lastTransitionTime: now,
  });
  return kube.patch<KubeObject>(
    `/api/v1/nodes/${opts.name}/status`,
    {
      status: {
        capacity: allocatable,
        allocatable,
        addresses: opts.addresses.map((a) => ({ type: a.type, address: a.address })),
        conditions: [
          condition("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
          condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
          condition("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
          condition("Ready", "True", "KubeletReady", "fake node of the test harness (no kubelet)"),
        ],
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: {
          architecture: "amd64",
          operatingSystem: "linux",
          osImage: "envtest fake node",
          kernelVersion: "",
          containerRuntimeVersion: "envtest://0",
          kubeletVersion: "v1.36.1",
          kubeProxyVersion: "",
          machineID: "",
          systemUUID: "",
          bootID: "",
        },
      },
    },
    "merge",
  );
}

export interface RegisterPluginOptions {
  readonly kube: KubeClient;
  /** Node name. */
  readonly node: string;
  /** Absolute path of the plugin's Unix socket. */
  readonly socketPath: string;
  readonly driverName: string;
  /** How long to keep trying NodeGetInfo while the socket is not up yet (default 30 s). */
  readonly timeoutMs?: number;
}

export interface Registration {
  readonly nodeId: string;
  readonly maxVolumesPerNode: number;
  readonly topology: Record<string, string>;
}

export const NODE_ID_ANNOTATION = "csi.volume.kubernetes.io/nodeid";

interface NodeGetInfoResponse {
  node_id: string;
  max_volumes_per_node: string; // int64 as string (longs: String)
  accessible_topology: { segments: Record<string, string> } | null;
}

/**
 * Register a CSI node plugin with a Node as the kubelet does: GetPluginInfo (the name must
 * equal `driverName`, as node-driver-registrar announces it), NodeGetInfo over the real
 * socket, label the Node with the topology segments (a different existing value is an
 * error), annotate the node id, and add/replace the driver in the CSINode (owned by the Node).
 */
export async function registerPlugin(opts: RegisterPluginOptions): Promise<Registration> {
  const { kube, node, driverName } = opts;
  const csi = connectCsi(opts.socketPath);
  let info: NodeGetInfoResponse;
  try {
    const pluginName = await eventually(
      `GetPluginInfo on ${opts.socketPath}`,
      async () => {
        try {
          return (await csi.call<{ name: string }>("Identity", "GetPluginInfo", {}, 5000)).name;
        } catch (e) {
          if (e instanceof CsiCallError && e.code === 14) return undefined; // socket not up yet
          throw e;
        }
      },
      { timeoutMs: opts.timeoutMs ?? 30_000, intervalMs: 200 },
    );
    if (pluginName !== driverName) {
      throw new Error(`plugin at ${opts.socketPath} reports name ${JSON.stringify(pluginName)}, expected ${JSON.stringify(driverName)}`);
    }
    info = await csi.call<NodeGetInfoResponse>("Node", "NodeGetInfo", {}, 30_000);
  } finally {
    csi.close();
  }
  if (info.node_id === "") throw new Error(`NodeGetInfo of ${driverName} returned an empty node_id`);
  const topology = info.accessible_topology?.segments ?? {};
  const maxVolumesPerNode = Number(info.max_volumes_per_node);

  // Node: labels + node-id annotation, with optimistic concurrency.
  for (;;) {
    const current = await kube.get<KubeObject>(`/api/v1/nodes/${node}`);
    const labels = current.metadata.labels ?? {};
    for (const [k, v] of Object.entries(topology)) {
      if (labels[k] !== undefined && labels[k] !== v) {
        throw new Error(`detected topology value collision: driver reported "${k}":"${v}" but existing label is "${k}":"${labels[k]}"`);
      }
    }
    const annotations = current.metadata.annotations ?? {};
    let ids: Record<string, string> = {};
    const existing = annotations[NODE_ID_ANNOTATION];
    if (existing !== undefined) ids = JSON.parse(existing) as Record<string, string>;
    ids[driverName] = info.node_id;
    try {
      await kube.patch(
        `/api/v1/nodes/${node}`,
        {
          metadata: {
            resourceVersion: current.metadata.resourceVersion,
            labels: topology,
            annotations: { [NODE_ID_ANNOTATION]: JSON.stringify(ids) },
          },
        },
        "merge",
      );
      break;
    } catch (e) {
      if (!isConflict(e)) throw e;
    }
  }

  // CSINode
  const driver: Record<string, unknown> = {
    name: driverName,
    nodeID: info.node_id,
    topologyKeys: Object.keys(topology).length > 0 ? Object.keys(topology).sort() : null,
    ...(maxVolumesPerNode > 0 ? { allocatable: { count: maxVolumesPerNode } } : {}),
  };
  for (;;) {
    const nodeObj = await kube.get<KubeObject>(`/api/v1/nodes/${node}`);
    let csiNode: KubeObject | undefined;
    try {
      csiNode = await kube.get<KubeObject>(`/apis/storage.k8s.io/v1/csinodes/${node}`);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    try {
      if (csiNode === undefined) {
        await kube.create("/apis/storage.k8s.io/v1/csinodes", {
          apiVersion: "storage.k8s.io/v1",
          kind: "CSINode",
          metadata: {
            name: node,
            ownerReferences: [{ apiVersion: "v1", kind: "Node", name: node, uid: nodeObj.metadata.uid }],
          },
          spec: { drivers: [driver] },
        });
      } else {
        const others = ((csiNode.spec?.drivers ?? []) as Array<{ name: string }>).filter((d) => d.name !== driverName);
        csiNode.spec = { ...csiNode.spec, drivers: [...others, driver] };
        await kube.replace(`/apis/storage.k8s.io/v1/csinodes/${node}`, csiNode);
      }
      break;
    } catch (e) {
      if (!isConflict(e)) throw e;
    }
  }
  return { nodeId: info.node_id, maxVolumesPerNode, topology };
}
