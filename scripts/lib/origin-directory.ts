// `npm start`'s origin directory: the edge's ORIGIN_DIRECTORY_URL. It answers the origins listed in
// a file, one URL a line, read again on every request, so an origin started by hand joins the pool
// when its URL is added to the file, and leaves it when the line goes: the edge is not restarted.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { originDirectorySchema } from "../../contracts/origin/directory.ts";

export interface OriginDirectoryServer {
  url: string;
  close(): Promise<void>;
}

/** The URLs in an origins file: one a line, blank lines and `#` comments skipped. */
export function listedOrigins(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.replace(/#.*/, "").trim())
    .filter((line) => line !== "");
}

export function serveOriginDirectory(file: string): Promise<OriginDirectoryServer> {
  const server = createServer((_request, response) => {
    // An unreadable or invalid file is a 500 the edge shrugs off: it keeps the last list it had.
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      // a missing file lists nothing
    }
    const parsed = originDirectorySchema.safeParse({ origins: listedOrigins(text) });
    response.writeHead(parsed.success ? 200 : 500, { "Content-Type": "application/json", "Cache-Control": "no-store" });
    response.end(JSON.stringify(parsed.success ? parsed.data : { error: `${file} lists no valid origin URL` }));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}/origins`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}
