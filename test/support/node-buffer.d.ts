// The scripts project (scripts/, test/) loads Node's types and, for miniflare's bindings,
// Cloudflare's workers-types. Its `declare var Buffer: any` is a global script, which TypeScript
// merges before Node's `declare global` augmentation, so Buffer would be `any` here. Every file of
// this project runs in Node: its Buffer is Node's. The first declaration fixes the type.
declare var Buffer: BufferConstructor;
