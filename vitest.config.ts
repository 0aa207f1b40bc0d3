import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { TEST_ORIGIN_SECRET } from "./workers/test-support/global-origin.ts";

const migrations = await readD1Migrations("migrations");

export default defineConfig({
  test: {
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
                TEST_CORPUS_URL: inject("testCorpusUrl"),
                SIGNING_SECRET: "test-signing-secret",
                ENVIRONMENT: "development",
              },
            },
          })),
        ],
        test: {
          name: "edge",
          include: ["workers/**/*.test.ts"],
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
        },
      },
      {
        test: {
          name: "contracts",
          environment: "node",
          include: ["contracts/**/*.test.ts"],
        },
      },
      {
        test: {
          name: "origin",
          environment: "node",
          include: ["origin/**/*.test.ts"],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          environment: "node",
          include: ["test/**/*.test.ts"],
          globalSetup: ["test/support/global-pair.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
