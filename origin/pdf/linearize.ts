// Linearization ("fast web view") by qpdf compiled to WebAssembly: MuPDF dropped its
// linearizer in 1.26. Each call gets a fresh instance, because an Emscripten heap only
// grows and a 200 MB file would otherwise pin that much for the worker's lifetime.
import { createRequire } from "node:module";
import createQpdf from "@neslinesli93/qpdf-wasm";
import type { PdfLinearize } from "../../contracts/origin/pdf-compress.ts";

// The package's own typings omit the options and the file system calls used here.
interface QpdfInstance {
  callMain(args: string[]): number;
  FS: { writeFile(path: string, data: Uint8Array): void; readFile(path: string): Uint8Array };
}
type QpdfFactory = (options: { locateFile: () => string; print: (line: string) => void; printErr: (line: string) => void }) => Promise<QpdfInstance>;

const WASM_PATH = createRequire(import.meta.url).resolve("@neslinesli93/qpdf-wasm/dist/qpdf.wasm");
// qpdf's exit codes: 0 success, 3 success with warnings (the output is written and sound).
const QPDF_OK = new Set([0, 3]);

export type LinearizeStats = PdfLinearize;

/** The same document, linearized; an encrypted one stays encrypted with the same password. */
export async function linearizePdf(input: Uint8Array, password: string | null): Promise<{ bytes: Uint8Array; stats: LinearizeStats }> {
  const started = performance.now();
  const messages: string[] = [];
  const qpdf = await (createQpdf as unknown as QpdfFactory)({
    locateFile: () => WASM_PATH,
    print: () => {},
    printErr: (line) => messages.push(line),
  });
  qpdf.FS.writeFile("/input.pdf", input);
  const args = ["--linearize", "/input.pdf", "/output.pdf"];
  if (password !== null) args.unshift(`--password=${password}`);
  let code: number;
  try {
    code = qpdf.callMain(args);
  } catch (error) {
    code = -1;
    messages.push(String(error));
  }
  if (!QPDF_OK.has(code)) {
    throw new Error(`qpdf could not linearize the output (exit ${code}): ${messages.join(" ").slice(0, 300)}`);
  }
  const bytes = qpdf.FS.readFile("/output.pdf");
  return { bytes, stats: { cpu_ms: Math.round(performance.now() - started), bytes_before: input.byteLength, bytes_after: bytes.byteLength } };
}
