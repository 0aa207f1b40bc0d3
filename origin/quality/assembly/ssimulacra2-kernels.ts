// AssemblyScript, compiled to ../ssimulacra2-kernels.wasm by `npm run build:kernels`
// (ssimulacra2-kernels.test.ts rebuilds it and fails when the committed binary differs). The hot
// loops of SSIMULACRA 2 (../ssimulacra2.ts drives them row by row): sRGB bytes to linear light,
// the XYB conversion, the horizontal and vertical passes of the recursive Gaussian (over a
// reference's values and squares, and over a candidate's b, b*b and a*b), and the SSIM and edge
// terms against the reference's cached side.
//
// The Gaussian's passes and the SSIM and edge terms run in single precision, four lanes at a time
// (f32x4), as the published implementations compute; the XYB conversion keeps double precision
// until it rounds (below). The filters' poles lie on the unit circle, so each step's rounding
// error stays in the row for good, and the scores follow that rounding closely (see the quality
// README): a filter step must round where the Rust code behind calc-s2-rust rounds, which is once
// per fused multiply-add (Rust's mul_add). Rounding the product separately moved scores by up to
// 2.5. Wasm's relaxed SIMD multiply-add fuses where the processor has FMA (x86-64 since 2013, every
// arm64); where it does not, `configure` is told so and the kernels take their emulated form,
// which computes each multiply-add in double lanes (the product of two single-precision values is
// exact there) and rounds once, with the same scores. Each kernel is generic over that choice:
// `Fused` is f32 for the hardware multiply-add and f64 for the emulated one, decided at compile time.
//
// All arguments are byte offsets into the memory the caller imports; nothing is allocated here.

// Every constant vector of the kernels, at `constants` (after the sRGB table), 16 bytes each:
// loaded rather than written as splats or literals, because V8 recomputes those inside the loop
// that uses them, three instructions for a double literal, where a loaded one stays in a register
// or is reloaded by one.
let constants: usize = 0;
// The Gaussian's numerators and denominators, then the denominators negated (single precision).
const N1 = 0, N3 = 16, N5 = 32, D1 = 48, D3 = 64, D5 = 80, NEGATED_D1 = 96, NEGATED_D3 = 112, NEGATED_D5 = 128;
// The XYB conversion's (double precision): the three opsin mixes' weights of red, green and blue,
// the mixes' bias and its cube root, and the numbers of the conversion's formulas.
const LONG_RED = 144, LONG_GREEN = 160, LONG_BLUE = 176, MEDIUM_RED = 192, MEDIUM_GREEN = 208, MEDIUM_BLUE = 224;
const SHORT_RED = 240, SHORT_GREEN = 256, SHORT_BLUE = 272, OPSIN_BIAS = 288, OPSIN_BIAS_CBRT = 304;
const HALF = 320, Y_SHIFT = 336, B_SHIFT = 352, TWO = 368;
// The cube root's first guess (single precision; KAHAN_BIAS an integer), and the sign bit of four
// single-precision lanes, for the vertical filters' negation by bits (V8's f32x4.neg fetches the
// address of a constant of its own every time).
const THIRD = 384, KAHAN_BIAS = 400, TWO_SINGLE = 416, SIGN_BITS = 432;
const CONSTANTS_SIZE = 448;
// After the constants, the XYB conversion's scratch: its three opsin mixes of XYB_CHUNK pixels, as doubles.
const XYB_CHUNK = 256;
const LONG_MIXES = CONSTANTS_SIZE, MEDIUM_MIXES = LONG_MIXES + XYB_CHUNK * 8, SHORT_MIXES = MEDIUM_MIXES + XYB_CHUNK * 8;
/** Bytes after the sRGB table: the constants and the XYB scratch. */
const RESERVED_SIZE = SHORT_MIXES + XYB_CHUNK * 8;
let RADIUS: i32 = 0;
let FUSED: bool = true;
// sRGB's decoding (256 floats).
let srgbTable: usize = 0;

const C2: f32 = 0.0009;

/** Takes the constants the JavaScript side computes (its Gaussian and opsin numbers), so both sides use the same numbers, and whether the multiply-add fuses. Its constants and scratch take RESERVED_SIZE bytes after the sRGB table. */
export function configure(n1: f32, n3: f32, n5: f32, d1: f32, d3: f32, d5: f32, radius: i32, srgb: usize, bias: f64, biasCbrt: f64, shortRed: f64, shortGreen: f64, shortBlue: f64, fused: bool): void {
  constants = srgb + 1024;
  storeSingles(N1, n1);
  storeSingles(N3, n3);
  storeSingles(N5, n5);
  storeSingles(D1, d1);
  storeSingles(D3, d3);
  storeSingles(D5, d5);
  storeSingles(NEGATED_D1, -d1);
  storeSingles(NEGATED_D3, -d3);
  storeSingles(NEGATED_D5, -d5);
  storeDoubles(LONG_RED, 0.3);
  storeDoubles(LONG_GREEN, 0.622);
  storeDoubles(LONG_BLUE, 0.078);
  storeDoubles(MEDIUM_RED, 0.23);
  storeDoubles(MEDIUM_GREEN, 0.692);
  storeDoubles(MEDIUM_BLUE, 0.078);
  storeDoubles(SHORT_RED, shortRed);
  storeDoubles(SHORT_GREEN, shortGreen);
  storeDoubles(SHORT_BLUE, shortBlue);
  storeDoubles(OPSIN_BIAS, bias);
  storeDoubles(OPSIN_BIAS_CBRT, biasCbrt);
  storeDoubles(HALF, 0.5);
  storeDoubles(Y_SHIFT, 0.05);
  storeDoubles(B_SHIFT, 1.1);
  storeDoubles(TWO, 2);
  storeSingles(THIRD, <f32>(1.0 / 3));
  v128.store(constants + KAHAN_BIAS, i32x4.splat(709958130));
  storeSingles(TWO_SINGLE, 2);
  v128.store(constants + SIGN_BITS, i32x4.splat(0x80000000));
  RADIUS = radius;
  srgbTable = srgb;
  FUSED = fused;
}

/** The bytes the kernels take after the sRGB table (constants and scratch). */
export function reservedSize(): i32 {
  return RESERVED_SIZE;
}

function storeSingles(offset: usize, value: f32): void {
  v128.store(constants + offset, f32x4.splat(value));
}

function storeDoubles(offset: usize, value: f64): void {
  v128.store(constants + offset, f64x2.splat(value));
}

// @ts-ignore: decorator
@inline
function constant(offset: usize): v128 {
  return v128.load(constants + offset);
}

/** Whether relaxed SIMD's multiply-add rounds once here: a * a + c for a = 1 + 2^-13, c = -(1 + 2^-12) is 2^-26 fused and 0 otherwise (the operands come from the caller so that nothing folds it at compile time). */
export function fusesMultiplyAdd(a: f32, c: f32): bool {
  return f32x4.extract_lane(f32x4.relaxed_madd(f32x4.splat(a), f32x4.splat(a), f32x4.splat(c)), 0) != 0;
}

// a * b + c in four single-precision lanes, rounded once.
// @ts-ignore: decorator
@inline
function madd<Fused>(a: v128, b: v128, c: v128): v128 {
  if (sizeof<Fused>() == 4) return f32x4.relaxed_madd(a, b, c);
  const low = f64x2.add(f64x2.mul(f64x2.promote_low_f32x4(a), f64x2.promote_low_f32x4(b)), f64x2.promote_low_f32x4(c));
  const high = f64x2.add(f64x2.mul(f64x2.promote_low_f32x4(upperHalf(a)), f64x2.promote_low_f32x4(upperHalf(b))), f64x2.promote_low_f32x4(upperHalf(c)));
  return v128.shuffle<u32>(f32x4.demote_f64x2_zero(low), f32x4.demote_f64x2_zero(high), 0, 1, 4, 5);
}

// @ts-ignore: decorator
@inline
function upperHalf(value: v128): v128 {
  return v128.shuffle<u32>(value, value, 2, 3, 0, 1);
}

/** A row of 8-bit sRGB (3 or 4 channels) to linear rows; a pixel not opaque is laid over a `background` page (0 dark, 1 light). */
export function linearRow(bytes: usize, channels: i32, background: f64, width: i32, red: usize, green: usize, blue: usize): void {
  // The table's offset in a local: V8 reloads a global at every use.
  const table = srgbTable;
  if (channels == 3) {
    opaqueLinearRow(bytes, table, width, red, green, blue);
    return;
  }
  for (let x = 0; x < width; x++) {
    const i = bytes + (<usize>x << 2);
    const at = <usize>x << 2;
    const r = load<f32>(table + (<usize>load<u8>(i) << 2));
    const g = load<f32>(table + (<usize>load<u8>(i, 1) << 2));
    const b = load<f32>(table + (<usize>load<u8>(i, 2) << 2));
    if (load<u8>(i, 3) != 255) {
      const alpha = <f64>load<u8>(i, 3) / 255;
      const under = background * (1 - alpha);
      store<f32>(red + at, <f32>(<f64>r * alpha + under));
      store<f32>(green + at, <f32>(<f64>g * alpha + under));
      store<f32>(blue + at, <f32>(<f64>b * alpha + under));
    } else {
      store<f32>(red + at, r);
      store<f32>(green + at, g);
      store<f32>(blue + at, b);
    }
  }
}

// linearRow of three channels, every pixel opaque.
// @ts-ignore: decorator
@inline
function opaqueLinearRow(bytes: usize, table: usize, width: i32, red: usize, green: usize, blue: usize): void {
  let i = bytes;
  const end = <usize>width << 2;
  for (let at: usize = 0; at < end; at += 4, i += 3) {
    store<f32>(red + at, load<f32>(table + (<usize>load<u8>(i) << 2)));
    store<f32>(green + at, load<f32>(table + (<usize>load<u8>(i, 1) << 2)));
    store<f32>(blue + at, load<f32>(table + (<usize>load<u8>(i, 2) << 2)));
  }
}

/**
 * Adds linear row y's share to its row of the next scale's 2x2 box average, `half` ((width + 1) / 2
 * floats, restarted from zero on an even row): a quarter, or a half on an odd last row, an odd last
 * column counting twice, as if the edge were repeated. Each half-row value takes its two columns
 * in turn, rounded after each; four half-row values at a time.
 */
export function accumulateHalf(half: usize, row: usize, y: i32, width: i32, height: i32): void {
  const weight = f32x4.splat((height & 1) == 1 && y == height - 1 ? 0.5 : 0.25);
  const fresh = (y & 1) == 0;
  const pairs = width >> 1;
  let j = 0;
  for (; j + 4 <= pairs; j += 4) {
    const at = half + (<usize>j << 2);
    const from = row + (<usize>j << 3);
    const first = v128.load(from);
    const second = v128.load(from, 16);
    const even = f32x4.mul(v128.shuffle<u32>(first, second, 0, 2, 4, 6), weight);
    const odd = f32x4.mul(v128.shuffle<u32>(first, second, 1, 3, 5, 7), weight);
    const value = fresh ? even : f32x4.add(v128.load(at), even);
    v128.store(at, f32x4.add(value, odd));
  }
  const w = f32x4.extract_lane(weight, 0);
  for (; j < pairs; j++) {
    const at = half + (<usize>j << 2);
    const from = row + (<usize>j << 3);
    const even = load<f32>(from) * w;
    const value = fresh ? even : load<f32>(at) + even;
    store<f32>(at, value + load<f32>(from, 4) * w);
  }
  if ((width & 1) == 1) {
    const at = half + (<usize>pairs << 2);
    const last = load<f32>(row + (<usize>(width - 1) << 2)) * w;
    const value = fresh ? last : load<f32>(at) + last;
    store<f32>(at, value + last);
  }
}

// The first `count` (1 to 4) lanes of `value` to `at`: a row's last group of columns, which must
// not write into whatever follows the row (the next row of a ring).
// @ts-ignore: decorator
@inline
function storeLanes(at: usize, value: v128, count: i32): void {
  if (count >= 4) {
    v128.store(at, value);
    return;
  }
  v128.store32_lane(at, value, 0);
  if (count > 1) v128.store32_lane(at, value, 1, 4);
  if (count > 2) v128.store32_lane(at, value, 2, 8);
}

/**
 * The horizontal pass over one row of `a` (the reference's XYB) and `b` (the candidate's) into
 * rows of blurred b, b*b and a*b, one lane each; with `a` and `b` the same row and `crosses` a
 * scratch row, the reference's values and squares. Each lane's three filters are a chain along
 * the row: f32(f32(f32(n * input) - before) - d * last), the last product fused. `inputs` holds
 * 4 * (width + radius) floats of scratch: each step's input, computed beforehand, then its output.
 */
export function blurCandidateRow(a: usize, b: usize, means: usize, squares: usize, crosses: usize, width: i32, inputs: usize): void {
  const steps = width + RADIUS - 1;
  stepInputs(a, b, width, steps, inputs);
  if (FUSED) blurRowWith<f32>(inputs, steps);
  else blurRowWith<f64>(inputs, steps);
  splitOutputs(inputs + (<usize>(RADIUS - 1) << 4), means, squares, crosses, 0, width);
}

/**
 * The reference's horizontal pass for two channels' rows at once, `first` and `second`, into their
 * rows of blurred values and squares: lanes first's value and square, then second's, each
 * computed as blurCandidateRow's b and b*b lanes with `a` the same row (the same numbers, where
 * that pass spent a lane on a*b and one on nothing). `inputs` as for blurCandidateRow.
 */
export function blurReferenceRows(first: usize, second: usize, firstMeans: usize, firstSquares: usize, secondMeans: usize, secondSquares: usize, width: i32, inputs: usize): void {
  const steps = width + RADIUS - 1;
  referenceStepInputs(first, second, width, steps, inputs);
  if (FUSED) blurRowWith<f32>(inputs, steps);
  else blurRowWith<f64>(inputs, steps);
  splitOutputs(inputs + (<usize>(RADIUS - 1) << 4), firstMeans, firstSquares, secondMeans, secondSquares, width);
}

// Each step's input for blurReferenceRows: as stepInputs's, with lanes first's value and square, then second's.
function referenceStepInputs(first: usize, second: usize, width: i32, steps: i32, inputs: usize): void {
  const reach = RADIUS << 1;
  const leftOutside = min(reach, steps);
  let k = 0;
  for (; k < leftOutside; k++) referenceStepInput(first, second, width, reach, k, inputs);
  const left = <usize>reach << 2;
  for (; k + 4 <= width; k += 4) {
    const at = <usize>k << 2;
    const firstLeft = v128.load(first + at - left), firstRight = v128.load(first + at);
    const secondLeft = v128.load(second + at - left), secondRight = v128.load(second + at);
    storeTransposed(inputs + (<usize>k << 4), pairSum(firstLeft, firstRight), pairSquares(firstLeft, firstRight), pairSum(secondLeft, secondRight), pairSquares(secondLeft, secondRight));
  }
  for (; k < steps; k++) referenceStepInput(first, second, width, reach, k, inputs);
}

// A step's lanes from its left and right samples, four steps at a time: their sum, the sum of their
// squares, and the sum of their products with the other image's (a * b); each rounded as the
// filter's own step would.
// @ts-ignore: decorator
@inline
function pairSum(left: v128, right: v128): v128 {
  return f32x4.add(left, right);
}

// @ts-ignore: decorator
@inline
function pairSquares(left: v128, right: v128): v128 {
  return f32x4.add(f32x4.mul(left, left), f32x4.mul(right, right));
}

// @ts-ignore: decorator
@inline
function pairCrosses(aLeft: v128, bLeft: v128, aRight: v128, bRight: v128): v128 {
  return f32x4.add(f32x4.mul(aLeft, bLeft), f32x4.mul(aRight, bRight));
}

// Sample x of a row `width` long, zero outside it (the filters' inputs beyond both ends).
// @ts-ignore: decorator
@inline
function sampleOf(row: usize, x: i32, width: i32): f32 {
  return x >= 0 && x < width ? load<f32>(row + (<usize>x << 2)) : 0;
}

// @ts-ignore: decorator
@inline
function referenceStepInput(first: usize, second: usize, width: i32, reach: i32, k: i32, inputs: usize): void {
  const left = k - reach;
  const firstLeft = sampleOf(first, left, width), firstRight = sampleOf(first, k, width);
  const secondLeft = sampleOf(second, left, width), secondRight = sampleOf(second, k, width);
  const out = inputs + (<usize>k << 4);
  store<f32>(out, firstLeft + firstRight);
  store<f32>(out, firstLeft * firstLeft + firstRight * firstRight, 4);
  store<f32>(out, secondLeft + secondRight, 8);
  store<f32>(out, secondLeft * secondLeft + secondRight * secondRight, 12);
}

// Step k's input (the filters' output k - radius + 1 is the first to take it): lanes b, b*b and
// a*b, each the sum of the samples k - 2 * radius (left) and k (right), zero outside the row,
// and a zero lane. Lanes are computed, and rounded, as the filter's own step would.
function stepInputs(a: usize, b: usize, width: i32, steps: i32, inputs: usize): void {
  const reach = RADIUS << 1;
  const leftOutside = min(reach, steps);
  let k = 0;
  for (; k < leftOutside; k++) stepInput(a, b, width, reach, k, inputs);
  const left = <usize>reach << 2;
  const zero = f32x4.splat(0);
  // Four steps at a time where both samples are inside the row: the quantities of four steps, transposed into four inputs.
  for (; k + 4 <= width; k += 4) {
    const at = <usize>k << 2;
    const bLeft = v128.load(b + at - left), bRight = v128.load(b + at);
    const aLeft = v128.load(a + at - left), aRight = v128.load(a + at);
    storeTransposed(inputs + (<usize>k << 4), pairSum(bLeft, bRight), pairSquares(bLeft, bRight), pairCrosses(aLeft, bLeft, aRight, bRight), zero);
  }
  for (; k < steps; k++) stepInput(a, b, width, reach, k, inputs);
}

// Four vectors, each a quantity of four steps, stored as four steps' vectors of the four quantities.
// @ts-ignore: decorator
@inline
function storeTransposed(out: usize, first: v128, second: v128, third: v128, fourth: v128): void {
  const low = v128.shuffle<u32>(first, second, 0, 4, 1, 5);
  const high = v128.shuffle<u32>(first, second, 2, 6, 3, 7);
  const lowOthers = v128.shuffle<u32>(third, fourth, 0, 4, 1, 5);
  const highOthers = v128.shuffle<u32>(third, fourth, 2, 6, 3, 7);
  v128.store(out, v128.shuffle<u32>(low, lowOthers, 0, 1, 4, 5));
  v128.store(out, v128.shuffle<u32>(low, lowOthers, 2, 3, 6, 7), 16);
  v128.store(out, v128.shuffle<u32>(high, highOthers, 0, 1, 4, 5), 32);
  v128.store(out, v128.shuffle<u32>(high, highOthers, 2, 3, 6, 7), 48);
}

// @ts-ignore: decorator
@inline
function stepInput(a: usize, b: usize, width: i32, reach: i32, k: i32, inputs: usize): void {
  const left = k - reach;
  const bLeft = sampleOf(b, left, width), bRight = sampleOf(b, k, width);
  const aLeft = sampleOf(a, left, width), aRight = sampleOf(a, k, width);
  const out = inputs + (<usize>k << 4);
  store<f32>(out, bLeft + bRight);
  store<f32>(out, bLeft * bLeft + bRight * bRight, 4);
  store<f32>(out, aLeft * bLeft + aRight * bRight, 8);
  store<f32>(out, 0, 12);
}

// The filters over `steps` inputs, each step's output (its lanes' three filters summed) in place of
// its input; the first radius - 1 only start the filters (step k gives output k - radius + 1).
// @ts-ignore: decorator
@inline
function blurRowWith<Fused>(inputs: usize, steps: i32): void {
  const n1 = constant(N1), n3 = constant(N3), n5 = constant(N5);
  const d1 = constant(NEGATED_D1), d3 = constant(NEGATED_D3), d5 = constant(NEGATED_D5);
  const zero = f32x4.splat(0);
  let last1 = zero, before1 = zero, last3 = zero, before3 = zero, last5 = zero, before5 = zero;
  // Two steps a turn: V8 copies registers around a loop whose outputs take turns as last and
  // before, and not around one where each turn leaves them where the turn found them.
  const end = inputs + (<usize>steps << 4);
  let at = inputs;
  for (; at + 16 < end; at += 32) {
    const value = v128.load(at);
    const out1 = madd<Fused>(d1, last1, f32x4.sub(f32x4.mul(n1, value), before1));
    const out3 = madd<Fused>(d3, last3, f32x4.sub(f32x4.mul(n3, value), before3));
    const out5 = madd<Fused>(d5, last5, f32x4.sub(f32x4.mul(n5, value), before5));
    v128.store(at, f32x4.add(f32x4.add(out1, out3), out5));
    const next = v128.load(at, 16);
    const nextOut1 = madd<Fused>(d1, out1, f32x4.sub(f32x4.mul(n1, next), last1));
    const nextOut3 = madd<Fused>(d3, out3, f32x4.sub(f32x4.mul(n3, next), last3));
    const nextOut5 = madd<Fused>(d5, out5, f32x4.sub(f32x4.mul(n5, next), last5));
    v128.store(at, f32x4.add(f32x4.add(nextOut1, nextOut3), nextOut5), 16);
    before1 = out1; last1 = nextOut1; before3 = out3; last3 = nextOut3; before5 = out5; last5 = nextOut5;
  }
  if (at < end) {
    const value = v128.load(at);
    const out1 = madd<Fused>(d1, last1, f32x4.sub(f32x4.mul(n1, value), before1));
    const out3 = madd<Fused>(d3, last3, f32x4.sub(f32x4.mul(n3, value), before3));
    const out5 = madd<Fused>(d5, last5, f32x4.sub(f32x4.mul(n5, value), before5));
    v128.store(at, f32x4.add(f32x4.add(out1, out3), out5));
  }
}

// The outputs at `outputs` (one output of four lanes each 16 bytes) into a row per lane, four
// columns at a time; lane 3 only where `lane3` is not 0 (a candidate's is unused).
function splitOutputs(outputs: usize, lane0: usize, lane1: usize, lane2: usize, lane3: usize, width: i32): void {
  for (let x = 0; x < width; x += 4) {
    const from = outputs + (<usize>x << 4);
    const first = v128.load(from), second = v128.load(from, 16), third = v128.load(from, 32), fourth = v128.load(from, 48);
    const lowPairs = v128.shuffle<u32>(first, second, 0, 4, 1, 5);
    const highPairs = v128.shuffle<u32>(third, fourth, 0, 4, 1, 5);
    const lowOthers = v128.shuffle<u32>(first, second, 2, 6, 3, 7);
    const highOthers = v128.shuffle<u32>(third, fourth, 2, 6, 3, 7);
    const at = <usize>x << 2;
    const count = width - x;
    storeLanes(lane0 + at, v128.shuffle<u32>(lowPairs, highPairs, 0, 1, 4, 5), count);
    storeLanes(lane1 + at, v128.shuffle<u32>(lowPairs, highPairs, 2, 3, 6, 7), count);
    storeLanes(lane2 + at, v128.shuffle<u32>(lowOthers, highOthers, 0, 1, 4, 5), count);
    if (lane3 != 0) storeLanes(lane3 + at, v128.shuffle<u32>(lowOthers, highOthers, 2, 3, 6, 7), count);
  }
}

// The XYB conversion stays in double precision until its result is rounded: computed in single
// precision (mixes and cube roots), its last-bit differences moved scores by up to 0.2 from the
// double-precision conversion and 0.49 from calc-s2-rust on the validation set, against 0.02 and
// 0.37 this way. Four pixels' linear RGB arrive as single-precision lanes and leave as XYB lanes;
// in between each half of them runs in double lanes.

// A first guess at the cube root of four positive single-precision lanes: a third of the float's
// bits plus Kahan's bias (within about 3%), then one Halley step (cubing that error). Each lane is
// its own single-precision computation, so four pixels share one guess. The bits are positive and
// their third far inside the integers, so the relaxed truncation (one instruction) is the exact one.
// @ts-ignore: decorator
@inline
function cubeRootGuess(value: v128, third: v128, kahanBias: v128, two: v128): v128 {
  const thirdOfBits = i32x4.relaxed_trunc_f32x4_s(f32x4.mul(f32x4.convert_i32x4_s(value), third));
  const guess = i32x4.add(thirdOfBits, kahanBias);
  const cube = f32x4.mul(f32x4.mul(guess, guess), guess);
  return f32x4.div(f32x4.mul(guess, f32x4.add(cube, f32x4.mul(two, value))), f32x4.add(f32x4.mul(two, cube), value));
}

// Two double lanes each (the low and high halves of four pixels) rounded to four single-precision lanes.
// @ts-ignore: decorator
@inline
function toSingle(low: v128, high: v128): v128 {
  return v128.shuffle<u32>(f32x4.demote_f64x2_zero(low), f32x4.demote_f64x2_zero(high), 0, 1, 4, 5);
}

// The cube root of two double lanes from their single-precision guess (the guess's low two lanes): a Halley step in double precision.
// @ts-ignore: decorator
@inline
function refinedCubeRoot(value: v128, guesses: v128, two: v128): v128 {
  const guess = f64x2.promote_low_f32x4(guesses);
  const cube = f64x2.mul(f64x2.mul(guess, guess), guess);
  return f64x2.div(f64x2.mul(guess, f64x2.add(cube, f64x2.mul(two, value))), f64x2.add(f64x2.mul(two, cube), value));
}

// An opsin mix of two pixels' linear RGB: r * red + g * green + b * blue + bias, in this order.
// @ts-ignore: decorator
@inline
function mix(r: v128, g: v128, b: v128, red: v128, green: v128, blue: v128, bias: v128): v128 {
  return f64x2.add(f64x2.add(f64x2.add(f64x2.mul(r, red), f64x2.mul(g, green)), f64x2.mul(b, blue)), bias);
}

/**
 * Linear RGB rows to positive XYB rows, `width` pixels; B only `withB` (its weights are zero at
 * the two finest scales). XYB_CHUNK pixels at a time, in three passes over scratch: the opsin mixes,
 * their cube roots, and X, Y and B from those. In one pass per pixel the conversion's values and
 * constants did not fit in the processor's registers, and moving them to the stack and back cost
 * more than the passes' loads and stores.
 */
export function toPositiveXyb(red: usize, green: usize, blue: usize, x: usize, y: usize, b: usize, width: i32, withB: bool): void {
  for (let start = 0; start < width; start += XYB_CHUNK) {
    const at = <usize>start << 2;
    const count = min(XYB_CHUNK, width - start);
    opsinMixes(red + at, green + at, blue + at, count, withB);
    cubeRoots(LONG_MIXES, count);
    cubeRoots(MEDIUM_MIXES, count);
    if (withB) cubeRoots(SHORT_MIXES, count);
    positiveXyb(x + at, y + at, b + at, count, withB);
  }
}

// Each opsin mix of `count` pixels into its scratch, four pixels as two pairs of doubles.
function opsinMixes(red: usize, green: usize, blue: usize, count: i32, withB: bool): void {
  opsinMix(red, green, blue, count, LONG_MIXES, LONG_RED);
  opsinMix(red, green, blue, count, MEDIUM_MIXES, MEDIUM_RED);
  if (withB) opsinMix(red, green, blue, count, SHORT_MIXES, SHORT_RED);
}

// One opsin mix, its weights of red, green and blue the three constants from `weights` on.
// @ts-ignore: decorator
@inline
function opsinMix(red: usize, green: usize, blue: usize, count: i32, mixes: usize, weights: usize): void {
  const wr = constant(weights), wg = constant(weights + 16), wb = constant(weights + 32), bias = constant(OPSIN_BIAS);
  const out = constants + mixes;
  for (let i = 0; i < count; i += 4) {
    const at = <usize>i << 2;
    const r = v128.load(red + at);
    const g = v128.load(green + at);
    const bl = v128.load(blue + at);
    v128.store(out + (at << 1), mix(f64x2.promote_low_f32x4(r), f64x2.promote_low_f32x4(g), f64x2.promote_low_f32x4(bl), wr, wg, wb, bias));
    v128.store(out + (at << 1), mix(f64x2.promote_low_f32x4(upperHalf(r)), f64x2.promote_low_f32x4(upperHalf(g)), f64x2.promote_low_f32x4(upperHalf(bl)), wr, wg, wb, bias), 16);
  }
}

// The cube roots of one mix's scratch, less the bias's cube root, in place: one single-precision guess for four pixels, refined per pair.
function cubeRoots(mixes: usize, count: i32): void {
  const biasCbrt = constant(OPSIN_BIAS_CBRT), two = constant(TWO);
  const third = constant(THIRD), kahanBias = constant(KAHAN_BIAS), twoSingle = constant(TWO_SINGLE);
  const at = constants + mixes;
  const end = at + (<usize>count << 3);
  for (let pair = at; pair < end; pair += 32) {
    const low = v128.load(pair), high = v128.load(pair, 16);
    const guess = cubeRootGuess(toSingle(low, high), third, kahanBias, twoSingle);
    v128.store(pair, f64x2.sub(refinedCubeRoot(low, guess, two), biasCbrt));
    v128.store(pair, f64x2.sub(refinedCubeRoot(high, upperHalf(guess), two), biasCbrt), 16);
  }
}

// X, Y and B of `count` pixels from the mixes' cube roots, rounded to single precision.
function positiveXyb(x: usize, y: usize, b: usize, count: i32, withB: bool): void {
  const half = constant(HALF), yShift = constant(Y_SHIFT), bShift = constant(B_SHIFT);
  const long = constants + LONG_MIXES, medium = constants + MEDIUM_MIXES, short = constants + SHORT_MIXES;
  for (let i = 0; i < count; i += 4) {
    const at = <usize>i << 2;
    const from = at << 1;
    const lLow = v128.load(long + from), lHigh = v128.load(long + from, 16);
    const mLow = v128.load(medium + from), mHigh = v128.load(medium + from, 16);
    const lumaLow = f64x2.mul(half, f64x2.add(lLow, mLow));
    const lumaHigh = f64x2.mul(half, f64x2.add(lHigh, mHigh));
    const left = count - i;
    // Shifted so every channel is positive, which the SSIM terms assume.
    storeLanes(x + at, toSingle(f64x2.add(f64x2.mul(half, f64x2.sub(lLow, mLow)), half), f64x2.add(f64x2.mul(half, f64x2.sub(lHigh, mHigh)), half)), left);
    storeLanes(y + at, toSingle(f64x2.add(lumaLow, yShift), f64x2.add(lumaHigh, yShift)), left);
    if (!withB) continue;
    const sLow = v128.load(short + from), sHigh = v128.load(short + from, 16);
    storeLanes(b + at, toSingle(f64x2.add(f64x2.sub(sLow, lumaLow), bShift), f64x2.add(f64x2.sub(sHigh, lumaHigh), bShift)), left);
  }
}

// One step of a vertical filter for four columns whose last output sits at `last` and the one
// before at `before`: f32(n * input - f32(d * last + before)), both multiply-adds fused. The
// output takes the place of `before`, so the two places take turns (`turnOf`) instead of the last
// output being copied. The inner sum is negated by flipping its `sign` bits, as f32x4.neg does.
// @ts-ignore: decorator
@inline
function down<Fused>(n: v128, d: v128, input: v128, last: usize, before: usize, sign: v128): v128 {
  const out = madd<Fused>(n, input, v128.xor(madd<Fused>(d, v128.load(last), v128.load(before)), sign));
  v128.store(before, out);
  return out;
}

// Where in each filter's 32 bytes of state the last output sits on output row `row` (the other 16 hold the one before).
// @ts-ignore: decorator
@inline
function turnOf(row: i32): usize {
  return <usize>(row & 1) << 4;
}

// The three filters' outputs summed: (one + three) + five.
// @ts-ignore: decorator
@inline
function sum3(one: v128, three: v128, five: v128): v128 {
  return f32x4.add(f32x4.add(one, three), five);
}

/**
 * One step of the vertical pass for one quantity: the output row from the horizontally blurred
 * rows r + 1 above it and r - 1 below it, four columns at a time; `state` holds per group of four
 * columns its filters' last two outputs (6 floats a column).
 */
export function blurColumns(upper: usize, lower: usize, state: usize, output: usize, width: i32, row: i32): void {
  if (FUSED) blurColumnsWith<f32>(upper, lower, state, output, width, row);
  else blurColumnsWith<f64>(upper, lower, state, output, width, row);
}

// @ts-ignore: decorator
@inline
function blurColumnsWith<Fused>(upper: usize, lower: usize, state: usize, output: usize, width: i32, row: i32): void {
  const n1 = constant(N1), n3 = constant(N3), n5 = constant(N5);
  const d1 = constant(D1), d3 = constant(D3), d5 = constant(D5);
  const lasts = state + turnOf(row), befores = state + 16 - turnOf(row);
  const sign = constant(SIGN_BITS);
  for (let x = 0; x < width; x += 4) {
    const at = <usize>x << 2;
    const sum = f32x4.add(v128.load(upper + at), v128.load(lower + at));
    const last = lasts + (<usize>x * 24), before = befores + (<usize>x * 24);
    const out1 = down<Fused>(n1, d1, sum, last, before, sign);
    const out3 = down<Fused>(n3, d3, sum, last + 32, before + 32, sign);
    const out5 = down<Fused>(n5, d5, sum, last + 64, before + 64, sign);
    storeLanes(output + at, sum3(out1, out3, out5), width - x);
  }
}

/**
 * The vertical pass for b, b*b and a*b of one output row, from the horizontally blurred rows r + 1
 * above it (`upper*`) and r - 1 below it (`lower*`), and when `accumulate` is set (the row is
 * inside the image) its SSIM error and edge differences against the reference's row, each with
 * its fourth power, added to the six doubles at `sums`. `state` holds per group of four columns,
 * for each quantity and filter, its last two outputs (18 floats a column); `scratch` takes the
 * blurred row between the two (3 floats a column).
 */
export function blurCandidateColumns(
  upperMeans: usize, upperSquares: usize, upperCrosses: usize,
  lowerMeans: usize, lowerSquares: usize, lowerCrosses: usize,
  state: usize, width: i32,
  referenceXyb: usize, referenceMeans: usize, referenceSquares: usize, candidateXyb: usize,
  sums: usize, accumulate: bool, row: i32, scratch: usize,
): void {
  if (FUSED) blurCandidateColumnsWith<f32>(upperMeans, upperSquares, upperCrosses, lowerMeans, lowerSquares, lowerCrosses, state, width, row, scratch);
  else blurCandidateColumnsWith<f64>(upperMeans, upperSquares, upperCrosses, lowerMeans, lowerSquares, lowerCrosses, state, width, row, scratch);
  if (accumulate) addTerms(referenceXyb, referenceMeans, referenceSquares, candidateXyb, scratch, width, sums);
}

// The vertical filters of b, b*b and a*b for one row; their outputs, the candidate's mu, sigma22
// and sigma12, go to `blurred` as three vectors a group of four columns. The SSIM terms follow in
// their own pass (addTerms): in one, the two's values and constants did not fit in the
// processor's registers.
// @ts-ignore: decorator
@inline
function blurCandidateColumnsWith<Fused>(
  upperMeans: usize, upperSquares: usize, upperCrosses: usize,
  lowerMeans: usize, lowerSquares: usize, lowerCrosses: usize,
  state: usize, width: i32, row: i32, blurred: usize,
): void {
  const n1 = constant(N1), n3 = constant(N3), n5 = constant(N5);
  const d1 = constant(D1), d3 = constant(D3), d5 = constant(D5);
  const lasts = state + turnOf(row), befores = state + 16 - turnOf(row);
  const sign = constant(SIGN_BITS);
  for (let x = 0; x < width; x += 4) {
    const at = <usize>x << 2;
    const mean = f32x4.add(v128.load(upperMeans + at), v128.load(lowerMeans + at));
    const square = f32x4.add(v128.load(upperSquares + at), v128.load(lowerSquares + at));
    const cross = f32x4.add(v128.load(upperCrosses + at), v128.load(lowerCrosses + at));
    const last = lasts + (<usize>x * 72), before = befores + (<usize>x * 72);
    const m1 = down<Fused>(n1, d1, mean, last, before, sign);
    const m3 = down<Fused>(n3, d3, mean, last + 32, before + 32, sign);
    const m5 = down<Fused>(n5, d5, mean, last + 64, before + 64, sign);
    const s1 = down<Fused>(n1, d1, square, last + 96, before + 96, sign);
    const s3 = down<Fused>(n3, d3, square, last + 128, before + 128, sign);
    const s5 = down<Fused>(n5, d5, square, last + 160, before + 160, sign);
    const c1 = down<Fused>(n1, d1, cross, last + 192, before + 192, sign);
    const c3 = down<Fused>(n3, d3, cross, last + 224, before + 224, sign);
    const c5 = down<Fused>(n5, d5, cross, last + 256, before + 256, sign);
    const out = blurred + at * 3;
    v128.store(out, sum3(m1, m3, m5));
    v128.store(out, sum3(s1, s3, s5), 16);
    v128.store(out, sum3(c1, c3, c5), 32);
  }
}

// A row's SSIM error and edge differences, each with its fourth power, added to the six doubles at
// `sums`, from the reference's cached side and the candidate's blurred row (`blurred`, as
// blurCandidateColumnsWith leaves it).
function addTerms(referenceXyb: usize, referenceMeans: usize, referenceSquares: usize, candidateXyb: usize, blurred: usize, width: i32, sums: usize): void {
  const one = f32x4.splat(1), two = f32x4.splat(2), c2 = f32x4.splat(C2), zero = f32x4.splat(0);
  const lanes = i32x4(0, 1, 2, 3);
  let ssim = zero, ssim4 = zero, artifact = zero, artifact4 = zero, detail = zero, detail4 = zero;
  // Groups of four columns; the last group's lanes past the row read whatever follows it (every
  // buffer here has 16 bytes to spare), are not stored, and add nothing.
  for (let x = 0; x < width; x += 4) {
    const at = <usize>x << 2;
    const from = blurred + at * 3;
    // mu and sigma: 1 the reference (cached), 2 the candidate.
    const mu1 = v128.load(referenceMeans + at);
    const mu2 = v128.load(from);
    const sigma11 = v128.load(referenceSquares + at);
    const sigma22 = v128.load(from, 16);
    const sigma12 = v128.load(from, 32);
    const diff = f32x4.sub(mu1, mu2);
    const numerator = f32x4.mul(f32x4.sub(one, f32x4.mul(diff, diff)), f32x4.add(f32x4.mul(two, f32x4.sub(sigma12, f32x4.mul(mu1, mu2))), c2));
    const denominator = f32x4.add(f32x4.add(f32x4.sub(sigma11, f32x4.mul(mu1, mu1)), f32x4.sub(sigma22, f32x4.mul(mu2, mu2))), c2);
    // One division for both ratios: the SSIM's and the edge term's.
    const referenceEdge = f32x4.add(one, f32x4.abs(f32x4.sub(v128.load(referenceXyb + at), mu1)));
    const inverse = f32x4.div(one, f32x4.mul(denominator, referenceEdge));
    let error = f32x4.sub(one, f32x4.mul(f32x4.mul(numerator, referenceEdge), inverse));
    // > 0: an edge where the reference is smooth (ringing, banding, blocks); < 0: an edge lost (blur).
    const edge = f32x4.sub(f32x4.mul(f32x4.mul(f32x4.add(one, f32x4.abs(f32x4.sub(v128.load(candidateXyb + at), mu2))), denominator), inverse), one);
    // The positive parts as pmax (0 < v ? v : 0): one instruction on x86, where V8 spends seven on
    // max's ordering of NaN and signed zeros; the two agree on every number, -0 giving +0.
    let gained = f32x4.pmax(zero, edge);
    let lost = f32x4.pmax(zero, f32x4.neg(edge));
    error = f32x4.pmax(zero, error);
    if (x + 4 > width) {
      const inside = i32x4.lt_s(lanes, i32x4.splat(width - x));
      error = v128.and(error, inside);
      gained = v128.and(gained, inside);
      lost = v128.and(lost, inside);
    }
    ssim = f32x4.add(ssim, error);
    artifact = f32x4.add(artifact, gained);
    detail = f32x4.add(detail, lost);
    const error2 = f32x4.mul(error, error);
    const gained2 = f32x4.mul(gained, gained);
    const lost2 = f32x4.mul(lost, lost);
    ssim4 = f32x4.add(ssim4, f32x4.mul(error2, error2));
    artifact4 = f32x4.add(artifact4, f32x4.mul(gained2, gained2));
    detail4 = f32x4.add(detail4, f32x4.mul(lost2, lost2));
  }
  addLanes(sums, ssim);
  addLanes(sums + 8, ssim4);
  addLanes(sums + 16, artifact);
  addLanes(sums + 24, artifact4);
  addLanes(sums + 32, detail);
  addLanes(sums + 40, detail4);
}

// Adds a row's four lane sums to the double at `at` (the sums over the image stay in double precision).
// @ts-ignore: decorator
@inline
function addLanes(at: usize, lanes: v128): void {
  const low = f64x2.promote_low_f32x4(lanes);
  const high = f64x2.promote_low_f32x4(upperHalf(lanes));
  const both = f64x2.add(low, high);
  store<f64>(at, load<f64>(at) + (f64x2.extract_lane(both, 0) + f64x2.extract_lane(both, 1)));
}
