import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const migrations = await readD1Migrations("migrations");

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: migrations,
                ORIGIN_SECRET: "test-origin-secret",
                SIGNING_SECRET: "test-signing-secret",
              },
            },
          }),
        ],
        test: {
          name: "edge",
          include: ["workers/**/*.test.ts"],
          setupFiles: ["workers/test-support/apply-migrations.ts"],
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
