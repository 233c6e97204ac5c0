/**
 * A stand-in for the upstream operator's CSI node plugin, for the takeover test (CI cannot
 * build the upstream binary): it answers the kubelet as a node plugin of
 * `listeners.stackable.tech` does, and publishes each volume by writing the tree the real
 * upstream plugin wrote for it in the recording (test/e2e/fixtures/upstream/
 * volume-trees.json) — plain directories, exact modes, contents and links. Unpublish
 * removes the target, as upstream does. It makes no API calls: the objects upstream writes
 * while publishing are replayed by replay.ts. Registered with the kubelet by registrar.ts.
 *
 *   node --import tsx test/upstream/standInNodePlugin.ts --csi-endpoint <socket path>
 *     --node <node name> --trees <volume-trees.json>
 */
import { Server, ServerCredentials, status } from "@grpc/grpc-js"
import type { GrpcObject, ServiceClientConstructor, ServerUnaryCall, sendUnaryData } from "@grpc/grpc-js"
import { loadPackageDefinition } from "@grpc/grpc-js"
import { loadSync } from "@grpc/proto-loader"
import { mkdirSync, readFileSync, rmSync, unlinkSync } from "node:fs"
import { dirname, join } from "node:path"
import { parseArgs } from "node:util"
import { CSI_DRIVER_NAME, TOPOLOGY_KEY_HOSTNAME } from "../../domain/constants.ts"
import type { TreeEntry } from "./volumeTree.ts"
import { writeVolumeTree } from "./volumeTree.ts"

/** tsx by absolute URL: a process started in a node's mount namespace begins in its root directory, not here. */
const TSX_LOADER = import.meta.resolve("tsx")

export interface RecordedTree {
  readonly node: string
  readonly pod: string
  readonly podUid: string
  readonly volume: string
  readonly persistentVolume: string
  readonly targetPath: string
  readonly tree: ReadonlyArray<TreeEntry>
}

const CSI_PROTO = join(import.meta.dirname, "..", "..", "csi", "csi.proto")

type Handler = (call: ServerUnaryCall<Record<string, unknown>, unknown>, callback: sendUnaryData<unknown>) => void

export const standInCommand = (options: { csiEndpoint: string; node: string; trees: string }) => ({
  command: process.execPath,
  args: ["--import", TSX_LOADER, import.meta.filename, "--csi-endpoint", options.csiEndpoint, "--node", options.node, "--trees", options.trees]
})

const main = async (): Promise<void> => {
  const { values } = parseArgs({ options: { "csi-endpoint": { type: "string" }, node: { type: "string" }, trees: { type: "string" } } })
  const endpoint = values["csi-endpoint"]
  const nodeName = values.node
  if (endpoint === undefined || nodeName === undefined || values.trees === undefined) {
    process.stderr.write("usage: standInNodePlugin.ts --csi-endpoint <socket path> --node <name> --trees <volume-trees.json>\n")
    process.exit(2)
  }
  const trees = (JSON.parse(readFileSync(values.trees, "utf8")) as RecordedTree[]).filter((t) => t.node === nodeName)
  const csi = ((loadPackageDefinition(loadSync(CSI_PROTO, { keepCase: true, defaults: true, oneofs: true }))["csi"] as GrpcObject)["v1"]) as GrpcObject
  const service = (name: string) => (csi[name] as ServiceClientConstructor).service
  const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`)

  const ok = (value: unknown): Handler => (_call, callback) => callback(null, value)
  const publish: Handler = (call, callback) => {
    const request = call.request as { volume_id: string; target_path: string; volume_context: Record<string, string> }
    const pod = request.volume_context["csi.storage.k8s.io/pod.name"]
    const recorded = trees.find((t) => t.persistentVolume === request.volume_id && t.pod === pod)
    if (recorded === undefined) {
      log(`publish ${request.volume_id} for ${pod}: no recorded tree`)
      callback({ code: status.FAILED_PRECONDITION, details: `no recorded upstream tree for volume ${request.volume_id} of Pod ${pod} on ${nodeName}` })
      return
    }
    try {
      rmSync(request.target_path, { recursive: true, force: true })
      mkdirSync(dirname(request.target_path), { recursive: true })
      mkdirSync(request.target_path)
      writeVolumeTree(request.target_path, recorded.tree)
      log(`published ${request.volume_id} for ${pod} at ${request.target_path}`)
      callback(null, {})
    } catch (error) {
      callback({ code: status.INTERNAL, details: `writing ${request.target_path}: ${String(error)}` })
    }
  }
  const unpublish: Handler = (call, callback) => {
    const request = call.request as { volume_id: string; target_path: string }
    rmSync(request.target_path, { recursive: true, force: true })
    log(`unpublished ${request.volume_id} at ${request.target_path}`)
    callback(null, {})
  }

  const server = new Server()
  server.addService(service("Identity"), {
    GetPluginInfo: ok({ name: CSI_DRIVER_NAME, vendor_version: "stand-in" }),
    GetPluginCapabilities: ok({ capabilities: [] }),
    Probe: ok({ ready: { value: true } })
  })
  server.addService(service("Node"), {
    NodeGetInfo: ok({ node_id: nodeName, max_volumes_per_node: 0, accessible_topology: { segments: { [TOPOLOGY_KEY_HOSTNAME]: nodeName } } }),
    NodeGetCapabilities: ok({ capabilities: [] }),
    NodePublishVolume: publish,
    NodeUnpublishVolume: unpublish
  })
  mkdirSync(dirname(endpoint), { recursive: true })
  rmSync(endpoint, { force: true })
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(`unix://${endpoint}`, ServerCredentials.createInsecure(), (error) => (error === null ? resolve() : reject(error))))
  log(`stand-in node plugin of ${nodeName} serving ${trees.length} recorded trees at ${endpoint}`)
  const stop = () => {
    server.forceShutdown()
    try {
      unlinkSync(endpoint)
    } catch {
      // already gone
    }
    process.exit(0)
  }
  process.once("SIGTERM", stop)
  process.once("SIGINT", stop)
}

if (process.argv[1] === import.meta.filename) await main()
