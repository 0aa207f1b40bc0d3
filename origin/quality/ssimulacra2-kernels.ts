// The WebAssembly kernels of SSIMULACRA 2 (assembly/ssimulacra2-kernels.ts, compiled to
// ssimulacra2-kernels.wasm) and the rows they work on, which live in the kernels' memory: one
// instance per thread, its memory sized for the widest image scored so far (about 1.4 KB a column,
// whatever the height: a score's planes stay in JavaScript and its rows are copied in).
import { readFileSync } from "node:fs";
import type { RawImage } from "./raw-image.ts";
import { M20, M21, M22, OPSIN_BIAS, OPSIN_BIAS_CBRT, SRGB_TO_LINEAR, gaussian, type LinearImage } from "./ssimulacra2-parameters.ts";

export const RADIUS = gaussian.radius;
/** Rows the vertical pass needs around its output row, kept as rings. */
export const RING = 2 * RADIUS + 1;

interface KernelExports {
  configure(n1: number, n3: number, n5: number, d1: number, d3: number, d5: number, radius: number, srgb: number, bias: number, biasCbrt: number, shortRed: number, shortGreen: number, shortBlue: number, fused: number): void;
  fusesMultiplyAdd(a: number, c: number): number;
  reservedSize(): number;
  linearRow(bytes: number, channels: number, background: number, width: number, red: number, green: number, blue: number): void;
  toPositiveXyb(red: number, green: number, blue: number, x: number, y: number, b: number, width: number, withB: number): void;
  accumulateHalf(half: number, row: number, y: number, width: number, height: number): void;
  blurColumns(upper: number, lower: number, state: number, output: number, width: number, row: number): void;
  blurCandidateRow(a: number, b: number, means: number, squares: number, crosses: number, width: number, inputs: number): void;
  blurReferenceRows(first: number, second: number, firstMeans: number, firstSquares: number, secondMeans: number, secondSquares: number, width: number, inputs: number): void;
  blurCandidateColumns(
    upperMeans: number, upperSquares: number, upperCrosses: number,
    lowerMeans: number, lowerSquares: number, lowerCrosses: number,
    state: number, width: number,
    referenceXyb: number, referenceMeans: number, referenceSquares: number, candidateXyb: number,
    sums: number, accumulate: number, row: number, scratch: number,
  ): void;
}

// Node compiles WebAssembly from bytes; the Workers types the tree also loads declare Module
// without that constructor (workerd forbids it), so the constructor is typed here.
const { Module: CompiledModule } = WebAssembly as unknown as { Module: new (bytes: Uint8Array) => WebAssembly.Module };
const wasmModule = new CompiledModule(readFileSync(new URL("./ssimulacra2-kernels.wasm", import.meta.url)));

const PAGE = 65536;
// sRGB's decoding table at the start of the kernels' memory, then what the kernels keep after it
// (their constants and the XYB conversion's scratch: `reservedSize()` bytes, declared there),
// before every workspace.
const SRGB_AT = 0;

/** A region of the kernels' memory: its byte offset for the kernels and a view for JavaScript. */
export interface Region<View extends Float32Array | Float64Array> {
  at: number;
  view: View;
}

/** Three rows, one per channel. */
export type RowTriple = [Region<Float32Array>, Region<Float32Array>, Region<Float32Array>];

/** Per XYB channel of a candidate: the rings and state the two passes need, and its six sums. */
export interface ChannelWorkspace {
  /** The reference's XYB rows, as a ring (the horizontal pass reads row y + r - 1, the SSIM row y). */
  referenceXyb: Region<Float32Array>;
  referenceMean: Region<Float32Array>;
  referenceSquare: Region<Float32Array>;
  /** Horizontally blurred rings of b, b*b and a*b. */
  across: RowTriple;
  /** Per column the vertical filters' last two outputs of each quantity (18 floats a column). */
  state: Region<Float32Array>;
  sums: Region<Float64Array>;
  /** The reference's side when computed here (prepared, or streamed beside a candidate): horizontally blurred rings of its values and squares, the vertical filters' states (6 floats a column each), the output rows, and a row the horizontal pass writes and nothing reads. */
  referenceAcross: [Region<Float32Array>, Region<Float32Array>];
  referenceState: [Region<Float32Array>, Region<Float32Array>];
  referenceBlurred: [Region<Float32Array>, Region<Float32Array>];
  referenceScratch: Region<Float32Array>;
}

/** Every row buffer of one score, for images up to `width` wide; a narrower scale uses their starts. */
export interface Workspace {
  kernels: KernelExports;
  width: number;
  /** The candidate's linear rows. */
  rows: RowTriple;
  /** A row pair's share of the next scale, while it accumulates. */
  halves: RowTriple;
  /** The candidate's XYB rings. */
  xyb: RowTriple;
  channels: [ChannelWorkspace, ChannelWorkspace, ChannelWorkspace];
  /** Linear and XYB rows for the reference's side (prepared or streamed beside a candidate). */
  referenceRows: RowTriple;
  referenceConverted: RowTriple;
  /** Scratch for the kernels: the horizontal pass's inputs, then its outputs (4 floats a column and radius); the vertical pass's blurred row (3 floats a column). */
  kernelScratch: Region<Float32Array>;
  /** A row of zeros: the image's outside, for the vertical passes. */
  zeros: Region<Float32Array>;
  /** One row of an image's bytes. */
  bytes: { at: number; view: Uint8Array };
}

let instance: ReturnType<typeof instantiate> | null = null;
let current: Workspace | null = null;
let hardwareFuses = false;
let emulateMultiplyAdd = false;

function configure(instance: KernelExports): void {
  const f32 = Math.fround;
  const [n1, n3, n5] = gaussian.n2.map(f32) as [number, number, number];
  const [d1, d3, d5] = gaussian.d1.map(f32) as [number, number, number];
  const fused = hardwareFuses && !emulateMultiplyAdd;
  instance.configure(n1, n3, n5, d1, d3, d5, RADIUS, SRGB_AT, OPSIN_BIAS, OPSIN_BIAS_CBRT, M20, M21, M22, fused ? 1 : 0);
}

/**
 * How the kernels' filter steps round once per multiply-add: with the processor's fused
 * instruction, or emulated in double lanes where it has none (slower, the same scores). The
 * tests force the emulated form to check that the two agree.
 */
export function multiplyAddForm(): "fused" | "emulated" {
  workspaceFor(8);
  return hardwareFuses && !emulateMultiplyAdd ? "fused" : "emulated";
}

export function forceEmulatedMultiplyAdd(emulated: boolean): void {
  emulateMultiplyAdd = emulated;
  configure(workspaceFor(8).kernels);
}

/**
 * The workspace for images up to `width` wide, its memory grown when a wider image comes. A
 * workspace is valid until the next call with a greater width (growing the memory detaches its
 * views); scores on one thread run one at a time, each asking once at its start.
 */
export function workspaceFor(width: number): Workspace {
  if (current !== null && current.width >= width) return current;
  const { memory, kernels, tablesEnd } = (instance ??= instantiate());
  const layout = new Layout(tablesEnd);
  const plan = () => {
    const row = () => layout.floats(width);
    const ring = () => layout.floats(RING * width);
    const triple = (make: () => Region<Float32Array>): RowTriple => [make(), make(), make()];
    const channel = (): ChannelWorkspace => ({
      referenceXyb: ring(),
      referenceMean: row(),
      referenceSquare: row(),
      across: triple(ring),
      // Whole groups of four columns.
      state: layout.floats(18 * (width + 4)),
      sums: layout.doubles(6),
      referenceAcross: [ring(), ring()],
      referenceState: [layout.floats(6 * (width + 4)), layout.floats(6 * (width + 4))],
      referenceBlurred: [row(), row()],
      referenceScratch: row(),
    });
    return {
      rows: triple(row),
      halves: triple(row),
      xyb: triple(ring),
      channels: [channel(), channel(), channel()] as [ChannelWorkspace, ChannelWorkspace, ChannelWorkspace],
      referenceRows: triple(row),
      referenceConverted: triple(row),
      kernelScratch: layout.floats(4 * (width + RADIUS)),
      zeros: row(),
      bytes: layout.bytes(4 * width),
    };
  };
  plan();
  const bytes = layout.end;
  if (memory.buffer.byteLength < bytes) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE));
  layout.reset(memory.buffer);
  current = { kernels, width, ...plan() };
  current.zeros.view.fill(0);
  return current;
}

/** The kernels on one page of memory, their sRGB table written and their constants configured; workspaces grow the memory. */
function instantiate(): { memory: WebAssembly.Memory; kernels: KernelExports; tablesEnd: number } {
  const memory = new WebAssembly.Memory({ initial: 1 });
  const kernels = new WebAssembly.Instance(wasmModule, { env: { memory } }).exports as unknown as KernelExports;
  const tablesEnd = SRGB_AT + SRGB_TO_LINEAR.byteLength + kernels.reservedSize();
  if (tablesEnd > PAGE) throw new Error(`the kernels' tables (${tablesEnd} bytes) do not fit their first page`);
  new Float32Array(memory.buffer, SRGB_AT, SRGB_TO_LINEAR.length).set(SRGB_TO_LINEAR);
  hardwareFuses = kernels.fusesMultiplyAdd(1 + 2 ** -13, -(1 + 2 ** -12)) !== 0;
  configure(kernels);
  return { memory, kernels, tablesEnd };
}

/** Hands out 16-byte-aligned regions one after another from `start`, with 16 bytes of slack after each (a two-lane kernel may read one value past a row). */
class Layout {
  readonly #start: number;
  #end: number;
  #buffer: ArrayBuffer | null = null;

  constructor(start: number) {
    this.#start = start;
    this.#end = start;
  }

  get end(): number {
    return this.#end;
  }

  reset(buffer: ArrayBuffer): void {
    this.#end = this.#start;
    this.#buffer = buffer;
  }

  floats(count: number): Region<Float32Array> {
    const at = this.#take(count * 4);
    return { at, view: this.#buffer === null ? new Float32Array(0) : new Float32Array(this.#buffer, at, count) };
  }

  doubles(count: number): Region<Float64Array> {
    const at = this.#take(count * 8);
    return { at, view: this.#buffer === null ? new Float64Array(0) : new Float64Array(this.#buffer, at, count) };
  }

  bytes(count: number): { at: number; view: Uint8Array } {
    const at = this.#take(count);
    return { at, view: this.#buffer === null ? new Uint8Array(0) : new Uint8Array(this.#buffer, at, count) };
  }

  #take(bytes: number): number {
    const at = Math.ceil(this.#end / 16) * 16;
    this.#end = at + bytes + 16;
    return at;
  }
}

/**
 * An image's rows in linear light (a pixel not opaque over a dark, 0, or light, 1, page), decoded
 * by the kernels; the rows it fills must be views of a workspace.
 */
export function linearRows(image: RawImage, background: number): LinearImage {
  const { data, width, height, channels } = image;
  if (data.length !== width * height * channels) throw new RangeError(`expected ${width * height * channels} bytes for ${width}x${height}x${channels}, got ${data.length}`);
  const rowBytes = width * channels;
  return {
    width,
    height,
    readRow(y, red, green, blue) {
      const workspace = workspaceFor(width);
      workspace.bytes.view.set(data.subarray(y * rowBytes, (y + 1) * rowBytes));
      workspace.kernels.linearRow(workspace.bytes.at, channels, background, width, offsetOf(red), offsetOf(green), offsetOf(blue));
    },
  };
}

function offsetOf(view: Float32Array): number {
  if (view.buffer !== instance?.memory.buffer) throw new Error("a kernel's row must be a view of the kernels' memory");
  return view.byteOffset;
}
