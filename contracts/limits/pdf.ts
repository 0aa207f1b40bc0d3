// The largest PDF either tier takes: the edge refuses a bigger source before storing it, the
// origin before opening it. Pricing's size tiers sit below it.
export const PDF_MAX_BYTES = 200 * 1024 * 1024;
