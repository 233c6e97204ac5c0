// Upgrading our own release on real kubelets, as docs/migration.md describes it: `helm
// upgrade` to the next build (another image tag, changed chart values, a CRD with one more
// optional field — test/upgrade/nextBuild.ts), version skew both ways, `helm rollback`,
// then `helm uninstall` and a re-install. Throughout, a client on the host polls every
// replica of a StatefulSet through its published address (0 failed requests); while the
// node DaemonSet rolls, new Pods keep publishing on both nodes (at most one failed mount
// each); the controller hands its Lease over; a re-install adopts the Listeners and
// Services it finds without writing to them (the API server's audit log).
import assert from "node:assert/strict"
import { after, before, describe, test } from "node:test"
import type { TestContext } from "node:test"
import { CSI_DRIVER_NAME, LISTENER_API_VERSION } from "../../domain/constants.ts"
import { CRD_REFUSED_REASON } from "../../k8s/crdSync.ts"
import { operatorRef } from "../images/build.ts"
import { createNamespace, eventually, isNotFound } from "../envtest/kubeClient.ts"
import type { KubeClient } from "../envtest/kubeClient.ts"
import { isPodReady, readyPod as readyPodIn } from "../envtest/localCluster.ts"
import { httpGetBody } from "../realnodes/httpGet.ts"
import { CHART_DIR, installArgs, OPERATOR_NAMESPACE, RELEASE, startOperatorCluster } from "../realnodes/operatorCluster.ts"
import type { OperatorCluster } from "../realnodes/operatorCluster.ts"
import { NEXT_FIELD } from "../upgrade/nextCrds.ts"
import { buildNextOperatorImage, nextOperatorRef } from "../upgrade/nextBuild.ts"
import { ephemeralPod, listenerClass, printedAddress, statefulSet } from "./workloads.ts"

const log = process.env["E2E_LOG"] !== undefined ? (line: string) => console.error(line) : undefined
const NS = "upgrade"
const NODES = ["node-a", "node-b"] as const
const WAIT = { timeoutMs: 240_000, intervalMs: 1000 }
const LISTENERS = `/apis/${LISTENER_API_VERSION}`
const CONTROLLER = `${RELEASE}-controller`
const NODE_DS = `${RELEASE}-node`
const LEASE = `/apis/coordination.k8s.io/v1/namespaces/${OPERATOR_NAMESPACE}/leases/listener-operator-controller`
const CLASS_CRD = "listenerclasses.listeners.stackable.tech"
const PUBLISH_CLASS = "upgrade-nodeport"
const SERVICE_ACCOUNTS = [`system:serviceaccount:${OPERATOR_NAMESPACE}:${RELEASE}-controller`, `system:serviceaccount:${OPERATOR_NAMESPACE}:${RELEASE}-node`]
/** What the reports in docs/migration.md are read from (E2E_REPORT=1 prints them). */
const report = (line: string) => {
  if (process.env["E2E_REPORT"] !== undefined || log !== undefined) console.error(`[upgrade report] ${line}`)
}

interface Target {
  readonly replica: string
  readonly address: string
  readonly port: number
}

/** A client on the host GETting every replica through its published address, one round every 250 ms. */
const startPoller = (targets: ReadonlyArray<Target>) => {
  let running = true
  let requests = 0
  const failures: string[] = []
  const loop = (async () => {
    while (running) {
      await Promise.all(targets.map(async (t) => {
        requests++
        const body = await httpGetBody(t.address, t.port).catch((error: Error) => `error: ${error.message}`)
        if (body !== t.replica) failures.push(`${new Date().toISOString()} ${t.address}:${t.port} (${t.replica}): ${body}`)
      }))
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  })()
  return {
    stop: async () => {
      running = false
      await loop
      return { requests, failures }
    },
    snapshot: () => ({ requests, failures: [...failures] })
  }
}

interface Published {
  readonly pod: string
  readonly node: string
  /** FailedMount Events (counted with their repeats) while the kubelet had no driver registered: the re-registration of a node plugin. */
  readonly unregistered: number
  /** Every other FailedMount: the node plugin's UNAVAILABLE until the new Listener has an address (by design, the kubelet retries). */
  readonly other: number
  readonly address: string | undefined
  readonly seconds: number
}

/** The kubelet's message while the driver is not registered (between its plugin manager's unregister and register passes). */
const UNREGISTERED = /not found in the list of registered CSI drivers/u

describe("upgrade, version skew, rollback, uninstall and re-install of our release on real kubelets", { timeout: 1_800_000 }, () => {
  let operator: OperatorCluster
  let kube: KubeClient
  let poller: ReturnType<typeof startPoller>
  let podCounter = 0

  const kubectl = async (args: ReadonlyArray<string>) => operator.cluster.plane.kubectl([...args])
  const must = async (what: string, args: ReadonlyArray<string>) => {
    const run = await kubectl(args)
    assert.equal(run.code, 0, `${what}: ${run.stderr}${run.stdout}`)
    return run.stdout
  }
  const helm = async (what: string, args: ReadonlyArray<string>) => {
    const started = performance.now()
    const run = await operator.helm(args)
    assert.equal(run.code, 0, `${what} failed (exit ${run.code}):\n${run.stderr}\n${run.stdout}`)
    report(`${what}: ${((performance.now() - started) / 1000).toFixed(1)} s`)
  }
  const nodeIp = (name: string) => operator.cluster.nodes.find((n) => n.name === name)!.ip
  const readyPod = (name: string) => readyPodIn(kube, NS, name, undefined, WAIT)
  const imageOf = async (kind: "deployment" | "daemonset", name: string) =>
    (await must(`${kind} image`, ["get", kind, name, "-n", OPERATOR_NAMESPACE, "-o", "jsonpath={.spec.template.spec.containers[0].image}"])).trim()
  const rolledOut = (kind: "deployment" | "daemonset", name: string) =>
    must(`rollout of ${kind} ${name}`, ["rollout", "status", `${kind}/${name}`, "-n", OPERATOR_NAMESPACE, "--timeout=240s"])
  const operatorPods = async (component: string) =>
    (await kube.list(`/api/v1/namespaces/${OPERATOR_NAMESPACE}/pods`, { labelSelector: `app.kubernetes.io/instance=${RELEASE},app.kubernetes.io/component=${component}` })).items
  const leaseHolder = async (): Promise<string | undefined> =>
    ((await kube.getOrUndefined(LEASE))?.spec?.["holderIdentity"] as string | undefined)
  const failedMountsOf = async (pod: string): Promise<{ unregistered: number; other: number }> => {
    const events = await kube.list(`/api/v1/namespaces/${NS}/events`, { fieldSelector: `involvedObject.name=${pod},reason=FailedMount` })
    const count = (matching: boolean) =>
      events.items.filter((e) => UNREGISTERED.test(String(e["message"])) === matching).reduce((sum, e) => sum + Number(e["count"] ?? 1), 0)
    for (const e of events.items) if (!UNREGISTERED.test(String(e["message"])) && !/listener|address|node port/iu.test(String(e["message"]))) report(`${pod}: FailedMount ${String(e["message"])}`)
    return { unregistered: count(true), other: count(false) }
  }
  const logsOf = async (pod: string) => (await kubectl(["logs", "-n", NS, pod, "-c", "app"])).stdout

  /** One Pod with a fresh listener volume on `node`: Ready, what it printed, how many mounts failed. */
  const publishOnce = async (node: string): Promise<Published> => {
    const name = `pub-${node}-${podCounter++}`
    const started = performance.now()
    await kube.create(`/api/v1/namespaces/${NS}/pods`, ephemeralPod(name, NS, PUBLISH_CLASS, node))
    await readyPod(name)
    const printed = await eventually(`${name} printed its address`, async () => printedAddress(await logsOf(name)), { timeoutMs: 30_000, intervalMs: 500 })
    const seconds = (performance.now() - started) / 1000
    const failed = await failedMountsOf(name)
    await kube.delete(`/api/v1/namespaces/${NS}/pods/${name}`)
    return { pod: name, node, ...failed, address: printed.address, seconds }
  }

  /** Pods publishing on every node, one after the other per node, until `stop`. */
  const startPublishing = () => {
    let running = true
    const results: Published[] = []
    const loops = NODES.map(async (node) => {
      while (running) results.push(await publishOnce(node))
    })
    return {
      stop: async () => {
        running = false
        await Promise.all(loops)
        return results
      }
    }
  }

  /**
   * Every Pod got its node's address, and no error reached it beyond one retried mount:
   * at most one failed mount per Pod — awaiting its Listener's address (the node plugin
   * waits a few seconds within the call, and the new controller takes the released Lease
   * at once) or "driver not registered". The one exception is the kubelet's own
   * re-registration of a node plugin that took over (about 1 s: its plugin manager
   * unregisters the replaced socket in one pass and registers the new one in the next),
   * which the kubelet's backoff (0.5 s, then 1 s) may meet twice — and then nothing else
   * may have failed for that Pod.
   */
  const assertPublished = (what: string, results: ReadonlyArray<Published>, rolling: boolean) => {
    const summary = results.map((r) => `${r.pod} ${r.seconds.toFixed(1)} s, failed mounts: ${r.other} awaiting address + ${r.unregistered} driver not registered`)
    report(`${what}: ${results.length} Pods published: ${summary.join("; ")}`)
    for (const node of NODES) assert.ok(results.some((r) => r.node === node), `${what}: a Pod published on ${node}`)
    for (const r of results) {
      assert.equal(r.address, nodeIp(r.node), `${r.pod} got its node's address`)
      const failed = `${r.other} awaiting its Listener's address + ${r.unregistered} while the driver was not registered`
      assert.ok(r.unregistered <= (rolling ? 2 : 0), `${what}: ${r.pod} failed mounts: ${failed}`)
      assert.ok(r.other + r.unregistered <= 1 || (r.other === 0 && r.unregistered === 2), `${what}: ${r.pod} failed mounts: ${failed}`)
    }
  }

  /** Holder changes of the controller's Lease until `stop`, and the longest time it had no holder. */
  const watchLease = () => {
    let running = true
    const holders: string[] = []
    let vacantSince: number | undefined
    let longestVacancyMs = 0
    const loop = (async () => {
      while (running) {
        const holder = await leaseHolder().catch(() => undefined)
        const now = performance.now()
        if (holder === undefined || holder === "") vacantSince ??= now
        else {
          if (vacantSince !== undefined) longestVacancyMs = Math.max(longestVacancyMs, now - vacantSince)
          vacantSince = undefined
          if (holders.at(-1) !== holder) holders.push(holder)
        }
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    })()
    return {
      stop: async () => {
        running = false
        await loop
        return { holders, longestVacancyMs }
      }
    }
  }

  /** The running controller Pod holds the Lease (a handover happened when `previous` is given). */
  const assertLeaseHandedOver = async (what: string, lease: { holders: string[]; longestVacancyMs: number }, previous: string | undefined) => {
    const pods = (await operatorPods("controller")).filter((p) => p.metadata.deletionTimestamp === undefined && isPodReady(p))
    assert.equal(pods.length, 1, `${what}: one controller Pod`)
    const holder = await eventually(`${what}: the new controller Pod holds the Lease`, async () => {
      const now = await leaseHolder()
      return now === pods[0]!.metadata.name ? now : undefined
    }, { timeoutMs: 60_000, intervalMs: 250 })
    if (previous !== undefined) assert.notEqual(holder, previous, `${what}: the Lease moved to the new Pod`)
    report(`${what}: Lease holders ${[previous, ...lease.holders].filter((h, i, all) => h !== undefined && all.indexOf(h) === i).join(" → ")}; longest time without a holder ${lease.longestVacancyMs.toFixed(0)} ms`)
    // The standby watches the Lease and takes it on its release; polling alone (every 2–4.4 s) would leave it vacant longer.
    assert.ok(lease.longestVacancyMs < 1000, `${what}: the Lease had no holder for ${lease.longestVacancyMs.toFixed(0)} ms at the handover`)
    return holder
  }

  const classSpecFields = async (): Promise<string[]> => {
    const crd = await kube.get(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${CLASS_CRD}`)
    const versions = crd.spec?.["versions"] as Array<{ schema: { openAPIV3Schema: { properties: { spec: { properties: Record<string, unknown> } } } } }>
    return Object.keys(versions[0]!.schema.openAPIV3Schema.properties.spec.properties)
  }

  const setControllerImage = async (ref: string) => {
    await must("kubectl set image", ["set", "image", `deployment/${CONTROLLER}`, `controller=${ref}`, "-n", OPERATOR_NAMESPACE])
    await rolledOut("deployment", CONTROLLER)
  }

  before(async () => {
    const next = await buildNextOperatorImage()
    operator = await startOperatorCluster({ nodes: [...NODES], log, auditLog: true, extraImages: [next.path] })
    kube = operator.cluster.kube
    await createNamespace(kube, NS)
    await kube.create(`${LISTENERS}/listenerclasses`, listenerClass("upgrade-pinned", { serviceType: "NodePort", pinnedNodePorts: true }))
    await kube.create(`${LISTENERS}/listenerclasses`, listenerClass(PUBLISH_CLASS, { serviceType: "NodePort" }))
    await kube.create(`/apis/apps/v1/namespaces/${NS}/statefulsets`, statefulSet("web", NS, "upgrade-pinned", 2))
    const targets: Target[] = []
    for (const replica of ["web-0", "web-1"]) {
      await readyPod(replica)
      const listener = await eventually(`listener-${replica} has addresses`, async () => {
        const l = await kube.get(`${LISTENERS}/namespaces/${NS}/listeners/listener-${replica}`)
        return ((l.status?.["ingressAddresses"] ?? []) as unknown[]).length > 0 ? l : undefined
      }, WAIT)
      for (const a of listener.status?.["ingressAddresses"] as Array<{ address: string; ports: Record<string, number> }>) {
        targets.push({ replica, address: a.address, port: a.ports["http"]! })
      }
      await eventually(`${replica} answers`, async () => (await httpGetBody(targets.at(-1)!.address, targets.at(-1)!.port).catch(() => "")) === replica, { timeoutMs: 60_000, intervalMs: 500 })
    }
    poller = startPoller(targets)
  })

  after(async () => {
    const final = await poller?.stop()
    if (final !== undefined) report(`poller overall: ${final.requests} requests, ${final.failures.length} failed`)
    await operator?.stop()
  })

  test("skew: the next build's controller with this build's node plugins — CRD upgraded at start, Lease handed over, Pods publish on every node", async () => {
    const previous = await leaseHolder()
    const lease = watchLease()
    await setControllerImage(nextOperatorRef())
    await assertLeaseHandedOver("controller → next build", await lease.stop(), previous)
    assert.equal(await imageOf("daemonset", NODE_DS), operatorRef(), "the node plugins are still this build")
    await eventually("the next build applied its CRD (one more optional field)", async () => (await classSpecFields()).includes(NEXT_FIELD), { timeoutMs: 60_000, intervalMs: 500 })
    assertPublished("new controller, old node plugins", await Promise.all(NODES.map(publishOnce)), false)
    assert.deepEqual(poller.snapshot().failures, [])
  })

  /**
   * `roll` rolls both workloads while new Pods keep publishing: both rollouts finish, every
   * Pod is published with at most one failed mount, and the Lease passes to the new controller.
   */
  const rollWhilePublishing = async (t: TestContext, label: string, roll: () => Promise<unknown>): Promise<void> => {
    const previous = await leaseHolder()
    const lease = watchLease()
    const publishing = startPublishing()
    t.after(async () => {
      await lease.stop()
      await publishing.stop().catch(() => undefined)
    })
    await roll()
    await rolledOut("daemonset", NODE_DS)
    await rolledOut("deployment", CONTROLLER)
    assertPublished(label, await publishing.stop(), true)
    await assertLeaseHandedOver(label, await lease.stop(), previous)
  }

  test("helm upgrade to the next build (image, values, CRD) while Pods publish: 0 failed requests, every Pod published, Lease handed over", async (t) => {
    const [repository, tag] = splitRef(nextOperatorRef())
    await rollWhilePublishing(t, "helm upgrade", () => helm("helm upgrade to the next build", [
      "upgrade", RELEASE, CHART_DIR, "--namespace", OPERATOR_NAMESPACE, "--reuse-values", "--wait", "--timeout", "5m",
      "--set", `image.repository=${repository}`, "--set", `image.tag=${tag}`,
      // Changed values: both Pod templates change.
      "--set", "logLevel=info", "--set", "node.addressRefreshSeconds=3"
    ]))
    assert.equal(await imageOf("daemonset", NODE_DS), nextOperatorRef())
    assert.equal(await imageOf("deployment", CONTROLLER), nextOperatorRef())
    const polled = poller.snapshot()
    report(`after helm upgrade: ${polled.requests} requests, ${polled.failures.length} failed`)
    assert.deepEqual(polled.failures, [])
  })

  test("skew: this build's controller with the next build's node plugins — the CRD is not downgraded while a class uses the new field; Pods publish", async () => {
    // A user starts using the new field.
    await kube.patch(`${LISTENERS}/listenerclasses/${PUBLISH_CLASS}`, { spec: { [NEXT_FIELD]: "set after the upgrade" } }, "merge")
    const previous = await leaseHolder()
    const lease = watchLease()
    await setControllerImage(operatorRef())
    await assertLeaseHandedOver("controller → this build", await lease.stop(), previous)
    const refusal = await eventually("a CrdUpgradeRefused Event on the ListenerClass CRD", async () => {
      const events = (await kube.list("/apis/events.k8s.io/v1/namespaces/default/events")).items
      return events.find((e) => e["reason"] === CRD_REFUSED_REASON && (e["regarding"] as { name?: string }).name === CLASS_CRD)
    }, { timeoutMs: 60_000, intervalMs: 500 })
    assert.match(String(refusal["note"]), new RegExp(`spec\\.${NEXT_FIELD} .*1 object\\(s\\) set it \\(${PUBLISH_CLASS}\\)`, "u"))
    report(`refusal Event: ${String(refusal["note"])}`)
    assert.ok((await classSpecFields()).includes(NEXT_FIELD), "the live CRD keeps the field")
    assert.equal((await kube.get(`${LISTENERS}/listenerclasses/${PUBLISH_CLASS}`)).spec?.[NEXT_FIELD], "set after the upgrade")
    assertPublished("old controller, new node plugins", await Promise.all(NODES.map(publishOnce)), false)
    assert.deepEqual(poller.snapshot().failures, [])
  })

  test("helm rollback to the first release while Pods publish: 0 failed requests, every Pod published, Lease handed over", async (t) => {
    await rollWhilePublishing(t, "helm rollback", () =>
      helm("helm rollback", ["rollback", RELEASE, "1", "--namespace", OPERATOR_NAMESPACE, "--wait", "--timeout", "5m"]))
    assert.equal(await imageOf("daemonset", NODE_DS), operatorRef())
    const polled = poller.snapshot()
    report(`after helm rollback: ${polled.requests} requests, ${polled.failures.length} failed`)
    assert.deepEqual(polled.failures, [])
  })

  let kept: Map<string, string> = new Map()

  test("after the rollback: done as the refusal says — the field removed from the class, the controller restarted — the CRD is this build's again", async () => {
    await kube.patch(`${LISTENERS}/listenerclasses/${PUBLISH_CLASS}`, [{ op: "remove", path: `/spec/${NEXT_FIELD}` }], "json")
    await must("restart the controller", ["rollout", "restart", `deployment/${CONTROLLER}`, "-n", OPERATOR_NAMESPACE])
    await rolledOut("deployment", CONTROLLER)
    await eventually("the CRD without the next build's field", async () => !(await classSpecFields()).includes(NEXT_FIELD), { timeoutMs: 60_000, intervalMs: 500 })
  })

  test("helm uninstall: workloads keep running with their files; CRDs, classes, Listeners, Services, PVs and PodListeners stay", async () => {
    const fileBefore = (await kubectl(["exec", "-n", NS, "web-0", "--", "cat", "/listener/default-address/address"])).stdout
    await helm("helm uninstall", ["uninstall", RELEASE, "--namespace", OPERATOR_NAMESPACE, "--wait", "--timeout", "3m"])
    await eventually("the operator's Pods are gone", async () => (await kube.list(`/api/v1/namespaces/${OPERATOR_NAMESPACE}/pods`)).items.length === 0, WAIT)
    assert.equal(await kube.getOrUndefined(`/apis/storage.k8s.io/v1/csidrivers/${CSI_DRIVER_NAME}`), undefined, "the CSIDriver goes with the release")

    const stays: Array<[string, string]> = [
      ["CRD", `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${CLASS_CRD}`],
      ["ListenerClass", `${LISTENERS}/listenerclasses/upgrade-pinned`]
    ]
    for (const replica of ["web-0", "web-1"]) {
      stays.push(["Listener", `${LISTENERS}/namespaces/${NS}/listeners/listener-${replica}`])
      stays.push(["Service", `/api/v1/namespaces/${NS}/services/listener-${replica}`])
      const pod = await kube.get(`/api/v1/namespaces/${NS}/pods/${replica}`)
      assert.ok(isPodReady(pod), `${replica} still Ready`)
      stays.push(["PodListeners", `${LISTENERS}/namespaces/${NS}/podlisteners/pod-${pod.metadata.uid}`])
      const claim = await kube.get(`/api/v1/namespaces/${NS}/persistentvolumeclaims/listener-${replica}`)
      stays.push(["PersistentVolume", `/api/v1/persistentvolumes/${claim.spec?.["volumeName"]}`])
    }
    kept = new Map()
    for (const [kind, path] of stays) {
      const found = await kube.getOrUndefined(path)
      assert.ok(found !== undefined, `${kind} ${path} stays after helm uninstall`)
      kept.set(path, String(found.metadata.resourceVersion))
    }
    const fileAfter = (await kubectl(["exec", "-n", NS, "web-0", "--", "cat", "/listener/default-address/address"])).stdout
    assert.equal(fileAfter, fileBefore, "the running Pod keeps its volume's files")
    assert.deepEqual(poller.snapshot().failures, [])
  })

  test("helm install again adopts what stayed: no write to the Services or the Listeners' status, nothing re-created", async () => {
    const since = new Date().toISOString()
    await helm("helm install (re-install)", ["install", RELEASE, CHART_DIR, "--namespace", OPERATOR_NAMESPACE, "--wait", "--timeout", "5m", ...installArgs(splitRef(operatorRef()), [])])
    for (const node of NODES) await operator.nodePluginPod(node)
    await eventually("the new controller holds the Lease", async () => {
      const holder = await leaseHolder()
      return (await operatorPods("controller")).some((p) => p.metadata.name === holder && isPodReady(p)) ? holder : undefined
    }, WAIT)
    // A new Pod publishes: the re-installed operator works.
    assertPublished("after re-install", await Promise.all(NODES.map(publishOnce)), false)
    // Let the controller's first full pass over what it adopted finish.
    await new Promise((resolve) => setTimeout(resolve, 5000))
    const writes = (await operator.cluster.plane.auditEvents()).filter((e) =>
      e.stageTimestamp >= since && SERVICE_ACCOUNTS.includes(e.user.username) && e.objectRef?.namespace === NS &&
      (e.objectRef.resource === "services" || (e.objectRef.resource === "listeners" && e.objectRef.subresource === "status")) &&
      ["web-0", "web-1"].some((replica) => e.objectRef?.name === `listener-${replica}`))
    report(`re-install: ${writes.length} writes to the existing Services / Listener statuses (audit log): ${writes.map((w) => `${w.verb} ${w.objectRef?.resource}/${w.objectRef?.subresource ?? ""} ${w.objectRef?.name}`).join(", ")}`)
    assert.deepEqual(writes.map((w) => `${w.verb} ${w.objectRef?.resource} ${w.objectRef?.name}`), [])
    for (const [path, resourceVersion] of kept) {
      if (path.includes("customresourcedefinitions")) continue
      const now = await kube.getOrUndefined(path)
      assert.equal(now?.metadata.resourceVersion, resourceVersion, `${path} unchanged by the re-install`)
    }
    const polled = await poller.stop()
    report(`whole run: ${polled.requests} requests to the replicas, ${polled.failures.length} failed`)
    assert.deepEqual(polled.failures, [])
    for (const path of kept.keys()) {
      try {
        await kube.get(path)
      } catch (error) {
        if (isNotFound(error)) assert.fail(`${path} was deleted`)
        throw error
      }
    }
  })
})

const splitRef = (ref: string): [string, string] => {
  const colon = ref.lastIndexOf(":")
  return [ref.slice(0, colon), ref.slice(colon + 1)]
}
