/**
 * The recorded upstream state (test/e2e/fixtures/upstream/, written by record.ts), typed
 * for the replay and the takeover test.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { KubeObject } from "../envtest/kubeClient.ts"
import type { RecordedTree } from "./standInNodePlugin.ts"

export const FIXTURES_DIR = join(import.meta.dirname, "..", "e2e", "fixtures", "upstream")

export interface Recording {
  readonly operatorVersion: string
  readonly source: string
  readonly recordedAt: string
  readonly nodes: ReadonlyArray<{ readonly name: string; readonly ip: string }>
  readonly namespace: string
  readonly loadBalancerAddress: string
}

export interface UpstreamFixtures {
  readonly dir: string
  readonly recording: Recording
  readonly crds: KubeObject[]
  readonly listenerClasses: KubeObject[]
  readonly listeners: KubeObject[]
  readonly podListeners: KubeObject[]
  readonly services: KubeObject[]
  readonly persistentVolumes: KubeObject[]
  readonly persistentVolumeClaims: KubeObject[]
  readonly pods: KubeObject[]
  readonly csiDriver: KubeObject
  readonly storageClass: KubeObject
  readonly trees: RecordedTree[]
}

const read = <T>(dir: string, file: string): T => JSON.parse(readFileSync(join(dir, file), "utf8")) as T

export const loadFixtures = (dir: string = FIXTURES_DIR): UpstreamFixtures => ({
  dir,
  recording: read(dir, "recording.json"),
  crds: read(dir, "crds.json"),
  listenerClasses: read(dir, "listenerclasses.json"),
  listeners: read(dir, "listeners.json"),
  podListeners: read(dir, "podlisteners.json"),
  services: read(dir, "services.json"),
  persistentVolumes: read(dir, "persistentvolumes.json"),
  persistentVolumeClaims: read(dir, "persistentvolumeclaims.json"),
  pods: read(dir, "pods.json"),
  csiDriver: read(dir, "csidriver.json"),
  storageClass: read(dir, "storageclass.json"),
  trees: read(dir, "volume-trees.json")
})
