// glibc gives every thread that allocates under contention a malloc arena of its own (up to eight
// per core) and hands little of it back: sharp's libvips threads spread each decoded image across
// those arenas, and the origin's RSS kept rising under mixed traffic (+90 MB in 90 s of images
// alone, measured) while its V8 heap stayed flat. Two arenas held the same traffic level at about
// half the RSS. glibc reads these variables before any JavaScript runs, so they cannot be set from
// inside the process: whatever starts the origin sets them (origin/Dockerfile, scripts/dev.ts, the soak).
export const ORIGIN_ALLOCATOR_ENV = { MALLOC_ARENA_MAX: "2" } as const;
