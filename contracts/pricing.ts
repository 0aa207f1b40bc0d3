// Every price in integer micro-dollars, and the rules that make an operation free.
// Hosts ask these functions what to charge; no other module knows a price.

export const MICROS_PER_DOLLAR = 1_000_000;

export const prices = {
  image: 800,
  transform: 800,
  pdfCompressUpTo25MB: 20_000,
  pdfCompressUpTo200MB: 40_000,
  pdfVerifyQuality: 5_000,
  pdfAnalyze: 0,
  // A placeholder of a file the account already holds: its cost is one ≤100 px render, and pages
  // ask for one per image, so it is free like analysis.
  imagePlaceholder: 0,
  xlsxFile: 5_000,
  xlsxPerThousandCells: 20,
  // Durable files, per GB (10^9 bytes) kept for a month of 30 days: R2's own $0.015.
  storagePerGbMonth: 15_000,
} as const;

export const PDF_SMALL_TIER_BYTES = 25 * 1024 * 1024;

import { operations } from "./operations.ts";

export { operations, type Operation } from "./operations.ts";

/** Durable storage is charged daily under its own name, beside the operations, in the ledger and usage. */
export const STORAGE_CHARGE = "files.storage";

/** Everything a ledger row can pay for. */
export const chargeables = [...operations, STORAGE_CHARGE] as const;
export type Chargeable = (typeof chargeables)[number];

const BYTES_PER_GB = 1_000_000_000n;
const DAYS_PER_MONTH = 30n;

/**
 * One account's durable storage for one UTC day: bytes × 15,000 micros ÷ (10^9 bytes × 30 days),
 * rounded UP to the whole micro-dollar (so any stored byte costs at least 1 micro a day, and 1 GB
 * costs exactly 500). The day's bytes are those the first sweep of the day counts. Computed in
 * BigInt so no byte count loses precision.
 */
export function storageDayPrice(durableBytes: number): number {
  if (!Number.isSafeInteger(durableBytes) || durableBytes < 0) throw new RangeError(`durable bytes must be a non-negative integer: ${durableBytes}`);
  const numerator = BigInt(durableBytes) * BigInt(prices.storagePerGbMonth);
  const denominator = BYTES_PER_GB * DAYS_PER_MONTH;
  return Number((numerator + denominator - 1n) / denominator);
}

/** An image costs nothing when the output is not smaller than its source. */
export function imagePrice(result: { originalBytes: number; outputBytes: number }): number {
  return result.outputBytes < result.originalBytes ? prices.image : 0;
}

/** The edge computing a derivative for the first time; cache and R2 hits never reach this. */
export function transformPrice(): number {
  return prices.transform;
}

export function pdfCompressPrice(result: {
  inputBytes: number;
  madeSmaller: boolean;
  verifyQuality: boolean;
}): number {
  if (!result.madeSmaller) return 0;
  const base = result.inputBytes <= PDF_SMALL_TIER_BYTES ? prices.pdfCompressUpTo25MB : prices.pdfCompressUpTo200MB;
  return base + (result.verifyQuality ? prices.pdfVerifyQuality : 0);
}

/** The highest price a PDF compress of this size can cost: what the balance must cover up front. */
export function pdfCompressCeiling(inputBytes: number, verifyQuality: boolean): number {
  return pdfCompressPrice({ inputBytes, madeSmaller: true, verifyQuality });
}

/** 5,000 micros a file plus 20 micros per 1,000 cells, pro-rated and rounded up to the micro. */
export function xlsxPrice(cells: number): number {
  return prices.xlsxFile + Math.ceil((cells * prices.xlsxPerThousandCells) / 1000);
}

/** Integer micro-dollars as dollars: exact to the micro, without trailing zeros past the cents. */
export function formatMicros(micros: number): string {
  const sign = micros < 0 ? "-" : "";
  const abs = Math.abs(micros);
  const dollars = Math.floor(abs / MICROS_PER_DOLLAR);
  const fraction = String(abs % MICROS_PER_DOLLAR).padStart(6, "0").replace(/0{1,4}$/, "");
  return `${sign}$${dollars}.${fraction.padEnd(2, "0")}`;
}
