// Free loopback TCP ports. There is a small window between closing the probe socket and the
// component binding the port; controlPlane.ts retries a start that lost that race.
import { createServer } from "node:net";

/** A currently free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen({ host: "127.0.0.1", port: 0, exclusive: true }, () => {
      const address = server.address();
      if (address === null || typeof address === "string") {
        server.close();
        reject(new Error("no port assigned"));
        return;
      }
      const { port } = address;
      server.close(() => resolvePort(port));
    });
  });
}

/** `n` distinct free ports. */
export async function freePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

/** Whether nothing listens on 127.0.0.1:`port` (we can bind it). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolveFree) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolveFree(false));
    server.listen({ host: "127.0.0.1", port, exclusive: true }, () => {
      server.close(() => resolveFree(true));
    });
  });
}
