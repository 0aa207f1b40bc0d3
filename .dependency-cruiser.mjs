// The tier boundary (docs/architecture.md): contracts/ is the only code the edge and the origin
// share; the client and the CLI see the service only through contracts/ and the generated types.
// `npm run check:boundaries` (run by .ci/run) fails on any import that crosses it.
import { builtinModules } from "node:module";

const tiers = "^(contracts|workers|origin|clients|cli|console)/";
// The checker names a Node built-in without its `node:` prefix (`crypto`, `fs/promises`).
const nodeBuiltin = `^(node:)?(${builtinModules.join("|")})$`;
const zod = "^(zod|@hono/zod-openapi)$|node_modules/(zod|@hono/zod-openapi|@asteasolutions/zod-to-openapi)/";

// Rooms of workers/ that sit below others: no import runs from a room up to one above it.
const workerRoomsBelow = [
  {
    name: "derivative-rooms-below-their-users",
    comment: "The derivative store, the isolate memo and R2 objects are rooms below files/, origins/, presets/ and the transform path: no arrow runs back up to them.",
    rooms: "^workers/(derivatives|memo|objects)/",
    above: "^workers/(transform|files|origins|presets|middleware|routes)/",
  },
  {
    name: "sources-below-the-transform-path",
    comment: "files/, origins/ and presets/ are what a transform reads; they never import the transform path (workers/transform/).",
    rooms: "^workers/(files|origins|presets)/",
    above: "^workers/transform/",
  },
  {
    name: "origins-below-files",
    comment: "A file's deletion names its derivatives' cache entries through origins/ (derivative-cache-urls.ts), so origins/ never imports files/.",
    rooms: "^workers/origins/",
    above: "^workers/files/",
  },
];

/** @type {import("dependency-cruiser").IConfiguration} */
export default {
  forbidden: [
    {
      name: "contracts-import-nothing-local",
      comment: "contracts/ is imported by every tier, so it imports none of them.",
      severity: "error",
      from: { path: "^contracts/" },
      to: { path: tiers, pathNot: "^contracts/" },
    },
    {
      name: "origin-imports-only-contracts",
      comment: "The origin is a separate process: it shares code with the edge only through contracts/.",
      severity: "error",
      from: { path: "^origin/" },
      to: { path: tiers, pathNot: "^(origin|contracts)/" },
    },
    {
      name: "edge-never-imports-origin",
      comment: "The edge reaches the origin over HTTP (workers/origin/origin-client.ts), never by import.",
      severity: "error",
      from: { path: "^workers/" },
      to: { path: tiers, pathNot: "^(workers|contracts)/" },
    },
    {
      name: "clients-import-only-contracts",
      comment: "The typed client and the CLI see the service through contracts/ and the generated types only.",
      severity: "error",
      from: { path: "^(clients|cli)/" },
      to: { path: tiers, pathNot: "^(clients|cli|contracts)/" },
    },
    {
      name: "console-imports-only-contracts-and-client-types",
      comment: "The console is a page of the public API: it reaches the service over HTTP, sharing only contracts/ and the client's browser-safe code.",
      severity: "error",
      from: { path: "^console/" },
      to: { path: tiers, pathNot: "^(console|contracts|clients/ts)/" },
    },
    {
      name: "console-never-signs",
      comment: "The console never holds a signing secret: it asks the API to sign.",
      severity: "error",
      from: { path: "^console/" },
      to: { path: "^contracts/transform/signature[.]ts$", reachable: true },
    },
    {
      name: "browser-client-never-signs",
      comment: "Signing URLs and verifying webhooks need a secret: only the server entry point (clients/ts/server.ts) may reach that code, never the browser one.",
      severity: "error",
      from: { path: "^clients/ts/(index|images)[.]ts$" },
      to: { path: "^contracts/(transform|webhooks)/signature[.]ts$", reachable: true },
    },
    {
      name: "browser-images-entry-plain",
      comment: "The browser entry (@pixelpress/client/images) must stay small and run anywhere: nothing it reaches may import zod (or the OpenAPI layer over it), the whole problem catalogue or a Node built-in.",
      severity: "error",
      from: { path: "^clients/ts/images[.]ts$" },
      to: { path: `${zod}|${nodeBuiltin}|^contracts/problems/catalogue[.]ts$`, reachable: true },
    },
    ...workerRoomsBelow.map(({ name, comment, rooms, above }) => ({ name, comment, severity: "error", from: { path: rooms }, to: { path: above } })),
    {
      name: "no-circular",
      comment: "No import cycles: a module and what it imports form a tree, so each can be read, tested and replaced from the bottom up.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-unresolvable-imports",
      comment: "An import the checker cannot resolve is one it cannot judge; workerd's built-in modules are the exception.",
      severity: "error",
      from: { path: tiers },
      to: { couldNotResolve: true, pathNot: "^cloudflare:" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: [".ts", ".js", ".mjs", ".json"],
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "workerd", "default", "types"],
      mainFields: ["module", "main", "types"],
    },
  },
};
