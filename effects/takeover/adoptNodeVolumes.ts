/**
 * Volumes published before this plugin kept records of them — by the upstream operator's
 * node plugin, which we replace on a running node, or by a plugin whose state directory
 * was lost. Their Pods keep running with the trees that plugin wrote (plain directories);
 * without a record, live refresh would never reach them. At start, the node plugin finds
 * them where the kubelet keeps CSI volumes — `<pods dir>/<pod uid>/volumes/kubernetes.io~csi/
 * <volume>/vol_data.json` names the driver, the volume handle and, with the directory, the
 * target path — and records each one of our driver as if it had published it: the Pod
 * (named by the owner of its PodListeners `pod-<uid>`, which every publish wrote, in the
 * claim's namespace: the node role may read Pods one by one but not list them), the
 * volume context frozen into its PV, the
 * Listener its PV is labelled with, and the addresses the tree holds now (so a refresh
 * rewrites it only when they change; the writer converts a plain tree in place,
 * writeVolumeTree.ts). Nothing on disk is touched here.
 */
import { Effect, Option, Schema } from "effect"
import { decodeWith } from "../../domain/decode.ts"
import { CsiContextKeys, NODE_PUBLISHED_LABEL, PV_LABEL_LISTENER_NAME, PV_LABEL_LISTENER_NAMESPACE } from "../../domain/constants.ts"
import { Kinds } from "../../domain/kinds.ts"
import type { ListenerIngress } from "../../domain/listenerPlan/inputs.ts"
import { classifyAddress } from "../../domain/addressSyntax.ts"
import { podListenersName } from "../../domain/constants.ts"
import { ADDRESSES_DIR } from "../../domain/volumeTree.ts"
import { getOption, KubeApi } from "../shared/KubeApi.ts"
import { listenerSelectionOf } from "../shared/listenerSelection.ts"
import { PublishedVolumes } from "../node/PublishedVolumes.ts"
import { ensureLabels } from "../node/publishSteps.ts"
import { VolumeFs } from "../shared/VolumeFs.ts"

const CSI_VOLUMES = "volumes/kubernetes.io~csi"

interface FoundTarget {
  readonly podUid: string
  readonly volumeHandle: string
  readonly targetPath: string
}

const listOr = (path: string) => VolumeFs.use((fs) => fs.readDir(path).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => [])))

/** The kubelet's bookkeeping of a CSI volume: which driver, which volume handle. */
const decodeVolData = decodeWith("vol_data.json", Schema.fromJsonString(Schema.Struct({ driverName: Schema.String, volumeHandle: Schema.String })))

/** A volume's vol_data.json; none if it is missing or not the kubelet's (another program's volume). */
const readVolData = (path: string) => VolumeFs.use((fs) => fs.readFile(path).pipe(Effect.flatMap(decodeVolData), Effect.option))

/** Our driver's volumes of every Pod on this node that have no record yet. */
const findTargets = (podsDir: string, driverName: string, known: ReadonlySet<string>) =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    const found: Array<FoundTarget> = []
    for (const podUid of yield* listOr(podsDir)) {
      const volumesDir = `${podsDir}/${podUid}/${CSI_VOLUMES}`
      for (const volume of yield* listOr(volumesDir)) {
        const data = yield* readVolData(`${volumesDir}/${volume}/vol_data.json`)
        if (Option.isNone(data) || data.value.driverName !== driverName) continue
        const { volumeHandle } = data.value
        const targetPath = `${volumesDir}/${volume}/mount`
        if (known.has(targetPath)) continue
        if ((yield* fs.entryType(targetPath).pipe(Effect.orElseSucceed(() => undefined))) !== "directory") continue
        found.push({ podUid, volumeHandle, targetPath })
      }
    }
    return found
  })

/** The addresses a tree holds: `addresses/<address>/address` and `…/ports/<name>` (either layout: paths resolve through links). */
export const addressesInTree = (targetPath: string) =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    const addresses: Array<ListenerIngress> = []
    for (const name of yield* listOr(`${targetPath}/${ADDRESSES_DIR}`)) {
      const dir = `${targetPath}/${ADDRESSES_DIR}/${name}`
      const address = (yield* fs.readFile(`${dir}/address`).pipe(Effect.orElseSucceed(() => name))).trim()
      const ports: Record<string, number> = {}
      for (const port of yield* listOr(`${dir}/ports`)) {
        const value = Number((yield* fs.readFile(`${dir}/ports/${port}`).pipe(Effect.orElseSucceed(() => ""))).trim())
        if (Number.isInteger(value) && value > 0) ports[port] = value
      }
      const type = classifyAddress(address)
      if (type !== undefined) addresses.push({ address, addressType: type, ports })
    }
    return addresses
  })

/** The Pod of uid `podUid` in `namespace`, through its PodListeners' owner; none if either is gone or replaced. */
const podOf = (namespace: string, podUid: string, nodeName: string) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    const record = yield* getOption(api.get(Kinds.PodListeners, { namespace, name: podListenersName(podUid) }))
    if (Option.isNone(record)) return undefined
    const owner = record.value.metadata.ownerReferences?.find((ref) => ref.kind === "Pod" && ref.uid === podUid)
    if (owner === undefined) return undefined
    const pod = yield* getOption(api.get(Kinds.Pod, { namespace, name: owner.name }))
    if (Option.isNone(pod) || pod.value.metadata.uid !== podUid || pod.value.metadata.deletionTimestamp !== undefined) return undefined
    const spec = pod.value["spec"] as { nodeName?: string } | undefined
    return spec?.nodeName === nodeName ? pod.value : undefined
  })

/**
 * Record every target of `driverName` under `podsDir` that has no record; returns how many.
 * Targets whose Pod, PV or Listener labels cannot be found are left to the kubelet.
 */
export const adoptPublishedTargets = Effect.fn("adoptPublishedTargets")(function*(podsDir: string, driverName: string, nodeName: string) {
  const published = yield* PublishedVolumes
  const known = new Set((yield* published.all).map((record) => record.request.targetPath))
  const found = yield* findTargets(podsDir, driverName, known)
  if (found.length === 0) return 0
  const api = yield* KubeApi
  let adopted = 0
  for (const target of found) {
    const pv = yield* getOption(api.get(Kinds.PersistentVolume, { name: target.volumeHandle }))
    if (Option.isNone(pv)) continue
    const claimNamespace = (pv.value["spec"] as { claimRef?: { namespace?: string } } | undefined)?.claimRef?.namespace
    if (claimNamespace === undefined) continue
    const pod = yield* podOf(claimNamespace, target.podUid, nodeName)
    if (pod === undefined) continue
    const labels = pv.value.metadata.labels ?? {}
    const listener = { namespace: labels[PV_LABEL_LISTENER_NAMESPACE] ?? "", name: labels[PV_LABEL_LISTENER_NAME] ?? "" }
    const frozen = ((pv.value["spec"] as { csi?: { volumeAttributes?: Record<string, string> } } | undefined)?.csi?.volumeAttributes) ?? {}
    const selection = listenerSelectionOf(frozen, `PersistentVolume ${target.volumeHandle}`)
    if (listener.namespace === "" || listener.name === "" || selection._tag === "ListenerSelectionInvalid") continue
    const podRef = { namespace: pod.metadata.namespace ?? "", name: pod.metadata.name ?? "", uid: target.podUid }
    // The mark: the controller's volume binder binds the Pod's PodListeners and the volume's
    // per-volume Listener — made by the upstream operator or an older version, unbound — to
    // this node, and only then does this node's refresh update them (docs/security.md).
    yield* ensureLabels("mark Pod", Kinds.Pod, podRef, pod.metadata.labels, { [NODE_PUBLISHED_LABEL]: nodeName }).pipe(
      Effect.catch((error) => Effect.logWarning(`marking Pod ${podRef.namespace}/${podRef.name} as published on this node failed (its refresh waits for the binding): ${error.message}`))
    )
    yield* published.record({
      request: {
        volumeId: target.volumeHandle,
        targetPath: target.targetPath,
        pod: podRef,
        listener: selection,
        volumeContext: { ...frozen, [CsiContextKeys.podName]: podRef.name, [CsiContextKeys.podNamespace]: podRef.namespace, [CsiContextKeys.podUid]: podRef.uid }
      },
      listener,
      addresses: yield* addressesInTree(target.targetPath)
    })
    adopted++
  }
  if (adopted > 0) yield* Effect.logInfo(`recorded ${adopted} listener volume(s) published before this plugin (live refresh now covers them)`)
  return adopted
})
