// Produces compress outputs for one request. The first run works on the document
// the refusals were checked on; a size target or verify_quality may need more
// runs at other targets, each on a freshly opened copy of the input (the first
// one's image streams are already replaced). All runs share one encode cache and
// the image facts of the first, so a later run decodes and encodes only what changed.
import type * as mupdf from "mupdf";
import type { PdfWarning } from "../../contracts/origin/pdf-compress.ts";
import type { PdfCompressOptions } from "../../contracts/pdf-options.ts";
import { removeConformanceClaims } from "./conformance.ts";
import { isDocumentProblem } from "./document-problem.ts";
import { inspectImages } from "./image-facts.ts";
import type { ImageFacts } from "./image-facts.ts";
import { factsAfterJbig2, Jbig2Images } from "./jbig2-images.ts";
import type { Jbig2Stats } from "./jbig2-images.ts";
import { openPdf } from "./open-pdf.ts";
import { resolveImageTargets } from "./profiles.ts";
import type { ImageTargets } from "./profiles.ts";
import { encodeRewrites, newEncodeCache, rewriteImages } from "./rewrite-images.ts";
import type { EncodedRewrites, EncodeCache, ImageOverride } from "./rewrite-images.ts";
import { recompressFlateStreams } from "./recompress-flate.ts";
import { saveOptions } from "./save-options.ts";
import { stripDocument } from "./strip-document.ts";

export interface ProducedOutput {
  bytes: Uint8Array;
  rewrites: EncodedRewrites;
  targets: ImageTargets;
  jbig2: Jbig2Stats | null;
}

export interface OutputRunSettings {
  input: Uint8Array;
  options: PdfCompressOptions;
  password: string | null;
  encrypted: boolean;
  breaksConformance: boolean;
  warnings: PdfWarning[];
}

const NO_OVERRIDES: ReadonlyMap<number, ImageOverride> = new Map();

export class OutputRuns {
  readonly cache: EncodeCache = newEncodeCache();
  /** Full document saves so far: the expensive step a size search avoids. */
  saves = 0;
  private readonly settings: OutputRunSettings;
  private facts: Map<number, ImageFacts> | null = null;
  private readonly jbig2: Jbig2Images;
  /** zlib's best level for each Flate content seen so far, reused by every later run. */
  private readonly flateStreams = new Map<string, Uint8Array>();

  constructor(settings: OutputRunSettings) {
    this.settings = settings;
    const targets = resolveImageTargets(settings.options);
    this.jbig2 = new Jbig2Images(settings.options.jbig2, { dpi: targets.bilevelDpi, threshold: targets.downsampleThreshold });
  }

  async first(doc: mupdf.PDFDocument, targets: ImageTargets): Promise<ProducedOutput> {
    this.prepare(doc);
    this.facts = inspectImages(doc);
    return this.produce(doc, targets, NO_OVERRIDES);
  }

  async again(targets: ImageTargets, overrides: ReadonlyMap<number, ImageOverride> = NO_OVERRIDES): Promise<ProducedOutput> {
    return this.withFreshCopy(async (doc) => {
      this.prepare(doc);
      return this.produce(doc, targets, overrides);
    });
  }

  /** Encodes at other targets without saving: what the images would weigh. Runs on one fresh copy. */
  async sizer<T>(fn: (imageBytesAt: (targets: ImageTargets) => Promise<number>) => Promise<T>): Promise<T> {
    return this.withFreshCopy((doc) => fn(async (targets) => (await encodeRewrites(doc, this.rewriterFacts(), targets, this.cache)).imageBytes));
  }

  /** Opens the given bytes (an output of this request), lets fn edit it, and saves it like every output. */
  async resave(bytes: Uint8Array, fn: (doc: mupdf.PDFDocument) => Promise<void>): Promise<Uint8Array> {
    const { doc } = openPdf(bytes, this.settings.password);
    try {
      await fn(doc);
      return this.save(doc);
    } finally {
      doc.destroy();
    }
  }

  private imageFacts(): Map<number, ImageFacts> {
    if (this.facts === null) throw new Error("the first run has not inspected the images yet");
    return this.facts;
  }

  /** The image facts without the images the JBIG2 pass converted, which the rewriter must keep. */
  private rewriterFacts(): Map<number, ImageFacts> {
    return factsAfterJbig2(this.imageFacts(), this.jbig2.converted());
  }

  private async withFreshCopy<T>(fn: (doc: mupdf.PDFDocument) => Promise<T>): Promise<T> {
    const { doc } = openPdf(this.settings.input, this.settings.password);
    try {
      return await fn(doc);
    } finally {
      doc.destroy();
    }
  }

  private prepare(doc: mupdf.PDFDocument): void {
    if (this.settings.breaksConformance) removeConformanceClaims(doc);
    stripDocument(doc, this.settings.options.strip);
  }

  private async produce(doc: mupdf.PDFDocument, targets: ImageTargets, overrides: ReadonlyMap<number, ImageOverride>): Promise<ProducedOutput> {
    const jbig2 = this.jbig2.apply(doc, this.imageFacts());
    const rewrites = await rewriteImages(doc, this.rewriterFacts(), targets, this.cache, overrides);
    if (this.settings.options.fonts.subset) this.subsetFonts(doc);
    await recompressFlateStreams(doc, "zlib", this.flateStreams);
    return { bytes: this.save(doc), rewrites, targets, jbig2 };
  }

  private subsetFonts(doc: mupdf.PDFDocument): void {
    try {
      doc.subsetFonts();
    } catch (error) {
      if (!isDocumentProblem(error)) throw error;
      if (!this.settings.warnings.some((warning) => warning.code === "fonts_not_subset")) {
        this.settings.warnings.push({ code: "fonts_not_subset", detail: "Some fonts could not be subset and were kept whole." });
      }
    }
  }

  private save(doc: mupdf.PDFDocument): Uint8Array {
    const saved = doc.saveToBuffer(saveOptions(this.settings.options, this.settings.encrypted, doc.countObjects()));
    this.saves++;
    try {
      return saved.asUint8Array().slice();
    } finally {
      saved.destroy();
    }
  }
}
