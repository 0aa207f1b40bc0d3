// The reference page runs Scalar's standalone bundle at this pinned version (the devDependency
// @scalar/api-reference), served by this service under a path that names the version: the page
// works with no internet access and under a CSP that allows only its own origin, and the file at
// a path never changes, so it is cached as immutable. scripts/build-assets.ts puts it there.
export const SCALAR_API_REFERENCE_VERSION = "1.72.1";
export const SCALAR_BUNDLE_PATH = `/assets/scalar-api-reference-${SCALAR_API_REFERENCE_VERSION}.js`;
