import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import { wasmModuleImports } from "./test/support/wasm-module-imports.ts";
import { TEST_ORIGIN_SECRET } from "./workers/test-support/global-origin.ts";

const migrations = await readD1Migrations("migrations");
// Tests over the real-world corpus outside the repository run only in the `corpus` project
// (`npm run test:corpus`); every other project generates its inputs and must pass without it.
const exclude = [...configDefaults.exclude, "**/*.corpus.test.ts"];

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores, which on a 2-core CI machine runs every
    // file one after another while most of them wait on workerd, the origin child or loopback I/O.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        plugins: [
          cloudflareTest(({ inject }) => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: migrations,
                ORIGIN_SECRET: TEST_ORIGIN_SECRET,
                ORIGIN_URL: inject("testOriginUrl"),
                TEST_GENERATED_FILES_URL: inject("testGeneratedFilesUrl"),
                SIGNING_SECRET: "test-signing-secret",
                PUBLIC_BASE_URL: "http://api.test",
                // Without CF_ZONE_ID and CF_API_TOKEN (a test sets its own) nothing is sent there.
                CF_API_BASE_URL: inject("testCloudflareApiUrl"),
                ENVIRONMENT: "development",
                // A shard feeds its ledger when a test runs its alarm (workers/billing/ledger-feed.test.ts),
                // not on its own a second after each charge, into a test file's runtime being torn down.
                LEDGER_FEED_DELAY_MS: "3600000",
              },
            },
          })),
        ],
        test: {
          name: "edge",
          include: ["workers/**/*.test.ts"],
          exclude,
          // Edge tests call the real origin (sharp, exceljs) on a shared 2-core machine.
          testTimeout: 30_000,
          setupFiles: ["workers/test-support/apply-migrations.ts"],
          globalSetup: ["workers/test-support/global-origin.ts"],
        },
      },
      {
        test: {
          name: "clients",
          environment: "node",
          include: ["clients/**/*.test.ts", "cli/**/*.test.ts"],
          exclude,
        },
      },
      {
        test: {
          name: "console",
          environment: "node",
          include: ["console/**/*.test.ts"],
          exclude,
        },
      },
      {
        test: {
          name: "contracts",
          environment: "node",
          // The documents' tests (docs/docs.test.ts) read them against contracts and code, in Node.
          include: ["contracts/**/*.test.ts", "docs/**/*.test.ts"],
          exclude,
        },
      },
      {
        test: {
          name: "origin",
          environment: "node",
          include: ["origin/**/*.test.ts"],
          exclude,
          testTimeout: 60_000,
        },
      },
      {
        // Both tiers' engines side by side in one Node process, to hold them to the same output;
        // the edge's WASM imports are compiled as wrangler would.
        plugins: [wasmModuleImports()],
        test: {
          name: "tiers",
          environment: "node",
          include: ["test/tiers/**/*.test.ts"],
          exclude,
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          environment: "node",
          include: ["test/**/*.test.ts"],
          exclude: [...exclude, "test/tiers/**"],
          globalSetup: ["test/support/global-pair.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: "corpus",
          environment: "node",
          include: ["{contracts,workers,origin}/**/*.corpus.test.ts"],
          // Fails the run, naming CORPUS_DIR, when the corpus is not there: a missing corpus is never a pass.
          globalSetup: ["test/support/require-corpus.ts"],
          testTimeout: 120_000,
        },
      },
    ],
  },
});
