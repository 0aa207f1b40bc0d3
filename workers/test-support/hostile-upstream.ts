// A loopback HTTP server that misbehaves on purpose, for the edge tests of what a URL source or a
// remote origin does when its host fails. It speaks raw TCP, so it can do what a well-behaved
// server library will not: promise a length and close early. Started by global-origin.ts.
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";

/** What it serves, each a way for a host to fail: the URLs the edge tests are given. */
export interface HostileUpstream {
  /** Declares 4096 bytes of a PNG, sends its first 100, then closes the connection. */
  truncatedUrl: string;
  /** Reads the request and never answers. */
  silentUrl: string;
  /** https:// to this plain-HTTP server: the TLS handshake fails. */
  tlsMismatchUrl: string;
  /** A loopback port nothing listens on. */
  refusedUrl: string;
}

const TRUNCATED_PATH = "/truncated.png";
const SILENT_PATH = "/silent";

const DECLARED_BYTES = 4096;
const SENT_BYTES = 100;

function answer(socket: Socket, requestLine: string): void {
  const path = /^GET (\S+) HTTP\/1\.[01]$/.exec(requestLine)?.[1];
  if (path?.endsWith(SILENT_PATH)) return;
  // Under any prefix, so an S3 origin's bucket path reaches it too.
  if (path?.endsWith(TRUNCATED_PATH)) {
    socket.write(`HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: ${DECLARED_BYTES}\r\n\r\n`);
    socket.write(new Uint8Array(SENT_BYTES).fill(0x89), () => socket.destroy());
    return;
  }
  // Not HTTP (a TLS handshake, say) or an unknown path.
  socket.end("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

/** Listens on an ephemeral loopback port; `close` also drops the connections left hanging. */
export async function startHostileUpstream(): Promise<{ urls: HostileUpstream; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    let head = "";
    socket.on("data", (chunk) => {
      if (head.includes("\r\n")) return;
      head += chunk.toString("latin1");
      // A request line is ASCII and ends in CRLF; a TLS ClientHello is neither.
      if (head.includes("\r\n") || !/^[A-Z]/.test(head) || head.length > 8192) answer(socket, head.split("\r\n")[0]!);
    });
  });
  // Bound once to learn a free port, then released, so nothing listens there.
  const released = createServer();
  const refusedPort = await listen(released);
  await new Promise<void>((done) => released.close(() => done()));
  const port = await listen(server);
  return {
    urls: {
      truncatedUrl: `http://127.0.0.1:${port}${TRUNCATED_PATH}`,
      silentUrl: `http://127.0.0.1:${port}${SILENT_PATH}`,
      tlsMismatchUrl: `https://127.0.0.1:${port}/`,
      refusedUrl: `http://127.0.0.1:${refusedPort}/`,
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((done) => server.close(() => done()));
    },
  };
}
