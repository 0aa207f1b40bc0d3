// Cloudflare's published limits the capacity model holds measured costs against (looked up
// 2026-11-29, the team's runtime notes, "Scale, detection, video"). None of these is measured here.
export const PUBLISHED_LIMITS = {
  /** A D1 database runs one query at a time: about 1,000 a second at 1 ms each. */
  d1StatementsPerSecond: 1_000,
  /** A Durable Object is single-threaded: a soft limit of about 1,000 requests a second. */
  durableObjectRequestsPerSecond: 1_000,
  /** One queue takes about 5,000 messages a second. */
  queueMessagesPerSecond: 5_000,
  /** The largest Containers instance type. */
  containerInstanceVcpu: 4,
  /** vCPU one account may run across all its container instances. */
  accountVcpu: 1_500,
  /** CPU a Worker request may spend (the paid plan's default; configurable up to 5 minutes). */
  workerCpuMsPerRequest: 30_000,
} as const;
