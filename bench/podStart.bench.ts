/**
 * Benchmark: what a listener volume adds to a Pod's start, on the real-node cluster of the
 * end-to-end suite (test/realnodes: real kubelets and containerd, the chart-installed image).
 *
 *   flock /tmp/lo-suite.lock node --import tsx bench/podStart.bench.ts [pods=20] [helm --set values…]
 *   flock /tmp/lo-suite.lock node --import tsx bench/podStart.bench.ts --one-at-a-time N [helm --set values…]
 *
 * Three kinds of Pod, identical but for the volume at /listener: an emptyDir; a listener
 * volume (generic ephemeral, a per-volume NodePort Listener each); and a generic ephemeral
 * volume of a WaitForFirstConsumer StorageClass served by kube-controller-manager's in-tree
 * hostPath provisioner (`--enable-hostpath-provisioner`, the only other provisioner the
 * cluster has) — Kubernetes' own dynamic provisioning with no CSI driver at all, the floor
 * any WaitForFirstConsumer volume pays.
 *
 * Batch mode (default): `pods` Pods of each kind created at once (spread over the two
 * nodes), one kind after the other. One-at-a-time mode (what a user mostly meets): N rounds,
 * each one Pod of each kind, each Pod Ready before the next is created, the order reversed
 * every round to cancel drift, the node alternating; after a warm-up round per node that is
 * not counted. Ready time is measured here (creation request sent → Ready seen, polled),
 * not from the API's second-resolution timestamps.
 *
 * Reports the median and p90 of each kind's Ready time and of the differences, the
 * FailedMount Events of the listener Pods (0 when every first publish succeeds), the stages
 * of each Pod from the API server's audit log (bench/podStartStages.ts), the scheduler's
 * WaitForFirstConsumer floor (the claim annotated with the selected node → the Pod bound),
 * the listener Pods' publish request by request, and the node plugins' and the controller's
 * CSI call records. Further arguments are `helm install --set` values, e.g. to compare chart
 * settings: `provisioner.kubeApiQps=5 provisioner.kubeApiBurst=10`.
 */
import { rm, rmdir, writeFile } from "node:fs/promises"
import { createNamespace } from "../test/envtest/kubeClient.ts"
import type { KubeClient, KubeObject } from "../test/envtest/kubeClient.ts"
import type { AuditEvent } from "../test/envtest/controlPlane.ts"
import { isPodReady } from "../test/envtest/localCluster.ts"
import { OPERATOR_NAMESPACE, startOperatorCluster } from "../test/realnodes/operatorCluster.ts"
import type { OperatorCluster } from "../test/realnodes/operatorCluster.ts"
import { ephemeralPod, listenerClass } from "../test/e2e/workloads.ts"
import {
  annotatedToBound,
  by,
  CONTROLLER_SA,
  EMPTY_DIR_STAGES,
  HOST_PATH_STAGES,
  LISTENER_STAGES,
  nodePluginRequests,
  podBound,
  PUBLISH_TIMELINE,
  requestsAbout,
  stageDurations
} from "./podStartStages.ts"
import type { Stage, TimedPod } from "./podStartStages.ts"

const args = process.argv.slice(2)
const oneAtATimeFlag = args.indexOf("--one-at-a-time")
const ROUNDS = oneAtATimeFlag >= 0 ? Number(args[oneAtATimeFlag + 1]) : undefined
const rest = oneAtATimeFlag >= 0 ? [...args.slice(0, oneAtATimeFlag), ...args.slice(oneAtATimeFlag + 2)] : args
const PODS = rest[0] !== undefined && /^\d+$/u.test(rest[0]) ? Number(rest[0]) : 20
const VALUES = rest[0] !== undefined && /^\d+$/u.test(rest[0]) ? rest.slice(1) : rest
if (ROUNDS !== undefined && !(Number.isInteger(ROUNDS) && ROUNDS > 0)) throw new Error("--one-at-a-time needs a positive number of rounds")

const NODES = ["node-a", "node-b"] as const
const NS = "podstart"
const LISTENERS = "/apis/listeners.stackable.tech/v1alpha1"
const HOST_PATH_CLASS = "podstart-hostpath"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN
}
const seconds = (ms: number) => Number.isNaN(ms) ? "—" : `${(ms / 1000).toFixed(2)} s`
const min = (values: ReadonlyArray<number>) => Math.min(...values.filter((v) => !Number.isNaN(v)))

type Kind = "emptyDir" | "listener" | "hostPath"
const KINDS: ReadonlyArray<Kind> = ["emptyDir", "listener", "hostPath"]
const STAGES: Record<Kind, ReadonlyArray<Stage>> = { emptyDir: EMPTY_DIR_STAGES, listener: LISTENER_STAGES, hostPath: HOST_PATH_STAGES }

const withVolume = (pod: ReturnType<typeof ephemeralPod>, volume: object) => ({ ...pod, spec: { ...pod.spec, volumes: [{ name: "listener", ...volume }] } })
const podOf = (kind: Kind, name: string, node: string): object => {
  const listenerPod = ephemeralPod(name, NS, "podstart-nodeport", node)
  switch (kind) {
    case "listener":
      return listenerPod
    case "emptyDir":
      return withVolume(listenerPod, { emptyDir: {} })
    case "hostPath":
      return withVolume(listenerPod, {
        ephemeral: {
          volumeClaimTemplate: {
            spec: { storageClassName: HOST_PATH_CLASS, accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Mi" } } }
          }
        }
      })
  }
}

/** Create the Pods at once; each one's time from its create request to Ready seen. */
const startPods = async (kube: KubeClient, pods: ReadonlyArray<{ kind: Kind; name: string; node: string }>) => {
  const created = new Map<string, number>()
  const ready = new Map<string, { at: number; uid: string }>()
  await Promise.all(pods.map(async ({ kind, name, node }) => {
    created.set(name, Date.now())
    await kube.create(`/api/v1/namespaces/${NS}/pods`, podOf(kind, name, node))
  }))
  const deadline = Date.now() + 300_000
  while (ready.size < pods.length && Date.now() < deadline) {
    if (pods.length === 1) {
      const pod = await kube.get<KubeObject>(`/api/v1/namespaces/${NS}/pods/${pods[0]!.name}`)
      if (isPodReady(pod)) ready.set(pods[0]!.name, { at: Date.now(), uid: pod.metadata.uid! })
    } else {
      for (const pod of (await kube.list<KubeObject>(`/api/v1/namespaces/${NS}/pods`)).items) {
        const name = pod.metadata.name!
        if (created.has(name) && !ready.has(name) && isPodReady(pod)) ready.set(name, { at: Date.now(), uid: pod.metadata.uid! })
      }
    }
    await sleep(pods.length === 1 ? 50 : 100)
  }
  if (ready.size < pods.length) throw new Error(`only ${ready.size} of ${pods.length} Pods became Ready: ${pods.filter((p) => !ready.has(p.name)).map((p) => p.name).join(", ")}`)
  return pods.map(({ kind, name }) => ({ kind, name, created: created.get(name)!, ready: ready.get(name)!.at, uid: ready.get(name)!.uid }))
}

type Started = Awaited<ReturnType<typeof startPods>>[number]

const row = (label: string, values: ReadonlyArray<number>, more = "") =>
  `| ${label} | ${seconds(percentile(values, 50))} | ${seconds(percentile(values, 90))} |${more}`

const report = async (operator: OperatorCluster, started: ReadonlyArray<Started>, rounds: ReadonlyArray<Record<Kind, Started>> | undefined) => {
  const kube = operator.cluster.kube
  await sleep(2000) // the audit log is written as requests complete
  const events = await kube.list<KubeObject>(`/api/v1/namespaces/${NS}/events`)
  const failedMounts = events.items.filter((e) => e["reason"] === "FailedMount" && String((e["involvedObject"] as { name?: string }).name).startsWith("listener-"))
  const audit: ReadonlyArray<AuditEvent> = (await operator.cluster.plane.auditEvents())
    .filter((e) => e.objectRef?.namespace === NS || e.objectRef?.namespace === undefined)
  const pvcUid = new Map((await kube.list<KubeObject>(`/api/v1/namespaces/${NS}/persistentvolumeclaims`)).items.map((pvc) => [pvc.metadata.name!, pvc.metadata.uid!]))
  const timed = (pod: Started): TimedPod => {
    const pvc = pod.kind === "emptyDir" ? undefined : `${pod.name}-listener`
    return { ...pod, pvc: pvc === undefined ? undefined : { name: pvc, uid: pvcUid.get(pvc) ?? "?" } }
  }
  const of = (kind: Kind) => started.filter((p) => p.kind === kind).map(timed)
  const startMs = (kind: Kind) => of(kind).map((p) => p.ready - p.created)

  const title = rounds === undefined
    ? `${PODS} Pods of each kind created at once`
    : `one Pod at a time, ${rounds.length} rounds (each: one Pod of each kind, order reversed every round)`
  console.log(`\nPod start, ${title}, 2 real nodes, node ${process.version}${VALUES.length > 0 ? `, --set ${VALUES.join(" ")}` : ""}`)
  console.log("| Pods | median Ready | p90 Ready |\n|---|---|---|")
  for (const kind of KINDS) console.log(row(kind, startMs(kind)))
  if (rounds === undefined) {
    for (const kind of ["listener", "hostPath"] as const) {
      console.log(`| ${kind} − emptyDir | ${seconds(percentile(startMs(kind), 50) - percentile(startMs("emptyDir"), 50))} | ${seconds(percentile(startMs(kind), 90) - percentile(startMs("emptyDir"), 90))} |`)
    }
  } else {
    // Per round: the difference between Pods started back to back, then its median and p90.
    const differences = (kind: Kind) => rounds.map((r) => (r[kind].ready - r[kind].created) - (r.emptyDir.ready - r.emptyDir.created))
    console.log(row("listener − emptyDir (per round)", differences("listener")))
    console.log(row("hostPath − emptyDir (per round)", differences("hostPath")))
    console.log(row("listener − hostPath (per round)", rounds.map((r) => (r.listener.ready - r.listener.created) - (r.hostPath.ready - r.hostPath.created))))
    // After binding: what the volume adds once the scheduler is done (kubelet, publish).
    const boundToReady = (pod: Started) => pod.ready - podBound.at(audit, timed(pod))
    console.log(row("listener − emptyDir, Pod bound → Ready (per round)", rounds.map((r) => boundToReady(r.listener) - boundToReady(r.emptyDir))))
    console.log(row("hostPath − emptyDir, Pod bound → Ready (per round)", rounds.map((r) => boundToReady(r.hostPath) - boundToReady(r.emptyDir))))
  }
  console.log(`FailedMount Events on the listener Pods: ${failedMounts.length}${failedMounts.length > 0 ? ` (${failedMounts.map((e) => String(e["message"])).slice(0, 3).join("; ")})` : ""}`)

  for (const kind of KINDS) {
    const pods = of(kind)
    const durations = pods.map((pod) => stageDurations(STAGES[kind], audit, pod))
    console.log(`\nStages of the ${pods.length} ${kind} Pods (audit log; each row from the previous row's end; n = Pods the stage was found for)`)
    console.log("| stage | median | p90 | n | whose |\n|---|---|---|---|---|")
    let previous = "Pod created"
    STAGES[kind].forEach((stage, i) => {
      const values = durations.map((d) => d[i]!).filter((v) => !Number.isNaN(v))
      console.log(`| ${previous} → ${stage.label} | ${seconds(percentile(values, 50))} | ${seconds(percentile(values, 90))} | ${values.length} | ${stage.whose} |`)
      previous = stage.label
    })
  }

  // The WaitForFirstConsumer floor: the scheduler's PreBind polls the claims once a second.
  console.log("\nClaim annotated with the selected node → Pod bound (kube-scheduler's PreBind: first check 1 s after the annotation, then every 1 s)")
  console.log("| Pods | median | p90 | min | n |\n|---|---|---|---|---|")
  for (const kind of ["listener", "hostPath"] as const) {
    const values = of(kind).map((pod) => annotatedToBound(audit, pod)).filter((v) => !Number.isNaN(v))
    console.log(`| ${kind} | ${seconds(percentile(values, 50))} | ${seconds(percentile(values, 90))} | ${seconds(min(values))} | ${values.length} |`)
  }
  for (const kind of ["listener", "hostPath"] as const) {
    const perPod = of(kind).map((pod) => `${pod.name} ${seconds(annotatedToBound(audit, pod))}`)
    const under = of(kind).filter((pod) => annotatedToBound(audit, pod) < 1000).length
    console.log(`${kind}, per Pod: ${perPod.join(", ")}; under 1 s: ${under}`)
  }

  // The listener Pods' publish request by request, as time after the Pod was bound.
  console.log("\nA listener Pod's publish, request by request (audit log; ms after the Pod was bound; median, p90)")
  console.log("| point | median | p90 |\n|---|---|---|")
  for (const point of PUBLISH_TIMELINE) {
    const values = of("listener").map((pod) => point.at(audit, pod) - podBound.at(audit, pod))
    console.log(`| ${point.label} | ${percentile(values, 50).toFixed(0)} ms | ${percentile(values, 90).toFixed(0)} ms |`)
  }
  const requestCounts = new Map<string, number>()
  for (const pod of of("listener")) {
    const key = [...nodePluginRequests(audit, pod)].sort().join(", ")
    requestCounts.set(key, (requestCounts.get(key) ?? 0) + 1)
  }
  const dump = `/tmp/podstart-requests-${new Date().toISOString().replace(/[:.]/gu, "-")}.json`
  await writeFile(dump, JSON.stringify(Object.fromEntries(of("listener").map((pod) => [pod.name, requestsAbout(audit, pod)])), null, 1))
  console.log(`Every request about each listener Pod's objects: ${dump}`)
  console.log(`Node plugin requests per listener Pod (Pods with that set): ${[...requestCounts].map(([key, n]) => `${n} × [${key}] (${key.split(", ").length})`).join("; ")}`)

  const provisioner = audit.filter((e) => by(e, CONTROLLER_SA) && e.userAgent?.startsWith("csi-provisioner") === true && e.verb !== "watch")
  const byVerb = new Map<string, number>()
  for (const e of provisioner) byVerb.set(`${e.verb} ${e.objectRef?.resource ?? "?"}`, (byVerb.get(`${e.verb} ${e.objectRef?.resource ?? "?"}`) ?? 0) + 1)
  console.log(`csi-provisioner requests in the namespace and cluster-wide: ${JSON.stringify(Object.fromEntries(byVerb))}`)
  await csiCallRecords(operator)
}

/** The CSI servers' "CSI call" records (JSON log lines): NodePublishVolume in the node plugins, CreateVolume in the controller. */
const csiCallRecords = async (operator: OperatorCluster) => {
  const kube = operator.cluster.kube
  const calls = new Map<string, { durations: number[]; codes: Map<string, number> }>()
  const collect = (stdout: string) => {
    for (const line of stdout.split("\n")) {
      if (!line.includes("durationMs")) continue
      try {
        const annotations = (JSON.parse(line) as { annotations?: { rpc?: string; code?: string; durationMs?: number } }).annotations
        const rpc = annotations?.rpc
        if (rpc === undefined || typeof annotations?.durationMs !== "number" || !/NodePublishVolume|CreateVolume/u.test(rpc)) continue
        const entry = calls.get(rpc) ?? { durations: [] as number[], codes: new Map<string, number>() }
        entry.durations.push(annotations.durationMs)
        entry.codes.set(annotations.code ?? "?", (entry.codes.get(annotations.code ?? "?") ?? 0) + 1)
        calls.set(rpc, entry)
      } catch {
        // not a JSON record
      }
    }
  }
  const logs = (pod: KubeObject, container: string) => operator.cluster.plane.kubectl(["logs", "-n", OPERATOR_NAMESPACE, pod.metadata.name!, "-c", container])
  for (const node of NODES) collect((await logs(await operator.nodePluginPod(node), "node")).stdout)
  const controllerPod = (await kube.list<KubeObject>(`/api/v1/namespaces/${OPERATOR_NAMESPACE}/pods`, { labelSelector: "app.kubernetes.io/component=controller" })).items[0]
  if (controllerPod !== undefined) {
    collect((await logs(controllerPod, "controller")).stdout)
    const throttled = (await logs(controllerPod, "csi-provisioner")).stdout.split("\n").filter((line) => /client-side throttling/u.test(line))
    console.log(`csi-provisioner log: ${throttled.length} "client-side throttling" waits${throttled.length > 0 ? `, e.g. ${throttled.at(-1)!.slice(0, 200)}` : ""}`)
  }
  for (const [rpc, { durations, codes }] of calls) {
    console.log(`${rpc} (CSI call records): ${durations.length} calls ${JSON.stringify(Object.fromEntries(codes))}, duration median ${percentile(durations, 50)} ms, p90 ${percentile(durations, 90)} ms (includes the warm-up)`)
  }
}

const main = async () => {
  const operator = await startOperatorCluster({
    nodes: [...NODES],
    auditLog: "all",
    values: VALUES,
    controllerManagerArgs: ["--enable-hostpath-provisioner"]
  })
  const hostPaths: string[] = []
  try {
    const kube = operator.cluster.kube
    await createNamespace(kube, NS)
    await kube.create(`${LISTENERS}/listenerclasses`, listenerClass("podstart-nodeport", { serviceType: "NodePort" }))
    await kube.create("/apis/storage.k8s.io/v1/storageclasses", {
      apiVersion: "storage.k8s.io/v1",
      kind: "StorageClass",
      metadata: { name: HOST_PATH_CLASS },
      provisioner: "kubernetes.io/host-path",
      volumeBindingMode: "WaitForFirstConsumer",
      reclaimPolicy: "Delete"
    })

    const started: Started[] = []
    let rounds: Array<Record<Kind, Started>> | undefined
    if (ROUNDS === undefined) {
      for (const kind of KINDS) {
        started.push(...await startPods(kube, Array.from({ length: PODS }, (_, i) => ({ kind, name: `${kind.toLowerCase()}-${i}`, node: NODES[i % NODES.length]! }))))
      }
    } else {
      rounds = []
      // Warm-up (not counted): the first Pod of each kind on each node.
      for (const [i, node] of NODES.entries()) {
        for (const kind of KINDS) await startPods(kube, [{ kind, name: `warmup-${kind.toLowerCase()}-${i}`, node }])
      }
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? KINDS : [...KINDS].reverse()
        const node = NODES[round % NODES.length]!
        const result: Partial<Record<Kind, Started>> = {}
        for (const kind of order) {
          await sleep(1000) // let the previous Pod's tail (status writes, events) pass
          const [pod] = await startPods(kube, [{ kind, name: `${kind.toLowerCase()}-${round}`, node }])
          result[kind] = pod!
          started.push(pod!)
        }
        rounds.push(result as Record<Kind, Started>)
        console.log(`round ${round}: ${order.map((kind) => `${kind} ${seconds(result[kind]!.ready - result[kind]!.created)}`).join(", ")}`)
      }
    }
    for (const pv of (await kube.list<KubeObject>("/api/v1/persistentvolumes")).items) {
      const path = (pv.spec?.["hostPath"] as { path?: string } | undefined)?.path
      if (path !== undefined && path.startsWith("/tmp/hostpath_pv/")) hostPaths.push(path)
    }
    await report(operator, started, rounds)
  } finally {
    await operator.stop()
    // The hostPath provisioner's directories (kube-controller-manager made them on this host).
    for (const path of hostPaths) await rm(path, { recursive: true, force: true })
    await rmdir("/tmp/hostpath_pv").catch(() => undefined) // only when empty: nothing of anyone else's
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
