/**
 * A kubelet plugin registrar for a CSI node plugin that does not register itself (the
 * upstream operator's node plugin, or the stand-in of takeover.test.ts): it serves only
 * the kubelet's plugin-registration API for one CSI socket, the part of
 * node-driver-registrar these tests need (that sidecar cannot be had here). It reuses the
 * node role's registration endpoint (csi/registration.ts).
 *
 *   node --import tsx test/upstream/registrar.ts \
 *     --registration-dir <the node's plugins_registry, as this process sees it> \
 *     --csi-endpoint <the CSI socket path as the kubelet sees it> [--driver <name>]
 *
 * Prints `registered` once the kubelet accepted the plugin, `refused: <reason>` if not.
 */
import { Effect, Exit, Scope } from "effect"
import { parseArgs } from "node:util"
import { serveRegistration } from "../../csi/registration.ts"

/** tsx by absolute URL: a process started in a node's mount namespace begins in its root directory, not here. */
const TSX_LOADER = import.meta.resolve("tsx")

export interface RegistrarOptions {
  readonly registrationDir: string
  readonly csiEndpoint: string
  readonly driverName: string
}

/** Serve the registration socket until the returned close function is called. */
export const serveRegistrar = async (
  options: RegistrarOptions,
  onVerdict: (verdict: { registered: boolean; error: string }) => void
): Promise<() => Promise<void>> => {
  const scope = Effect.runSync(Scope.make())
  await Effect.runPromise(Scope.provide(scope)(serveRegistration({
    registrationDir: options.registrationDir,
    kubeletCsiEndpoint: options.csiEndpoint,
    driverName: options.driverName,
    onStatus: (verdict) => Effect.sync(() => onVerdict(verdict))
  })))
  return () => Effect.runPromise(Scope.close(scope, Exit.void))
}

/**
 * The command line that runs this registrar as a process of its own, e.g. inside a node's
 * namespaces (RealNode.spawn), where the kubelet's plugins_registry is at its usual path.
 */
export const registrarCommand = (options: RegistrarOptions): { readonly command: string; readonly args: ReadonlyArray<string> } => ({
  // A Node program (also when the caller runs on Deno, as the unit suite does there).
  command: "Deno" in globalThis ? "node" : process.execPath,
  args: [
    "--import", TSX_LOADER, import.meta.filename,
    "--registration-dir", options.registrationDir,
    "--csi-endpoint", options.csiEndpoint,
    "--driver", options.driverName
  ]
})

const main = async (): Promise<void> => {
  const { values } = parseArgs({
    options: {
      "registration-dir": { type: "string" },
      "csi-endpoint": { type: "string" },
      driver: { type: "string", default: "listeners.stackable.tech" }
    }
  })
  const registrationDir = values["registration-dir"]
  const csiEndpoint = values["csi-endpoint"]
  if (registrationDir === undefined || csiEndpoint === undefined) {
    process.stderr.write("usage: registrar.ts --registration-dir <dir> --csi-endpoint <socket path as the kubelet sees it> [--driver <name>]\n")
    process.exit(2)
  }
  const close = await serveRegistrar({ registrationDir, csiEndpoint, driverName: values.driver }, (verdict) => {
    process.stdout.write(verdict.registered ? "registered\n" : `refused: ${verdict.error}\n`)
  })
  process.stdout.write(`serving registration for ${values.driver} at ${registrationDir}\n`)
  const stop = () => void close().then(() => process.exit(0))
  process.once("SIGTERM", stop)
  process.once("SIGINT", stop)
}

if (process.argv[1] === import.meta.filename) await main()
