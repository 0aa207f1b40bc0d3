// Limits on an animation made into a video (f_mp4, f_webm), checked from the source's header before
// a frame is decoded, on top of the animation limits (animation.ts). Every frame is encoded within
// the transform call's deadline (contracts/operations.ts, 15 s and more for a GIF of a few MB),
// where ffmpeg is killed if it is not done. A 40 MP GIF (150 frames of 640x421) took 3 to 6 s as
// MP4 and 8 to 10 s as WebM end to end, on a 2-core machine under a load of 11 (npm run
// bench:image -- --part video): 50 MP keeps VP9 inside the deadline. The duration is a minute of playback.
export const VIDEO_LIMITS = {
  max_frames: 1000,
  max_total_pixels: 50_000_000,
  max_duration_ms: 60_000,
} as const;

/** The limits as the token's documentation says them. */
export const VIDEO_LIMITS_IN_WORDS = `${VIDEO_LIMITS.max_frames} frames, ${VIDEO_LIMITS.max_total_pixels / 1_000_000} MP across them and ${VIDEO_LIMITS.max_duration_ms / 1000} s of playback (else 413 \`image_too_large\`)`;
