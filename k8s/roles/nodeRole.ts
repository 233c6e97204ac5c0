/**
 * The node role (`run node`): the CSI Identity + Node services for one Kubernetes Node, on
 * the socket that node-driver-registrar announces to the kubelet — or, when configured,
 * that this role announces itself (csi/registration.ts). It writes each listener volume's
 * file tree straight into the kubelet's target path (no mount is involved).
 *
 * The program only: it requires its adapters (KubeApi, VolumeFs, PublishedVolumes,
 * EventRecorder) from the layer graph. Production provides the real ones
 * (k8s/composition/nodeRoleLayer.ts), the in-memory demo its twins (demo/memoryDemo.ts).
 */
import { Duration, Effect, Layer } from "effect"
import type { KubeApi } from "../../effects/shared/KubeApi.ts"
import type { EventRecorder } from "../../effects/shared/EventRecorder.ts"
import type { VolumeFs } from "../../effects/shared/VolumeFs.ts"
import { CSI_DRIVER_NAME } from "../../domain/constants.ts"
import { adoptPublishedTargets } from "../../effects/takeover/adoptNodeVolumes.ts"
import { NodeView } from "../../effects/node/NodeView.ts"
import { PublishedVolumes, trackPublishedVolumes } from "../../effects/node/PublishedVolumes.ts"
import { runAddressRefresh } from "../../effects/node/addressRefresh.ts"
import { TargetLocks } from "../../effects/node/TargetLocks.ts"
import { makeNodeService } from "../../csi/nodeService.ts"
import { serveRegistration } from "../../csi/registration.ts"
import { VolumePublisherLive } from "../../csi/volumePrograms.ts"
import { makeNodeCaches } from "../nodeCaches.ts"
import { Readiness } from "../operability/probes.ts"
import { RoleSettingMissing } from "./roleErrors.ts"
import type { NodeRoleError } from "./roleErrors.ts"
import { serveRoleCsi } from "./serveRoleCsi.ts"

export interface NodeRoleConfig {
  readonly csiEndpoint: string
  /** The Node this plugin serves (KUBERNETES_NODE_NAME); also its CSI node id. */
  readonly nodeName: string
  readonly vendorVersion: string
  /** Target paths outside this directory are refused (the chart sets `<kubeletDir>/pods`); unset: not checked. */
  readonly kubeletPodsDir?: string | undefined
  /**
   * Live refresh: published volumes follow every watched change of their Listener, its
   * class and this Node at once; in addition all are re-checked from the caches this often
   * (a safety resync that sends no request; default 30 seconds). 0: no resync; the
   * watch-driven refresh stays on.
   */
  readonly addressRefreshInterval?: Duration.Input | undefined
  /**
   * How long NodePublishVolume waits, watching, for a Listener the controller has not caught
   * up with yet before failing UNAVAILABLE (effects/node/listenerCatchUp.ts; default 5 seconds).
   */
  readonly publishWait?: Duration.Input | undefined
  /** Where published volumes are remembered across restarts (default: `published-volumes/<node>` beside the CSI socket). */
  readonly stateDir?: string | undefined
  /** How often a repeating waiting Event's series is written (default 1 minute; tests shorten it). */
  readonly eventSeriesWriteInterval?: Duration.Input | undefined
  /** Register with the kubelet's plugin watcher ourselves (no node-driver-registrar sidecar). */
  readonly registration?: {
    /** The kubelet's plugins_registry directory as this process sees it. */
    readonly registrationDir: string
    /** The CSI socket path as the kubelet sees it on the node. */
    readonly kubeletCsiEndpoint: string
  } | undefined
}

const READY_REGISTRATION = "kubelet-registration"

/** How often listener_operator_published_volumes is re-read from the registry (a scrape interval's worth). */
const PUBLISHED_VOLUMES_SAMPLE_EVERY = "15 seconds"

/** Events of waiting publishes (effects/shared/volumeWaiting.ts) name the node plugin as their reporter. */
export const NODE_REPORTING_CONTROLLER = "listeners.stackable.tech/listener-operator-node"

/** Serve the registration socket; not ready until the kubelet reports the plugin registered. */
const registerWithKubelet = (registration: NonNullable<NodeRoleConfig["registration"]>) =>
  Effect.gen(function*() {
    const readiness = yield* Readiness
    yield* readiness.register(READY_REGISTRATION)
    yield* serveRegistration({
      ...registration,
      takeOver: true,
      onStatus: (verdict) => verdict.registered ? readiness.markReady(READY_REGISTRATION) : readiness.markNotReady(READY_REGISTRATION)
    })
  })

/** What the node plugin needs of the role's settings. */
export type NodePluginConfig = Pick<NodeRoleConfig, "nodeName" | "kubeletPodsDir" | "addressRefreshInterval" | "publishWait">

/** The adapters the node role requires; each composition root provides its own. */
export type NodeRoleAdapters = KubeApi | VolumeFs | PublishedVolumes | EventRecorder

/**
 * The node plugin, everything of the node role but its sockets: the publisher the CSI Node
 * service calls (each call under its target's lock, keeping the published-volume records),
 * the node's watch caches, the live address refresh, the adoption of volumes published
 * before it and the published-volume gauge.
 */
export const nodePluginLayer = (config: NodePluginConfig) =>
  Layer.effectDiscard(Effect.gen(function*() {
    // Volumes another plugin (the upstream operator's) published on this node: recorded once, so live refresh reaches them.
    if (config.kubeletPodsDir !== undefined) {
      yield* adoptPublishedTargets(config.kubeletPodsDir, CSI_DRIVER_NAME, config.nodeName).pipe(
        Effect.catch((error) => Effect.logWarning(`could not look for volumes published before this plugin: ${error.message}`)),
        Effect.forkScoped
      )
    }
    // Always on: watch-driven, it costs nothing at rest. The interval is only the resync
    // (0: none), so users who set 0 to save work do not lose live addresses.
    yield* Effect.forkScoped(runAddressRefresh(config.nodeName, config.addressRefreshInterval ?? "30 seconds"))
    yield* Effect.forkScoped(trackPublishedVolumes(PUBLISHED_VOLUMES_SAMPLE_EVERY))
  })).pipe(
    // Fresh: layers are shared by reference within one build, and a process that runs
    // several node roles (the test harnesses, the demo) must not have them all publish
    // through the first role's caches and locks.
    Layer.provideMerge(Layer.fresh(VolumePublisherLive)),
    // One set of target locks for the CSI calls and the refresh loop alike.
    Layer.provideMerge(Layer.fresh(TargetLocks.layer)),
    // The node's watch caches (three watches, whatever the number of volumes): read by the
    // publisher and the refresh loop alike.
    Layer.provideMerge(Layer.effect(NodeView, makeNodeCaches({ nodeName: config.nodeName, publishWait: config.publishWait })))
  )

/** The node role: the node plugin served on the CSI socket, registered with the kubelet when configured. */
export const nodeRole = (config: NodeRoleConfig): Layer.Layer<never, NodeRoleError, NodeRoleAdapters | Readiness> =>
  Layer.unwrap(Effect.gen(function*() {
    if (config.nodeName.trim() === "") {
      return yield* new RoleSettingMissing({ flag: "--node-name", message: "the node role needs the node name: set KUBERNETES_NODE_NAME or --node-name" })
    }
    return Layer.effectDiscard(Effect.gen(function*() {
      const node = yield* makeNodeService({ nodeName: config.nodeName, kubeletPodsDir: config.kubeletPodsDir })
      // takeOver: a plugin still serving on this node is the one the DaemonSet's surge update
      // replaces (docs/migration.md); the kubelet's next call reaches this one.
      yield* serveRoleCsi({ endpoint: config.csiEndpoint, vendorVersion: config.vendorVersion, service: node, takeOver: true })
      // After the CSI socket: the kubelet dials it as soon as it learns of it.
      if (config.registration !== undefined) yield* registerWithKubelet(config.registration)
    })).pipe(Layer.provide(nodePluginLayer(config)))
  }))
