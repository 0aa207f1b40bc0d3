import fs from "node:fs";
import path from "node:path";
import { corpusPath } from "../../test/support/corpus-dir.ts";

export interface CorpusFile {
  name: string;
  path: string;
  bytes: Uint8Array;
  password: string | null;
}

export const CORPUS_DIR = corpusPath("pdf");

// The password of py-pdf/sample-files 005-libreoffice-writer-password, as its README
// documents (origin/pdf/corpus.test.ts opens the same file with it).
const PASSWORDS: Record<string, string> = { "pypdf_encrypted_userpw.pdf": "openpassword" };

export function readCorpus(): CorpusFile[] {
  return fs
    .readdirSync(CORPUS_DIR)
    .filter((name) => name.endsWith(".pdf"))
    .sort()
    .map((name) => {
      const file = path.join(CORPUS_DIR, name);
      return { name, path: file, bytes: new Uint8Array(fs.readFileSync(file)), password: PASSWORDS[name] ?? null };
    });
}
