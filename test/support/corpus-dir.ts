// The real-world corpus (photos, PngSuite, PDFs from pdf.js and pypdf) lives outside the
// repository. Only `npm run test:corpus` and the benches read it, from CORPUS_DIR; the default
// suite generates its inputs (test/fixtures/).
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** CORPUS_DIR, relative paths taken from the repository root; by default ../shared/corpus. */
export const CORPUS_DIR = path.resolve(REPO_ROOT, process.env.CORPUS_DIR ?? "../shared/corpus");

/** A path inside the corpus. Throws, naming CORPUS_DIR, when the corpus or that part of it is not there. */
export function corpusPath(...relative: string[]): string {
  const target = path.join(CORPUS_DIR, ...relative);
  if (!existsSync(target)) {
    throw new Error(
      `The real-world corpus is not at ${target}. Set CORPUS_DIR to the corpus folder (holding img/ and pdf/); it defaults to ../shared/corpus beside the repository. The default suite (npm test) does not need it.`,
    );
  }
  return target;
}
