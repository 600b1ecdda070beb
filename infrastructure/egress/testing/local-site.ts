import http from "node:http";
import type { AddressInfo } from "node:net";
import { fixedHostsResolver, SafeEgress, type SafeEgressOptions } from "../safe-egress";

/**
 * Test helper: a tiny HTTP server on 127.0.0.1 and a SafeEgress that reaches
 * it under a made-up public-looking name through the operator allow-list
 * (the resolver maps that name to 127.0.0.1). No test-only bypass exists in
 * SafeEgress itself.
 */

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface LocalSite {
  port: number;
  /** http://<host>:<port> for the test host name. */
  origin: string;
  /** Every request path (with query) seen, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startLocalSite(handler: Handler, host = "docs.example.test"): Promise<LocalSite> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://${host}:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A resolver for tests: a fixed table of names to addresses; unknown names fail like NXDOMAIN. */
export function tableResolver(table: Record<string, string[]>): NonNullable<SafeEgressOptions["resolver"]> {
  return fixedHostsResolver(table, async (host) => {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  });
}

/** SafeEgress reaching the local site as `host` via the allow-list. */
export function egressFor(host: string, options: SafeEgressOptions = {}): SafeEgress {
  return new SafeEgress({
    allowPrivateHosts: [host],
    resolver: tableResolver({ [host]: ["127.0.0.1"] }),
    ...options,
  });
}
