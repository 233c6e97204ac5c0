/**
 * corev1.Pod: what the CSI node plugin reads to build a per-volume Listener (container
 * ports), to find the Pod volume behind a PVC (volumes) and to place addresses
 * (node name), plus the status the harness and controller look at.
 */
import { Schema } from "effect"
import { optional, PortNumber, StringMap, Timestamp } from "../fields.ts"
import { CoreCondition, NamespacedObjectMeta } from "./meta.ts"
import { Protocol } from "./service.ts"

export const ContainerPort = Schema.Struct({
  name: optional(Schema.String),
  containerPort: PortNumber,
  protocol: optional(Protocol),
  hostPort: optional(PortNumber),
  hostIP: optional(Schema.String)
})
export type ContainerPort = typeof ContainerPort.Type

export const Container = Schema.Struct({
  name: Schema.String,
  image: optional(Schema.String),
  ports: optional(Schema.Array(ContainerPort))
})
export type Container = typeof Container.Type

export const PersistentVolumeClaimVolumeSource = Schema.Struct({
  claimName: Schema.String,
  readOnly: optional(Schema.Boolean)
})

/** A generic ephemeral volume: the template of the PVC created as `<pod>-<volume>`. */
export const EphemeralVolumeSource = Schema.Struct({
  volumeClaimTemplate: optional(Schema.Struct({
    metadata: optional(Schema.Struct({ labels: optional(StringMap), annotations: optional(StringMap) })),
    spec: optional(Schema.Struct({
      storageClassName: optional(Schema.String),
      accessModes: optional(Schema.Array(Schema.String))
    }))
  }))
})

/** An inline CSI volume; the listener driver refuses these (no PV to pin or label). */
export const CsiVolumeSource = Schema.Struct({
  driver: Schema.String,
  readOnly: optional(Schema.Boolean),
  volumeAttributes: optional(StringMap)
})

export const Volume = Schema.Struct({
  name: Schema.String,
  persistentVolumeClaim: optional(PersistentVolumeClaimVolumeSource),
  ephemeral: optional(EphemeralVolumeSource),
  csi: optional(CsiVolumeSource)
})
export type Volume = typeof Volume.Type

export const PodSpec = Schema.Struct({
  nodeName: optional(Schema.String),
  serviceAccountName: optional(Schema.String),
  containers: Schema.Array(Container),
  initContainers: optional(Schema.Array(Container)),
  volumes: optional(Schema.Array(Volume))
})
export type PodSpec = typeof PodSpec.Type

export const PodPhase = Schema.Literals(["Pending", "Running", "Succeeded", "Failed", "Unknown"])
export type PodPhase = typeof PodPhase.Type

export const PodStatus = Schema.Struct({
  phase: optional(PodPhase),
  conditions: optional(Schema.Array(CoreCondition)),
  hostIP: optional(Schema.String),
  podIP: optional(Schema.String),
  podIPs: optional(Schema.Array(Schema.Struct({ ip: Schema.String })))
})
export type PodStatus = typeof PodStatus.Type

export const Pod = Schema.Struct({
  apiVersion: optional(Schema.Literal("v1")),
  kind: optional(Schema.Literal("Pod")),
  metadata: NamespacedObjectMeta,
  spec: optional(PodSpec),
  status: optional(PodStatus)
})
export type Pod = typeof Pod.Type

/**
 * What the address refresh reads of a Pod (effects/node/addressRefresh.ts): whether it is
 * still the Pod a volume was published for, and not on its way out, and whether it carries the
 * binder's mark. Decoded instead of the
 * whole Pod on each re-published volume — the Pod's spec is not needed there, and its
 * decoding was a tenth of a re-publish's CPU (profiled, issue 30). Every Pod is one.
 */
export const PodLiveness = Schema.Struct({
  metadata: Schema.Struct({ name: Schema.String, uid: optional(Schema.String), deletionTimestamp: optional(Timestamp), labels: optional(StringMap) }),
  // The node it runs on and its labels: an older version's publish is marked for the binder.
  spec: optional(Schema.Struct({ nodeName: optional(Schema.String) }))
})
export type PodLiveness = typeof PodLiveness.Type
