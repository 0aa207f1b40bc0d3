#!/usr/bin/env bash
# The packages as a user gets them (issue 27): `npm pack --workspaces` (each package's prepack
# builds it), install the tarballs into a scratch app outside the repository with the stock `node` and `npm` on PATH (Node 20 in
# CI), then type-check a consumer under strict tsc (nodenext and bundler, no
# allowImportingTsExtensions, library .d.ts checked too), run every entry point with plain node,
# run a script with plain node against a running edge + origin pair,
# bundle the browser images entry with esbuild against its size budget, and run `npx pixelpress --help`.
# The install reaches only the npm registry (openapi-fetch, and unpic as @pixelpress/unpic's peer).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
consumer="$repo/scripts/package-consumer"
images_budget_bytes=10240

tarballs="$(mktemp -d)"
app="$(mktemp -d)"
trap 'rm -rf "$tarballs" "$app"' EXIT
(cd "$repo" && npm pack --workspaces --silent --pack-destination "$tarballs" >/dev/null)

cd "$app"
echo '{ "name": "pixelpress-scratch-app", "private": true, "type": "module" }' > package.json
npm install --no-audit --no-fund --loglevel=error "$tarballs"/*.tgz
cp "$consumer/consumer.ts" "$consumer/smoke.mjs" "$consumer/live.mjs" "$consumer/images-bundle.mjs" .

for resolution in nodenext bundler; do
  module=$([ "$resolution" = nodenext ] && echo nodenext || echo esnext)
  cat > "tsconfig.$resolution.json" <<JSON
{ "compilerOptions": { "strict": true, "noEmit": true, "skipLibCheck": false, "exactOptionalPropertyTypes": true,
    "target": "ES2022", "lib": ["ES2022", "DOM"], "types": [],
    "module": "$module", "moduleResolution": "$resolution" }, "files": ["consumer.ts"] }
JSON
  node "$repo/node_modules/typescript/bin/tsc" -p "tsconfig.$resolution.json"
done

node smoke.mjs
# The installed client against the real service: the pair starts on the repository's pinned Node
# (its scripts and wrangler need Node 22, first on PATH as under `npm run`), the script on the stock
# `node` this shell found.
stock_node="$(command -v node)"
PATH="$repo/node_modules/.bin:$PATH" node "$repo/scripts/with-service-pair.ts" -- "$stock_node" live.mjs

"$repo/node_modules/.bin/esbuild" images-bundle.mjs --bundle --minify --platform=browser --format=esm --log-level=warning --outfile=images-bundle.js
gzipped=$(node -e 'process.stdout.write(String(require("node:zlib").gzipSync(require("node:fs").readFileSync("images-bundle.js")).byteLength))')
echo "@pixelpress/client/images bundled for the browser: $(wc -c < images-bundle.js) bytes minified, $gzipped gzipped (budget $images_budget_bytes)"
if [ "$gzipped" -gt "$images_budget_bytes" ]; then
  echo "@pixelpress/client/images is over its size budget" >&2
  exit 1
fi
if grep -q -e "zod" -e "ZodError" images-bundle.js; then
  echo "@pixelpress/client/images bundles zod" >&2
  exit 1
fi

npx --no-install pixelpress --help | grep -q "^Usage: pixelpress <command>"
echo "packages: installed on Node $(node --version), type-checked (nodenext, bundler), entry points run, npx pixelpress --help works"
