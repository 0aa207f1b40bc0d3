// Limits on an animated source (GIF or WebP with more than one frame) whose frames a call keeps,
// counted from the header before a frame is decoded; a call taking the first frame is held to the
// still-image limits only. Every frame is held decoded at once (libvips stacks them into one
// tall image), so the pixel limit is over all frames: 100 MP keeps that stack under about
// 400 MB of RGBA, the same budget as one still image. 1000 frames is 40 s at 25 fps.
export const ANIMATION_LIMITS = {
  max_frames: 1000,
  max_total_pixels: 100_000_000,
} as const;
