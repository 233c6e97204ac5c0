/**
 * The node-loss controller (spec §7): releases listener volumes pinned to a Node that is
 * gone, so that their replicas can be scheduled elsewhere — where the ListenerClass opts in
 * (`pinnedNodeLossRecovery`, `pinnedNodeLossGracePeriod`); elsewhere it only reports.
 *
 * Primary: PersistentVolume (all of them, slimmed to what is read here; only volumes of our
 * driver pinned to a node are ever acted on). Cache: Nodes, slimmed to their Ready
 * condition; a Node's deletion or Ready flip enqueues the volumes pinned to it.
 * A reconcile of a volume whose Node is cached and Ready sends no request. Before acting,
 * the Node's absence or NotReady state is confirmed with a GET (the cache may lag).
 * Runs in the controller role beside the Listener controller, behind the same leader
 * election (k8s/roles/controllerRole.ts).
 */
import { Clock, Effect, Option } from "effect"
import { CSI_DRIVER_NAME } from "../domain/constants.ts"
import { Kinds } from "../domain/kinds.ts"
import { pinnedNodesOf } from "../domain/listenerPlan/backingNodes.ts"
import type { PersistentVolumeInput } from "../domain/listenerPlan/inputs.ts"
import { decideNodeLoss } from "../domain/nodeLoss.ts"
import type { PinnedNodeState } from "../domain/nodeLoss.ts"
import type { EventRecorder } from "../effects/shared/EventRecorder.ts"
import { getOption, KubeApi } from "../effects/shared/KubeApi.ts"
import type { KubeApiError, KubeObject } from "../effects/shared/KubeApi.ts"
import { releasePinnedVolume, reportPinnedNodeLost, volumePolicyOf } from "../effects/provisioner/releasePinnedVolume.ts"
import type { PinnedVolume } from "../effects/provisioner/releasePinnedVolume.ts"
import { Action } from "../effects/shared/action.ts"
import { makeController } from "./runtime/controller.ts"
import { refOf } from "./runtime/objectRef.ts"
import type { Change, Indexer } from "./runtime/store.ts"

const PINNED_NODE_INDEX = "pinnedNode"

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {}

/** Keeps what this controller reads of a PV (driver, context, claim, pinning). */
export const slimVolume = (pv: KubeObject): KubeObject => {
  const spec = record(pv["spec"])
  const csi = record(spec["csi"])
  return {
    apiVersion: pv.apiVersion,
    kind: pv.kind,
    metadata: {
      name: pv.metadata.name,
      uid: pv.metadata.uid,
      resourceVersion: pv.metadata.resourceVersion,
      ...(pv.metadata.deletionTimestamp !== undefined ? { deletionTimestamp: pv.metadata.deletionTimestamp } : {})
    },
    spec: {
      csi: { driver: csi["driver"], volumeAttributes: csi["volumeAttributes"] },
      claimRef: spec["claimRef"],
      nodeAffinity: spec["nodeAffinity"]
    }
  }
}

const readyConditionOf = (node: KubeObject | undefined): Record<string, unknown> | undefined => {
  const conditions = record(node?.["status"])["conditions"]
  return Array.isArray(conditions) ? conditions.map(record).find((c) => c["type"] === "Ready") : undefined
}

/** Keeps what this controller reads of a Node: its Ready condition. */
export const slimNodeReadiness = (node: KubeObject): KubeObject => {
  const ready = readyConditionOf(node)
  return {
    apiVersion: node.apiVersion,
    kind: node.kind,
    metadata: { name: node.metadata.name, uid: node.metadata.uid, resourceVersion: node.metadata.resourceVersion },
    status: { conditions: ready === undefined ? [] : [{ type: "Ready", status: ready["status"], lastTransitionTime: ready["lastTransitionTime"] }] }
  }
}

/** What the cached (or fetched) Node says about its readiness. */
export const pinnedNodeStateOf = (node: KubeObject): PinnedNodeState => {
  const ready = readyConditionOf(node)
  const since = typeof ready?.["lastTransitionTime"] === "string" ? Date.parse(ready["lastTransitionTime"]) : Number.NaN
  return {
    _tag: "Present",
    ready: ready === undefined ? undefined : ready["status"] === "True",
    sinceMillis: Number.isNaN(since) ? undefined : since
  }
}

const pinnedNodesOfObject = (pv: KubeObject): ReadonlyArray<string> => {
  try {
    return pinnedNodesOf(pv as unknown as PersistentVolumeInput).filter((name) => typeof name === "string" && name !== "")
  } catch {
    return []
  }
}

const isOurs = (pv: KubeObject | undefined): boolean =>
  pv !== undefined && record(record(pv["spec"])["csi"])["driver"] === CSI_DRIVER_NAME

const pinnedNodeIndexer: Indexer = (pv) => (isOurs(pv) ? pinnedNodesOfObject(pv) : [])

/** The release program's view of a cached PV; undefined when it is not a pinned listener volume. */
export const pinnedVolumeOf = (pv: KubeObject): PinnedVolume | undefined => {
  const nodeName = pinnedNodesOfObject(pv)[0]
  if (!isOurs(pv) || nodeName === undefined) return undefined
  const spec = record(pv["spec"])
  const claimRef = record(spec["claimRef"])
  const attributes = record(record(spec["csi"])["volumeAttributes"])
  return {
    name: pv.metadata.name ?? "",
    uid: pv.metadata.uid,
    nodeName,
    claim: typeof claimRef["namespace"] === "string" && typeof claimRef["name"] === "string"
      ? { namespace: claimRef["namespace"], name: claimRef["name"], ...(typeof claimRef["uid"] === "string" ? { uid: claimRef["uid"] } : {}) }
      : undefined,
    volumeAttributes: Object.fromEntries(Object.entries(attributes).filter((entry): entry is [string, string] => typeof entry[1] === "string"))
  }
}

const readinessChanged = (change: Change): boolean => {
  if (change.previous === undefined || change.current === undefined) return true
  const before = readyConditionOf(change.previous)
  const after = readyConditionOf(change.current)
  return before?.["status"] !== after?.["status"] || before?.["lastTransitionTime"] !== after?.["lastTransitionTime"]
}

/**
 * Builds the controller (caches start filling in the current scope). `run` reconciles once
 * every cache has listed and never returns; leader election is the caller's (controllerRole).
 */
export const makeNodeLossController = Effect.gen(function*() {
  // Recovery-off reports are made once per loss of a volume's Node (per process): resyncs
  // stay silent. Keyed by PV name, valued by `<PV uid>/<node>`; an entry is dropped as soon
  // as the PV is gone or its Node is back, so the map holds at most the listener PVs that
  // exist with their Node missing — whatever the churn of Nodes and volumes.
  const reported = new Map<string, string>()
  const controller = yield* makeController({
    name: "node-loss",
    primary: {
      kind: Kinds.PersistentVolume,
      transform: slimVolume,
      indexes: { [PINNED_NODE_INDEX]: pinnedNodeIndexer },
      shouldEnqueue: (change: Change) => {
        // The runtime skips a primary that is gone from the cache, so a deleted PV's report is forgotten here.
        if (change.current === undefined && change.previous !== undefined) reported.delete(change.previous.metadata.name ?? "")
        return pinnedVolumeOf(change.current ?? change.previous!) !== undefined
      }
    },
    watches: {
      nodes: { kind: Kinds.Node, transform: slimNodeReadiness, shouldEnqueue: readinessChanged }
    },
    mappers: ({ primary }) => ({
      nodes: (node) => Effect.map(primary.listBy(PINNED_NODE_INDEX, node.metadata.name ?? ""), (pvs) => pvs.map(refOf))
    })
  })
  const nodes = controller.stores.nodes

  /** The Node's state, from the cache when it says Ready, else confirmed by the API server. */
  const nodeState = (name: string, confirm: boolean): Effect.Effect<PinnedNodeState, KubeApiError, KubeApi> =>
    Effect.gen(function*() {
      const cached = yield* nodes.get({ name })
      if (!confirm && Option.isSome(cached)) return pinnedNodeStateOf(cached.value)
      const api = yield* KubeApi
      const live = yield* getOption(api.get(Kinds.Node, { name }))
      return Option.isNone(live) ? { _tag: "Deleted" as const } : pinnedNodeStateOf(live.value)
    })

  /** One PersistentVolume, as cached when its run starts. */
  const reconcile = (pv: KubeObject): Effect.Effect<Action, KubeApiError, KubeApi | EventRecorder> =>
    Effect.gen(function*() {
      const name = pv.metadata.name ?? ""
      const volume = pv.metadata.deletionTimestamp !== undefined ? undefined : pinnedVolumeOf(pv)
      if (volume === undefined) {
        // The PV is going (or no longer a pinned listener volume): its report concerns nothing.
        reported.delete(name)
        return Action.awaitChange
      }
      const fromCache = yield* nodeState(volume.nodeName, false)
      if (fromCache._tag === "Present" && fromCache.ready !== false) {
        // The Node is back: a later loss is a new one, reported again.
        reported.delete(name)
        return Action.awaitChange
      }
      // Only now, with the Node in trouble: confirm with the API server and read the policy.
      const node = yield* nodeState(volume.nodeName, true)
      const policy = yield* volumePolicyOf(volume)
      const decision = decideNodeLoss({ nodeName: volume.nodeName, node, policy: policy.policy, nowMillis: yield* Clock.currentTimeMillis })
      switch (decision._tag) {
        case "Keep":
          reported.delete(name)
          return Action.awaitChange
        case "Wait":
          return Action.requeueAfter(decision.afterMillis)
        case "Report": {
          const incident = `${volume.uid ?? volume.name}/${volume.nodeName}`
          if (reported.get(name) !== incident) {
            yield* reportPinnedNodeLost(volume, decision.why, policy)
            reported.set(name, incident)
          }
          return Action.awaitChange
        }
        case "Release":
          reported.delete(name)
          yield* releasePinnedVolume(volume, decision.why, policy.className ?? "")
          return Action.awaitChange
      }
    })

  const errorPolicy = (error: KubeApiError, pv: KubeObject) =>
    Effect.as(
      Effect.logWarning(`node-loss recovery of PersistentVolume ${pv.metadata.name} failed, retrying: ${error.reason}: ${error.message}`),
      Action.retryWithBackoff
    )

  /** The reconcile loop; never returns. */
  const run = controller.run({ reconcile, errorPolicy, concurrency: 2 })
  /** Volumes whose Node loss is remembered as reported (tests check it stays bounded). */
  const reportedVolumes = Effect.sync(() => reported.size)
  return { controller, run, reportedVolumes } as const
})
