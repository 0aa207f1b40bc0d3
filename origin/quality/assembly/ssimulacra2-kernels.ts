// AssemblyScript, compiled to ../ssimulacra2-kernels.wasm by `npm run build:kernels`
// (ssimulacra2-kernels.test.ts rebuilds it and fails when the committed binary differs). The hot
// loops of SSIMULACRA 2 (../ssimulacra2.ts drives them row by row): sRGB bytes to linear light,
// the XYB conversion, the horizontal and vertical passes of the recursive Gaussian (over a
// reference's values and squares, and over a candidate's b, b*b and a*b), and the SSIM and edge
// terms against the reference's cached side.
//
// Every operation rounds where the JavaScript it replaced rounded, so scores do not move: a
// Math.fround of a sum or product of two single-precision values is the single-precision
// operation itself, and a Math.fround of a longer expression computed in double precision is
// computed here in double precision and then rounded (the filters' poles lie on the unit circle,
// so a different rounding takes the error along another walk; see the quality README). The
// vertical pass, where columns are independent, runs two columns at a time in f64x2 lanes.
//
// All arguments are byte offsets into the memory the caller imports; nothing is allocated here.

// The filters' coefficients (ssimulacra2-parameters.ts), their single-precision values and,
// once widened, the same numbers in double precision.
let N1: f32 = 0;
let N3: f32 = 0;
let N5: f32 = 0;
let D1: f32 = 0;
let D3: f32 = 0;
let D5: f32 = 0;
let RADIUS: i32 = 0;
// The cube root table (CBRT_STEPS + 2 doubles), sRGB's decoding (256 floats), and the bias of the
// opsin mixes and its cube root.
let cbrtTable: usize = 0;
let srgbTable: usize = 0;
let opsinBias: f64 = 0;
let opsinBiasCbrt: f64 = 0;
// The short-wavelength opsin mix's weights of red, green and blue.
let m20: f64 = 0;
let m21: f64 = 0;
let m22: f64 = 0;

const CBRT_STEPS: f64 = 4096;
const C2: f64 = 0.0009;

/** Takes the constants the JavaScript side computes (its Math.cbrt and Gaussian), so both sides use the same numbers. */
export function configure(n1: f32, n3: f32, n5: f32, d1: f32, d3: f32, d5: f32, radius: i32, table: usize, srgb: usize, bias: f64, biasCbrt: f64, shortRed: f64, shortGreen: f64, shortBlue: f64): void {
  N1 = n1;
  N3 = n3;
  N5 = n5;
  D1 = d1;
  D3 = d3;
  D5 = d5;
  RADIUS = radius;
  cbrtTable = table;
  srgbTable = srgb;
  opsinBias = bias;
  opsinBiasCbrt = biasCbrt;
  m20 = shortRed;
  m21 = shortGreen;
  m22 = shortBlue;
}

/** A row of 8-bit sRGB (3 or 4 channels) to linear rows; a pixel not opaque is laid over a `background` page (0 dark, 1 light). */
export function linearRow(bytes: usize, channels: i32, background: f64, width: i32, red: usize, green: usize, blue: usize): void {
  for (let x = 0; x < width; x++) {
    const i = bytes + <usize>(x * channels);
    const at = <usize>x << 2;
    const r = load<f32>(srgbTable + (<usize>load<u8>(i) << 2));
    const g = load<f32>(srgbTable + (<usize>load<u8>(i, 1) << 2));
    const b = load<f32>(srgbTable + (<usize>load<u8>(i, 2) << 2));
    if (channels == 4 && load<u8>(i, 3) != 255) {
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

/**
 * Adds linear row y's share to its row of the next scale's 2x2 box average, `half` ((width + 1) / 2
 * floats, restarted from zero on an even row): a quarter, or a half on an odd last row, an odd last
 * column counting twice, as if the edge were repeated.
 */
export function accumulateHalf(half: usize, row: usize, y: i32, width: i32, height: i32): void {
  const weight: f64 = (height & 1) == 1 && y == height - 1 ? 0.5 : 0.25;
  const fresh = (y & 1) == 0;
  // Each half-row value takes its two columns in turn, rounded after each as a plane element is.
  const pairs = width >> 1;
  for (let j = 0; j < pairs; j++) {
    const at = half + (<usize>j << 2);
    const from = row + (<usize>j << 3);
    let value: f64 = fresh ? 0 : <f64>load<f32>(at);
    value = <f64><f32>(value + <f64>load<f32>(from) * weight);
    store<f32>(at, <f32>(value + <f64>load<f32>(from, 4) * weight));
  }
  if ((width & 1) == 1) {
    const at = half + (<usize>pairs << 2);
    const last = <f64>load<f32>(row + (<usize>(width - 1) << 2)) * weight;
    let value: f64 = fresh ? 0 : <f64>load<f32>(at);
    value = <f64><f32>(value + last);
    store<f32>(at, <f32>(value + last));
  }
}

// One step of a horizontal filter: f32(f32(f32(n * input) - before) - d * last), the last
// product exact in double precision as in the JavaScript.
// @ts-ignore: decorator
@inline
function across(n: f32, d: f32, input: f32, before: f32, last: f32): f32 {
  return <f32>(<f64>(n * input - before) - <f64>d * <f64>last);
}

/** The horizontal pass over one row of `input` (its squares when `squared`, each rounded to single precision) into `output`. */
export function blurRow(input: usize, output: usize, width: i32, squared: bool): void {
  const radius = RADIUS;
  const n1 = N1, n3 = N3, n5 = N5, d1 = D1, d3 = D3, d5 = D5;
  let last1: f32 = 0, before1: f32 = 0, last3: f32 = 0, before3: f32 = 0, last5: f32 = 0, before5: f32 = 0;
  for (let n = 1 - radius; n < width; n++) {
    const left = n - radius - 1;
    const right = n + radius - 1;
    let leftValue: f32 = 0, rightValue: f32 = 0;
    if (left >= 0) leftValue = load<f32>(input + (<usize>left << 2));
    if (right < width) rightValue = load<f32>(input + (<usize>right << 2));
    if (squared) {
      leftValue *= leftValue;
      rightValue *= rightValue;
    }
    const sum = leftValue + rightValue;
    const out1 = across(n1, d1, sum, before1, last1);
    const out3 = across(n3, d3, sum, before3, last3);
    const out5 = across(n5, d5, sum, before5, last5);
    before1 = last1; last1 = out1; before3 = last3; last3 = out3; before5 = last5; last5 = out5;
    if (n >= 0) store<f32>(output + (<usize>n << 2), out1 + out3 + out5);
  }
}

// One step of a horizontal filter in double lanes holding single-precision values:
// f32(f32(f32(n * input) - before) - d * last), for two chains at once.
// @ts-ignore: decorator
@inline
function across2(n: v128, d: v128, input: v128, before: v128, last: v128): v128 {
  return round2(f64x2.sub(round2(f64x2.sub(round2(f64x2.mul(n, input)), before)), f64x2.mul(d, last)));
}

/**
 * The horizontal pass over one row of a (the reference's XYB) and b (the candidate's) into rows of
 * blurred b, b*b and a*b. The filters of b and b*b run as pairs of double lanes (one lane each),
 * those of a*b as scalar chains.
 */
export function blurCandidateRow(a: usize, b: usize, means: usize, squares: usize, crosses: usize, width: i32): void {
  const radius = RADIUS;
  const n1 = N1, n3 = N3, n5 = N5, d1 = D1, d3 = D3, d5 = D5;
  const vn1 = f64x2.splat(<f64>n1), vn3 = f64x2.splat(<f64>n3), vn5 = f64x2.splat(<f64>n5);
  const vd1 = f64x2.splat(<f64>d1), vd3 = f64x2.splat(<f64>d3), vd5 = f64x2.splat(<f64>d5);
  const zero = f64x2.splat(0);
  // Lanes: the mean of b, then the mean of b*b.
  let last1 = zero, before1 = zero, last3 = zero, before3 = zero, last5 = zero, before5 = zero;
  let lastC1: f32 = 0, beforeC1: f32 = 0, lastC3: f32 = 0, beforeC3: f32 = 0, lastC5: f32 = 0, beforeC5: f32 = 0;
  for (let n = 1 - radius; n < width; n++) {
    const left = n - radius - 1;
    const right = n + radius - 1;
    let bLeft: f32 = 0, aLeft: f32 = 0, bRight: f32 = 0, aRight: f32 = 0;
    if (left >= 0) {
      bLeft = load<f32>(b + (<usize>left << 2));
      aLeft = load<f32>(a + (<usize>left << 2));
    }
    if (right < width) {
      bRight = load<f32>(b + (<usize>right << 2));
      aRight = load<f32>(a + (<usize>right << 2));
    }
    const mean = bLeft + bRight;
    const square = bLeft * bLeft + bRight * bRight;
    const cross = aLeft * bLeft + aRight * bRight;
    const input = f64x2.replace_lane(f64x2.splat(<f64>mean), 1, <f64>square);
    const out1 = across2(vn1, vd1, input, before1, last1);
    const out3 = across2(vn3, vd3, input, before3, last3);
    const out5 = across2(vn5, vd5, input, before5, last5);
    const c1 = across(n1, d1, cross, beforeC1, lastC1);
    const c3 = across(n3, d3, cross, beforeC3, lastC3);
    const c5 = across(n5, d5, cross, beforeC5, lastC5);
    before1 = last1; last1 = out1; before3 = last3; last3 = out3; before5 = last5; last5 = out5;
    beforeC1 = lastC1; lastC1 = c1; beforeC3 = lastC3; lastC3 = c3; beforeC5 = lastC5; lastC5 = c5;
    if (n >= 0) {
      const at = <usize>n << 2;
      const sums = f32x4.demote_f64x2_zero(sum3(out1, out3, out5));
      v128.store32_lane(means + at, sums, 0);
      v128.store32_lane(squares + at, sums, 1);
      store<f32>(crosses + at, c1 + c3 + c5);
    }
  }
}

// Rounds each double lane to single precision and back.
// @ts-ignore: decorator
@inline
function round2(value: v128): v128 {
  return f64x2.promote_low_f32x4(f32x4.demote_f64x2_zero(value));
}

// Two single-precision values at `at`, widened to a double lane each.
// @ts-ignore: decorator
@inline
function load2(at: usize): v128 {
  return f64x2.promote_low_f32x4(v128.load64_zero(at));
}

// The cube root of two lanes: from the table, linearly interpolated, then one Halley step.
// @ts-ignore: decorator
@inline
function cubeRoot(value: v128): v128 {
  const position = f64x2.mul(value, f64x2.splat(CBRT_STEPS));
  // Clamped below too: the second lane of an odd last pixel reads whatever follows the row.
  const index = f64x2.max(f64x2.splat(0), f64x2.min(f64x2.splat(CBRT_STEPS), f64x2.floor(position)));
  const indices = i32x4.trunc_sat_f64x2_s_zero(index);
  const at0 = cbrtTable + (<usize>i32x4.extract_lane(indices, 0) << 3);
  const at1 = cbrtTable + (<usize>i32x4.extract_lane(indices, 1) << 3);
  const low = f64x2.replace_lane(f64x2.splat(load<f64>(at0)), 1, load<f64>(at1));
  const high = f64x2.replace_lane(f64x2.splat(load<f64>(at0, 8)), 1, load<f64>(at1, 8));
  const guess = f64x2.add(low, f64x2.mul(f64x2.sub(position, index), f64x2.sub(high, low)));
  const cube = f64x2.mul(f64x2.mul(guess, guess), guess);
  const two = f64x2.splat(2);
  return f64x2.div(f64x2.mul(guess, f64x2.add(cube, f64x2.mul(two, value))), f64x2.add(f64x2.mul(two, cube), value));
}

// An opsin mix of two pixels' linear RGB: f64(r * red + g * green + b * blue + bias), in this order.
// @ts-ignore: decorator
@inline
function mix(r: f64, g: f64, b: f64, red: v128, green: v128, blue: v128): v128 {
  return f64x2.add(f64x2.add(f64x2.add(f64x2.mul(f64x2.splat(r), red), f64x2.mul(f64x2.splat(g), green)), f64x2.mul(f64x2.splat(b), blue)), f64x2.splat(opsinBias));
}

// Stores two double lanes as single precision, or only the first when `one` is set (an odd last pixel).
// @ts-ignore: decorator
@inline
function storeRounded(at: usize, value: v128, one: bool): void {
  const rounded = f32x4.demote_f64x2_zero(value);
  if (one) v128.store32_lane(at, rounded, 0);
  else v128.store64_lane(at, rounded, 0);
}

/** Linear RGB rows to positive XYB rows (single precision), `width` pixels, two at a time; B only `withB` (its weights are zero at the two finest scales). */
export function toPositiveXyb(red: usize, green: usize, blue: usize, x: usize, y: usize, b: usize, width: i32, withB: bool): void {
  const bias = f64x2.splat(opsinBiasCbrt);
  const half = f64x2.splat(0.5);
  for (let i = 0; i < width; i += 2) {
    const at = <usize>i << 2;
    const r = load2(red + at);
    const g = load2(green + at);
    const bl = load2(blue + at);
    const long = f64x2.sub(cubeRoot(mix(0.3, 0.622, 0.078, r, g, bl)), bias);
    const medium = f64x2.sub(cubeRoot(mix(0.23, 0.692, 0.078, r, g, bl)), bias);
    const luma = f64x2.mul(half, f64x2.add(long, medium));
    // Shifted so every channel is positive, which the SSIM terms assume.
    const one = i + 1 == width;
    storeRounded(x + at, f64x2.add(f64x2.mul(half, f64x2.sub(long, medium)), half), one);
    storeRounded(y + at, f64x2.add(luma, f64x2.splat(0.05)), one);
    if (!withB) continue;
    const short = f64x2.sub(cubeRoot(mix(m20, m21, m22, r, g, bl)), bias);
    storeRounded(b + at, f64x2.add(f64x2.sub(short, luma), f64x2.splat(1.1)), one);
  }
}

// One step of a vertical filter for two columns whose state (last, before) sits at `at`:
// f32(n * input - f32(d * last + before)), in double lanes, returning the output.
// @ts-ignore: decorator
@inline
function down(n: v128, d: v128, input: v128, at: usize): v128 {
  const last = v128.load(at);
  const out = round2(f64x2.sub(f64x2.mul(n, input), round2(f64x2.add(f64x2.mul(d, last), v128.load(at, 16)))));
  v128.store(at, out);
  v128.store(at, last, 16);
  return out;
}

// The three filters' outputs summed as single-precision values: f32(f32(one + three) + five).
// @ts-ignore: decorator
@inline
function sum3(one: v128, three: v128, five: v128): v128 {
  return round2(f64x2.add(round2(f64x2.add(one, three)), five));
}

/**
 * One step of the vertical pass for one quantity: the output row from the horizontally blurred
 * rows r + 1 above it and r - 1 below it, two columns at a time; `state` holds per column its
 * filters' last two outputs as doubles (12 doubles for two columns, in pairs).
 */
export function blurColumns(upper: usize, lower: usize, state: usize, output: usize, width: i32): void {
  const n1 = f64x2.splat(<f64>N1), n3 = f64x2.splat(<f64>N3), n5 = f64x2.splat(<f64>N5);
  const d1 = f64x2.splat(<f64>D1), d3 = f64x2.splat(<f64>D3), d5 = f64x2.splat(<f64>D5);
  for (let x = 0; x < width; x += 2) {
    const at = <usize>x << 2;
    const sum = round2(f64x2.add(load2(upper + at), load2(lower + at)));
    const s = state + (<usize>x * 48);
    const out1 = down(n1, d1, sum, s);
    const out3 = down(n3, d3, sum, s + 32);
    const out5 = down(n5, d5, sum, s + 64);
    storeRounded(output + at, sum3(out1, out3, out5), x + 1 == width);
  }
}

/**
 * The vertical pass for b, b*b and a*b of one output row, from the horizontally blurred rows r + 1
 * above it (`upper*`) and r - 1 below it (`lower*`), and when `accumulate` is set (the row is
 * inside the image) its SSIM error and edge differences against the reference's row, each with
 * its fourth power, added to the six doubles at `sums`. `state` holds per column, for each
 * quantity and filter, its last two outputs as doubles (36 doubles for two columns, in pairs).
 */
export function blurCandidateColumns(
  upperMeans: usize, upperSquares: usize, upperCrosses: usize,
  lowerMeans: usize, lowerSquares: usize, lowerCrosses: usize,
  state: usize, width: i32,
  referenceXyb: usize, referenceMeans: usize, referenceSquares: usize, candidateXyb: usize,
  sums: usize, accumulate: bool,
): void {
  const n1 = f64x2.splat(<f64>N1), n3 = f64x2.splat(<f64>N3), n5 = f64x2.splat(<f64>N5);
  const d1 = f64x2.splat(<f64>D1), d3 = f64x2.splat(<f64>D3), d5 = f64x2.splat(<f64>D5);
  const one = f64x2.splat(1), two = f64x2.splat(2), c2 = f64x2.splat(C2), zero = f64x2.splat(0);
  const firstLane = i64x2(-1, 0);
  let ssim = zero, ssim4 = zero, artifact = zero, artifact4 = zero, detail = zero, detail4 = zero;
  // Pairs of columns; an odd last column is the pair's first lane, its second lane reading and
  // writing one value past the row, which every buffer here allows, and adding nothing.
  for (let x = 0; x < width; x += 2) {
    const at = <usize>x << 2;
    const mean = round2(f64x2.add(load2(upperMeans + at), load2(lowerMeans + at)));
    const square = round2(f64x2.add(load2(upperSquares + at), load2(lowerSquares + at)));
    const cross = round2(f64x2.add(load2(upperCrosses + at), load2(lowerCrosses + at)));
    const s = state + (<usize>x * 144);
    const m1 = down(n1, d1, mean, s);
    const m3 = down(n3, d3, mean, s + 32);
    const m5 = down(n5, d5, mean, s + 64);
    const s1 = down(n1, d1, square, s + 96);
    const s3 = down(n3, d3, square, s + 128);
    const s5 = down(n5, d5, square, s + 160);
    const c1 = down(n1, d1, cross, s + 192);
    const c3 = down(n3, d3, cross, s + 224);
    const c5 = down(n5, d5, cross, s + 256);
    if (!accumulate) continue;
    // mu and sigma: 1 the reference (cached), 2 the candidate.
    const mu1 = load2(referenceMeans + at);
    const mu2 = sum3(m1, m3, m5);
    const sigma11 = load2(referenceSquares + at);
    const sigma22 = sum3(s1, s3, s5);
    const sigma12 = sum3(c1, c3, c5);
    const diff = f64x2.sub(mu1, mu2);
    const numerator = f64x2.mul(f64x2.sub(one, f64x2.mul(diff, diff)), f64x2.add(f64x2.mul(two, f64x2.sub(sigma12, f64x2.mul(mu1, mu2))), c2));
    const denominator = f64x2.add(f64x2.add(f64x2.sub(sigma11, f64x2.mul(mu1, mu1)), f64x2.sub(sigma22, f64x2.mul(mu2, mu2))), c2);
    // One division for both ratios: the SSIM's and the edge term's.
    const referenceEdge = f64x2.add(one, f64x2.abs(f64x2.sub(load2(referenceXyb + at), mu1)));
    const inverse = f64x2.div(one, f64x2.mul(denominator, referenceEdge));
    let error = f64x2.sub(one, f64x2.mul(f64x2.mul(numerator, referenceEdge), inverse));
    // > 0: an edge where the reference is smooth (ringing, banding, blocks); < 0: an edge lost (blur).
    const edge = f64x2.sub(f64x2.mul(f64x2.mul(f64x2.add(one, f64x2.abs(f64x2.sub(load2(candidateXyb + at), mu2))), denominator), inverse), one);
    let gained = f64x2.max(edge, zero);
    let lost = f64x2.max(f64x2.neg(edge), zero);
    error = f64x2.max(error, zero);
    if (x + 1 == width) {
      error = v128.and(error, firstLane);
      gained = v128.and(gained, firstLane);
      lost = v128.and(lost, firstLane);
    }
    ssim = f64x2.add(ssim, error);
    artifact = f64x2.add(artifact, gained);
    detail = f64x2.add(detail, lost);
    const error2 = f64x2.mul(error, error);
    const gained2 = f64x2.mul(gained, gained);
    const lost2 = f64x2.mul(lost, lost);
    ssim4 = f64x2.add(ssim4, f64x2.mul(error2, error2));
    artifact4 = f64x2.add(artifact4, f64x2.mul(gained2, gained2));
    detail4 = f64x2.add(detail4, f64x2.mul(lost2, lost2));
  }
  if (!accumulate) return;
  store<f64>(sums, load<f64>(sums) + (f64x2.extract_lane(ssim, 0) + f64x2.extract_lane(ssim, 1)));
  store<f64>(sums, load<f64>(sums, 8) + (f64x2.extract_lane(ssim4, 0) + f64x2.extract_lane(ssim4, 1)), 8);
  store<f64>(sums, load<f64>(sums, 16) + (f64x2.extract_lane(artifact, 0) + f64x2.extract_lane(artifact, 1)), 16);
  store<f64>(sums, load<f64>(sums, 24) + (f64x2.extract_lane(artifact4, 0) + f64x2.extract_lane(artifact4, 1)), 24);
  store<f64>(sums, load<f64>(sums, 32) + (f64x2.extract_lane(detail, 0) + f64x2.extract_lane(detail, 1)), 32);
  store<f64>(sums, load<f64>(sums, 40) + (f64x2.extract_lane(detail4, 0) + f64x2.extract_lane(detail4, 1)), 40);
}
