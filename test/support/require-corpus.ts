// globalSetup of the `corpus` vitest project: without the corpus the run stops here with the
// reason, instead of every test failing on its first read (or, worse, passing with nothing read).
import { corpusPath } from "./corpus-dir.ts";

export default function requireCorpus() {
  corpusPath("img");
  corpusPath("pdf");
}
