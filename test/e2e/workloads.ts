/**
 * Workloads of the end-to-end suite: busybox containers that print what they find in
 * their listener volume (the Pod log is the proof a user would look at) and then serve
 * their own Pod name over HTTP, so a client can tell which replica answered — the check
 * the upstream project's smoke test makes.
 */
import { LISTENER_API_VERSION, STORAGE_CLASS_NAME } from "../../domain/constants.ts"
import { BUSYBOX_REF } from "../images/build.ts"

export const HTTP_PORT = 8080

/** Prints `listener address=<a> port=<p>` once, then serves `<pod name>\n` on HTTP_PORT. */
const serveOwnName = [
  "addr=$(cat /listener/default-address/address)",
  "port=$(cat /listener/default-address/ports/http)",
  'echo "listener address=$addr port=$port"',
  "mkdir -p /tmp/www",
  'echo "$POD_NAME" > /tmp/www/index.html',
  `exec httpd -f -p ${HTTP_PORT} -h /tmp/www`
].join("; ")

const container = {
  name: "app",
  image: BUSYBOX_REF,
  imagePullPolicy: "Never",
  command: ["sh", "-c", serveOwnName],
  env: [{ name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } }],
  ports: [{ name: "http", containerPort: HTTP_PORT }],
  volumeMounts: [{ name: "listener", mountPath: "/listener" }],
  readinessProbe: { httpGet: { path: "/", port: HTTP_PORT }, periodSeconds: 1 }
}

const claimSpec = { storageClassName: STORAGE_CLASS_NAME, accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1" } } }

export const listenerClass = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: LISTENER_API_VERSION,
  kind: "ListenerClass",
  metadata: { name },
  spec
})

/** A StatefulSet whose replicas each get their own Listener of `className`, one replica per node. */
export const statefulSet = (name: string, namespace: string, className: string, replicas: number) => ({
  apiVersion: "apps/v1",
  kind: "StatefulSet",
  metadata: { name, namespace },
  spec: {
    serviceName: name,
    replicas,
    podManagementPolicy: "Parallel",
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: {
        terminationGracePeriodSeconds: 1,
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [{
              labelSelector: { matchLabels: { app: name } },
              topologyKey: "kubernetes.io/hostname"
            }]
          }
        },
        containers: [container]
      }
    },
    volumeClaimTemplates: [{
      metadata: { name: "listener", annotations: { "listeners.stackable.tech/listener-class": className } },
      spec: claimSpec
    }]
  }
})

/** A Pod with a generic ephemeral listener volume of `className` on `node` (the Listener dies with it). */
export const ephemeralPod = (
  name: string,
  namespace: string,
  className: string,
  node: string,
  securityContext?: Record<string, unknown>
) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace, labels: { app: name } },
  spec: {
    terminationGracePeriodSeconds: 1,
    // A node selector, not spec.nodeName: WaitForFirstConsumer volumes need the scheduler.
    nodeSelector: { "kubernetes.io/hostname": node },
    ...(securityContext !== undefined ? { securityContext } : {}),
    containers: [container],
    volumes: [{
      name: "listener",
      ephemeral: {
        volumeClaimTemplate: {
          metadata: { annotations: { "listeners.stackable.tech/listener-class": className } },
          spec: claimSpec
        }
      }
    }]
  }
})

/** The governing (headless) Service of StatefulSet `name`: per-Pod DNS names `<pod>.<name>.<ns>.svc.<domain>`. */
export const headlessService = (name: string, namespace: string) => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name, namespace },
  spec: {
    clusterIP: "None",
    selector: { app: name },
    ports: [{ name: "http", port: HTTP_PORT, targetPort: HTTP_PORT }],
    publishNotReadyAddresses: true
  }
})

/** A Pod that only waits, to run clients from with `kubectl exec`. */
export const clientPod = (name: string, namespace: string, node: string) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace },
  spec: {
    terminationGracePeriodSeconds: 1,
    nodeSelector: { "kubernetes.io/hostname": node },
    containers: [{ name: "client", image: BUSYBOX_REF, imagePullPolicy: "Never", command: ["sleep", "3600"] }]
  }
})

/**
 * A command for a busybox container that prints the body at `url`. Not `wget -T`: the
 * static busybox of Debian bookworm crashes (SIGSEGV) with that option; `timeout` bounds it.
 */
export const fetchCommand = (url: string): string[] => ["timeout", "5", "wget", "-q", "-O", "-", url]

/** The `listener address=… port=…` line a workload container printed. */
export const printedAddress = (logs: string): { address: string; port: number } | undefined => {
  const match = /^listener address=(\S+) port=(\d+)$/mu.exec(logs)
  return match === null ? undefined : { address: match[1]!, port: Number(match[2]) }
}
