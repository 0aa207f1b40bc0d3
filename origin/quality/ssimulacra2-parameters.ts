// The parameters of SSIMULACRA 2.0 that every implementation here shares: the published weights,
// the XYB opsin constants, sRGB decoding and the recursive Gaussian's coefficients. The cached
// scorer (ssimulacra2.ts, its loops in WebAssembly, which takes these numbers from here at start)
// and the tests' streaming oracle (JavaScript) differ only in how they walk the image.
export const SCALES = 6;
export const SIGMA = 1.5;

/** Published SSIMULACRA 2.0 weights, for channel X, Y, B, then scale, then [SSIM, artifact, detail lost] for the mean and then for the 4-norm. */
export const WEIGHTS = [
  0.0, 0.0, 0.0, 1.0035479352512353, 0.00011322061110474735, 0.00040442991823685936,
  0.0018953834105783773, 0.0, 0.0, 8.982542997575905, 0.9899785796045556, 0.0,
  0.9748315131207942, 0.9581575169937973, 0.0, 0.5133611777952946, 1.0423189317331243, 0.000308010928520841,
  12.149584966240063, 0.9565577248115467, 0.0, 1.0406668123136824, 81.51139046057362, 0.30593391895330946,
  1.0752214433626779, 1.1039042369464611, 0.0, 1.021911638819618, 1.1141823296855722, 0.9730845751441705,
  0.0, 0.0, 0.0, 0.9833918426095505, 0.7920385137059867, 0.9710740411514053,
  0.0, 0.0, 0.0, 0.5387077903152638, 0.0, 3.4036945601155804,
  0.0, 0.0, 0.0, 2.337569295661117, 0.0, 5.707946510901609,
  37.83086423878157, 0.0, 0.0, 3.8258200594305185, 0.0, 0.0,
  24.073659674271497, 0.0, 0.0, 13.181871265286068, 0.0, 0.0,
  0.0, 0.0, 0.0, 10.00750121262895, 0.0, 0.0,
  0.0, 0.0, 0.0, 52.51428385603891, 0.0, 0.0,
  0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
  0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
  0.0, 0.9946464267894417, 0.0, 0.0, 0.0006040447715934816, 0.0,
  0.0, 0.9945171491374072, 0.0, 2.8260043809454376, 1.0052642766534516, 8.201441997546244e-5,
  12.154041855876695, 32.292928706201266, 0.992837130387521, 0.0, 30.71925517844603, 0.00012309907022278743,
  0.0, 0.9826260237051734, 0.0, 0.0, 0.9980928367837651, 0.012142430067163312,
];

// Opsin absorbance of linear sRGB, as in JPEG XL's XYB.
export const OPSIN_BIAS = 0.0037930732552754493;
export const OPSIN_BIAS_CBRT = Math.cbrt(OPSIN_BIAS);
export const M20 = 0.24342268924547819;
export const M21 = 0.20476744424496821;
export const M22 = 1 - M20 - M21;

export const SRGB_TO_LINEAR = Float32Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

/**
 * Gaussian as a sum of three second-order recursive filters (Charalampidis 2016, "Recursive
 * implementation of the Gaussian filter using truncated cosine functions"): for each k in
 * {1, 3, 5}, out_k[n] = n2_k (in[n - N - 1] + in[n + N - 1]) - d1_k out_k[n - 1] - out_k[n - 2],
 * the output is the sum of the three, and samples outside the image are zero.
 */
export const gaussian = (() => {
  const radius = Math.round(3.2795 * SIGMA + 0.2546);
  const omega = [1, 3, 5].map((k) => (k * Math.PI) / (2 * radius)) as [number, number, number];
  const p = [1 / Math.tan(omega[0] / 2), -1 / Math.tan(omega[1] / 2), 1 / Math.tan(omega[2] / 2)] as const;
  const r = [(p[0] * p[0]) / Math.sin(omega[0]), (-p[1] * p[1]) / Math.sin(omega[1]), (p[2] * p[2]) / Math.sin(omega[2])] as const;
  const rho = omega.map((w) => Math.exp(-0.5 * SIGMA * SIGMA * w * w) / radius) as [number, number, number];
  const d13 = p[0] * r[1] - r[0] * p[1];
  const zeta15 = (p[1] * r[2] - r[1] * p[2]) / d13;
  const zeta35 = (p[2] * r[0] - r[2] * p[0]) / d13;
  // Solve [p; r; zeta] beta = gamma: unit gain, the Gaussian's variance, and its value at the cosines' sum.
  const beta = solve3(
    [
      [p[0], p[1], p[2]],
      [r[0], r[1], r[2]],
      [zeta15, zeta35, 1],
    ],
    [1, radius * radius - SIGMA * SIGMA, zeta15 * rho[0] + zeta35 * rho[1] + rho[2]],
  );
  return {
    radius,
    n2: beta.map((b, i) => -b * Math.cos(omega[i]! * (radius + 1))) as [number, number, number],
    d1: omega.map((w) => -2 * Math.cos(w)) as [number, number, number],
  };
})();

function solve3(m: number[][], v: number[]): [number, number, number] {
  const det = (a: number[][]) =>
    a[0]![0]! * (a[1]![1]! * a[2]![2]! - a[1]![2]! * a[2]![1]!) -
    a[0]![1]! * (a[1]![0]! * a[2]![2]! - a[1]![2]! * a[2]![0]!) +
    a[0]![2]! * (a[1]![0]! * a[2]![1]! - a[1]![1]! * a[2]![0]!);
  const whole = det(m);
  const column = (c: number) => det(m.map((row, i) => row.map((x, j) => (j === c ? v[i]! : x))));
  return [column(0) / whole, column(1) / whole, column(2) / whole];
}

/** Fills three rows with the linear RGB of image row y. */
type LinearRowReader = (y: number, red: Float32Array, green: Float32Array, blue: Float32Array) => void;

export interface LinearImage {
  width: number;
  height: number;
  readRow: LinearRowReader;
}

