/**
 * A TCP proxy on loopback between one client (the controller) and the API server, which a
 * test can cut: every open connection is destroyed and new ones are refused until it is
 * restored. TLS passes through untouched (the serving certificate names 127.0.0.1, the port
 * does not matter), so the client sees exactly what a network partition looks like.
 */
import { createConnection, createServer, type Socket } from "node:net";

export interface CuttableProxy {
  /** `https://127.0.0.1:<port>` */
  readonly url: string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startCuttableProxy(target: URL): Promise<CuttableProxy> {
  const open = new Set<Socket>();
  let isCut = false;
  const server = createServer((client) => {
    if (isCut) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("close", () => open.delete(socket));
      socket.on("error", () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("proxy has no port");
  return {
    url: `https://127.0.0.1:${address.port}`,
    cut: () => {
      isCut = true;
      for (const socket of open) socket.destroy();
    },
    restore: () => {
      isCut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      })
  };
}
