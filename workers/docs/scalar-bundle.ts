// The reference page loads Scalar's standalone UMD bundle at this pinned version, so the page a
// reader sees does not change under us; the browser test serves the same file offline.
export const SCALAR_API_REFERENCE_VERSION = "1.72.1";
export const SCALAR_BUNDLE_URL = `https://cdn.jsdelivr.net/npm/@scalar/api-reference@${SCALAR_API_REFERENCE_VERSION}/dist/browser/standalone.js`;
