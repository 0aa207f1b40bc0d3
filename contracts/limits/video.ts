// Limits on an animation made into a video (f_mp4, f_webm), checked from the source's header before
// a frame is decoded, on top of the animation limits (animation.ts). Every frame is encoded within
// the transform call's deadline (contracts/operations.ts, about 15 s for a GIF of a few MB), where
// ffmpeg is killed if it is not done: the pixel limit is what H.264 and VP9 encode in well under
// that on one origin core (npm run bench:image, "video" rows), the duration a minute of playback.
export const VIDEO_LIMITS = {
  max_frames: 1000,
  max_total_pixels: 50_000_000,
  max_duration_ms: 60_000,
} as const;

/** The limits as the token's documentation says them. */
export const VIDEO_LIMITS_IN_WORDS = `${VIDEO_LIMITS.max_frames} frames, ${VIDEO_LIMITS.max_total_pixels / 1_000_000} MP across them and ${VIDEO_LIMITS.max_duration_ms / 1000} s of playback (else 413 \`image_too_large\`)`;
