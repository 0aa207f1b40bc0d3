// A loopback HTTP proxy between the edge and the origin that misbehaves on request: while a fault
// is set, every second compute call is delayed, reset, or answered with a corrupted or truncated
// framed reply. A dead origin behind it shows up at the edge as a reset connection.
import { createHash } from "node:crypto";
import { createServer, request, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { FRAMED_CONTENT_TYPE } from "../../contracts/origin/framing.ts";

export type ProxyFault = "delay" | "reset" | "corrupt" | "truncate";

const DELAY_MS = 2_500;

export interface FaultProxy {
  url: string;
  setFault(fault: ProxyFault | null): void;
  /** SHA-256 (hex) of every output payload the proxy corrupted: none of them may ever be stored or delivered. */
  corruptedPayloads: Set<string>;
  injected: Record<ProxyFault, number>;
  close(): Promise<void>;
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.once("end", () => resolve(Buffer.concat(chunks)));
    stream.once("error", reject);
  });
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const targetUrl = new URL(target);
  let fault: ProxyFault | null = null;
  let computeCalls = 0;
  const corruptedPayloads = new Set<string>();
  const injected: Record<ProxyFault, number> = { delay: 0, reset: 0, corrupt: 0, truncate: 0 };

  const server = createServer((req, res) => {
    const isCompute = req.method === "POST";
    const applied = fault !== null && isCompute && ++computeCalls % 2 === 0 ? fault : null;
    if (applied === "reset") {
      injected.reset++;
      req.socket.destroy();
      return;
    }
    const forward = () => {
      const upstream = request(
        { host: targetUrl.hostname, port: targetUrl.port, method: req.method, path: req.url, headers: { ...req.headers, host: targetUrl.host }, agent: false },
        (reply) =>
          void (async () => {
            const framed = reply.statusCode === 200 && reply.headers["content-type"] === FRAMED_CONTENT_TYPE;
            if (!framed || (applied !== "corrupt" && applied !== "truncate")) {
              res.writeHead(reply.statusCode ?? 502, reply.headers);
              reply.pipe(res);
              return;
            }
            let body: Buffer;
            try {
              body = await readAll(reply);
            } catch {
              res.destroy();
              return;
            }
            res.writeHead(200, reply.headers);
            const payloadStart = 4 + body.readUInt32BE(0);
            if (applied === "truncate") {
              injected.truncate++;
              res.write(body.subarray(0, payloadStart + Math.floor((body.length - payloadStart) / 2)));
              res.destroy();
              return;
            }
            if (body.length > payloadStart) {
              const corrupted = Buffer.from(body);
              const at = payloadStart + Math.floor((body.length - payloadStart) / 2);
              corrupted[at] = corrupted[at]! ^ 0x5a;
              injected.corrupt++;
              corruptedPayloads.add(createHash("sha256").update(corrupted.subarray(payloadStart)).digest("hex"));
              body = corrupted;
            }
            res.end(body);
          })(),
      );
      // The origin is down or died mid-reply: the edge sees its connection cut, as it would.
      upstream.once("error", () => res.destroy());
      req.pipe(upstream);
    };
    if (applied === "delay") {
      injected.delay++;
      setTimeout(forward, DELAY_MS);
    } else {
      forward();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setFault(next) {
      fault = next;
    },
    corruptedPayloads,
    injected,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
