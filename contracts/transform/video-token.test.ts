import { describe, expect, it } from "vitest";
import { canonicalTransform, resolveTransform } from "./canonical.ts";
import { originTransformOptions, originTransformReplySchema } from "../origin/image-transform.ts";
import { derivativeContentTypes } from "./output-format.ts";
import { edgeAppliesAll } from "./registry.ts";
import { parseTransform } from "./tokens.ts";

const canonical = (segment: string) => canonicalTransform(parseTransform(segment));
const resolved = (segment: string) => resolveTransform(parseTransform(segment));

describe("f_mp4 and f_webm", () => {
  it("parse as a video, not an image format, and stay in the canonical transform", () => {
    expect(resolved("w_320,f_mp4")).toMatchObject({ video: "mp4", format: undefined, width: 320 });
    expect(canonical("f_webm,w_320")).toBe("w_320,f_webm");
    expect(canonical("f_mp4")).not.toBe(canonical("f_webm"));
  });

  it("go to the origin, whatever the other tokens", () => {
    expect(edgeAppliesAll(resolved("w_320,f_mp4"))).toBe(false);
    expect(edgeAppliesAll(resolved("f_webm"))).toBe(false);
    expect(edgeAppliesAll(resolved("w_320,f_webp"))).toBe(true);
  });

  it("fold away what cannot change a video: q_, anim_false and a white background", () => {
    expect(canonical("f_mp4,q_40")).toBe("f_mp4");
    expect(canonical("f_mp4,q_auto")).toBe("f_mp4");
    expect(canonical("f_mp4,anim_false")).toBe("f_mp4");
    expect(canonical("f_mp4,bg_ffffff")).toBe("f_mp4");
    expect(canonical("f_mp4,bg_00FF00")).toBe("f_mp4,bg_00ff00");
  });

  it("yield to a placeholder, which is one still preview", () => {
    expect(canonical("ph_lqip,f_mp4")).toBe("ph_lqip");
  });

  it("reach the origin as the call's video, and come back as video content types", () => {
    expect(originTransformOptions(resolved("f_webm"), "source")).toMatchObject({ video: "webm", format_auto: false, animated: true });
    expect(originTransformOptions(resolved("f_jpeg"), "jpeg")).toMatchObject({ video: undefined });
    const reply = { width: 2, height: 2, size: 1, sha256: "0".repeat(64) };
    expect(originTransformReplySchema.parse({ ...reply, format: "mp4" }).format).toBe("mp4");
    expect([derivativeContentTypes.mp4, derivativeContentTypes.webm]).toEqual(["video/mp4", "video/webm"]);
  });
});
