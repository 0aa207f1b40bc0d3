import type { JobMessage } from "./jobs/job-message.ts";

// Every binding and variable the edge worker reads; wrangler.toml and .dev.vars supply them.
export interface Bindings {
  DB: D1Database;
  FILES: R2Bucket;
  JOBS: Queue<JobMessage>;
  ENVIRONMENT: string;
  ORIGIN_URL: string;
  ORIGIN_SECRET: string;
  SIGNING_SECRET: string;
  IMAGE_ALIAS_HOSTS: string;
  PDF_ALIAS_HOSTS: string;
  ALLOW_LOOPBACK_URLS: string;
  RATE_LIMIT_PER_MINUTE: string;
}
