// A mirror asked for by the caller (transform `fl_`), after the rotation. sharp runs flip and flop
// before rotate in one pipeline whatever the call order, so on a still image a mirror after a
// quarter turn is asked for as the other mirror before it. An animation's frames are turned one
// by one into new frames first (rotate.ts), so theirs are mirrored as asked.
import type { Sharp } from "sharp";
import type { Flip } from "../../contracts/transform/token-values.ts";
import { eachFrame, type ImageStep } from "./image-step.ts";

function mirror(image: Sharp, direction: Flip): Sharp {
  if (direction !== "v") image.flop();
  if (direction !== "h") image.flip();
  return image;
}

const ACROSS_A_QUARTER_TURN: Record<Flip, Flip> = { h: "v", v: "h", hv: "hv" };

export function flip(direction: Flip | undefined, rotate: number): ImageStep {
  return async (work) => {
    if (direction === undefined) return;
    if (work.animation !== null) await eachFrame(work, (frame) => mirror(frame, direction));
    else mirror(work.image, rotate % 180 === 0 ? direction : ACROSS_A_QUARTER_TURN[direction]);
  };
}
