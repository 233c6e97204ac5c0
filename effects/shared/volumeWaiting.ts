/**
 * Explainable waiting (spec §7): while NodePublishVolume cannot finish, the Pod and its
 * PVC get a Warning Event saying what is missing and what will unblock it — where users
 * look (`kubectl describe pod`) — instead of only the kubelet's terse FailedMount; while
 * CreateVolume cannot, the PVC gets one (beside the provisioner's ProvisioningFailed).
 *
 * One table maps each waiting failure to an Event reason and a note. The note carries no
 * counters or timestamps, so the kubelet's retries join one aggregated Event series (the
 * recorder also rate-limits, adapters/EventRecorderKube.ts). Failures that are not
 * waiting (API trouble, local I/O) are left to the kubelet's own FailedMount Event.
 */
import { Effect } from "effect"
import { NODE_ADDRESS_ANNOTATION } from "../../domain/listenerPlan/nodeAddresses.ts"
import { EventRecorder } from "./EventRecorder.ts"
import type { EventRegarding } from "./EventRecorder.ts"
import type { ListenerAddressesNotReady, VolumeError } from "./volumeErrors.ts"
import { recordVolumeWait } from "./volumeMetrics.ts"

export interface WaitingExplanation {
  /** The Event reason (CamelCase; docs/troubleshooting.md is keyed by it). */
  readonly reason: string
  readonly note: string
}

const SEE_CONDITION = "kubectl describe listener shows why in its Ready condition"

const explainAddressesWaiting = (error: ListenerAddressesNotReady): WaitingExplanation => {
  switch (error.awaiting) {
    case "ListenerAddresses":
      return {
        reason: "AwaitingListenerAddress",
        note: `Listener ${error.namespace}/${error.listener} has no address yet; the volume is published as soon as it has one (${SEE_CONDITION})`
      }
    case "NodePorts":
      return {
        reason: "AwaitingNodePorts",
        note: `the Service of Listener ${error.namespace}/${error.listener} has no node ports yet; the volume is published once the API server allocates them`
      }
    case "NodeAddress":
      return { reason: "NodeAddressUnusable", note: `${error.problem}; ${nodeAddressRemedy(error.acceptedAddressTypes)}` }
  }
}

/** `A`, `A or B`, `A, B or C`. */
const orList = (items: ReadonlyArray<string>): string =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`

/** What gives the Node a usable address: the types the class actually accepts, in its order. */
const nodeAddressRemedy = (accepted: ListenerAddressesNotReady["acceptedAddressTypes"]): string => {
  const elsewhere = `set the Node's ${NODE_ADDRESS_ANNOTATION} annotation, or reschedule the Pod to another node`
  if (accepted === undefined) return `give the Node an ExternalIP, InternalIP or Hostname address, ${elsewhere}`
  const order = accepted.source === "nodeAddressTypes"
    ? `the spec.nodeAddressTypes of ListenerClass ${accepted.listenerClass}, in this order`
    : `ListenerClass ${accepted.listenerClass} sets no spec.nodeAddressTypes; in the order its preferredAddressType prefers`
  return `give the Node an address of type ${orList(accepted.types)} (${order}), ${elsewhere}`
}

/** What a volume program failure waits for, or undefined when it is not a waiting condition. */
export const explainVolumeWaiting = (error: VolumeError): WaitingExplanation | undefined => {
  switch (error._tag) {
    case "ListenerSelectionInvalid":
      return {
        reason: "InvalidListenerVolume",
        note: `${error.message}; recreate the PVC with exactly one of them (the chart's admission policy refuses such PVCs when enabled)`
      }
    case "PinningTopologyMissing":
      return { reason: "PinningTopologyMissing", note: `${error.message}; use a StorageClass with volumeBindingMode WaitForFirstConsumer` }
    case "ListenerAddressesNotReady":
      return explainAddressesWaiting(error)
    case "PodNotScheduled":
      return { reason: "AwaitingPodScheduling", note: `${error.message}; the volume is published once the scheduler places the Pod` }
    case "AwaitingNodeBinding":
      return { reason: "AwaitingNodeBinding", note: `${error.message}; check that the listener-operator controller runs` }
    case "ListenerHasNoClass":
      return {
        reason: "ListenerHasNoClass",
        note: `Listener ${error.namespace}/${error.listener} has no spec.className; set it to a ListenerClass (kubectl get listenerclasses lists them)`
      }
    case "VolumeApiStepFailed":
      if (error.cause.reason !== "NotFound") return undefined
      if (error.kind === "Listener") {
        return {
          reason: "ListenerNotFound",
          note: `Listener ${error.namespace}/${error.name}, named by the PVC's listeners.stackable.tech/listener-name annotation, does not exist; create it (or use the listeners.stackable.tech/listener-class annotation for a Listener per volume)`
        }
      }
      if (error.kind === "ListenerClass") {
        return {
          reason: "ListenerClassNotFound",
          note: `ListenerClass ${error.name} does not exist; create it, or name an existing one (kubectl get listenerclasses)`
        }
      }
      return undefined
    case "VolumeAddressRefused":
      return { reason: "ListenerAddressRefused", note: `${error.message}; fix the address at its source (Node status or Service load-balancer status)` }
    default:
      return undefined
  }
}

/** Records the explanation of `error`, if it is a waiting one, on each subject (the Pod, the PVC). */
export const reportVolumeWaiting = (action: "PublishVolume" | "CreateVolume", subjects: ReadonlyArray<EventRegarding>) =>
  (error: VolumeError) =>
    Effect.gen(function*() {
      const explanation = explainVolumeWaiting(error)
      if (explanation === undefined) return
      yield* recordVolumeWait(action, explanation.reason)
      const events = yield* EventRecorder
      for (const regarding of subjects) {
        yield* events.record({ regarding, type: "Warning", reason: explanation.reason, action, note: explanation.note })
      }
    })
