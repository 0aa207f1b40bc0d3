// The value sets, ranges and defaults of the transform tokens, and the shape of the operation a
// transform resolves to. Plain data with no schema import: the registry (registry.ts) declares each
// token over these, and the browser URL builder, the console and the origin contract read them.
import { PDF_MAX_PAGES } from "../limits/pdf.ts";
import { OUTPUT_FORMAT_ALIAS_NAMES } from "../output-format-aliases.ts";
import { DEFAULT_QUALITY_LEVEL, type AutoQuality, type QualityLevel } from "../perceptual-quality.ts";

export const MAX_OUTPUT_SIDE = 8192;
export const MAX_OUTPUT_PIXELS = 40_000_000;
// A real transform is well under 100 characters; the cap keeps hostile segments cheap to refuse.
export const MAX_TRANSFORM_LENGTH = 512;

// `f_mp4` and `f_webm`: an animated source as a video (H.264 in MP4, VP9 in WebM), made at the origin.
export const VIDEO_FORMATS = ["mp4", "webm"] as const;
export type VideoFormat = (typeof VIDEO_FORMATS)[number];
export const formatTokenValues = [...OUTPUT_FORMAT_ALIAS_NAMES, "jpeg", "webp", "avif", "png", "auto", ...VIDEO_FORMATS] as const;
// `f_json`: the source's facts as JSON instead of an image (contracts/origin/image-facts.ts).
export const FACTS_FORMAT = "json";
export const fitValues = ["inside", "cover", "contain", "fill"] as const;
// Long compass names, the same strings sharp takes as `position`, so the origin maps them 1:1.
export const gravityValues = [
  "center",
  "north",
  "northeast",
  "east",
  "southeast",
  "south",
  "southwest",
  "west",
  "northwest",
  "auto",
  "face",
  "faces",
] as const;
// Where an overlay (l_) sits on the output: the compass names without `auto`, which only a crop has.
export const overlayGravityValues = ["center", "north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"] as const;
// `auto` applies the EXIF orientation; it is also what happens without `r_`. The angles
// rotate clockwise after the EXIF orientation has been applied.
export const rotateValues = ["auto", "90", "180", "270"] as const;
// Mirror left-right (h), top-bottom (v) or both (hv), after the rotation.
export const flipValues = ["h", "v", "hv"] as const;
export type Flip = (typeof flipValues)[number];
// Animation is kept by default; the token exists only to turn it off.
export const animValues = ["false"] as const;
// `lqip` serves the image's placeholder preview (a blurred WebP of at most 16 px a side) instead
// of the image: made at the origin, cached and billed like any derivative.
export const placeholderValues = ["lqip"] as const;

export const sizeRange = { min: 1, max: MAX_OUTPUT_SIDE } as const;
export const qualityRange = { min: 1, max: 100 } as const;
export const blurRange = { min: 0.3, max: 100 } as const;
export const sharpenRange = { min: 0.3, max: 10 } as const;
export const dprRange = { min: 1, max: 4 } as const;
// An overlay's width in percent of the output's, and its opacity in percent.
export const overlayWidthRange = { min: 1, max: 100 } as const;
export const overlayOpacityRange = { min: 0, max: 100 } as const;
// The same grammar as a file id (workers/crypto/ids.ts), with room for longer ids.
export const OVERLAY_FILE_ID = /^file_[A-Za-z0-9]{1,64}$/;
// Pages count from 1, up to the most pages a PDF may have.
export const pageRange = { min: 1, max: PDF_MAX_PAGES } as const;
// A crop rectangle's corner and size in source pixels: libvips' and the codecs' widest side.
export const cropOffsetRange = { min: 0, max: 65_535 } as const;
export const cropSizeRange = { min: 1, max: 65_535 } as const;
// How far a border pixel may differ from the corner's colour and still be trimmed, in percent of the channel range.
export const trimRange = { min: 0, max: 100 } as const;
// Brightness, contrast and saturation in percent either way of the picture's own (0: unchanged).
export const colourAdjustRange = { min: -100, max: 100 } as const;
// A gamma exponent: above 1 lightens the mid-tones, below 1 darkens them; 1 changes nothing.
export const gammaRange = { min: 0.1, max: 10 } as const;
export const DEFAULT_GAMMA = 1;
// `bg_<RRGGBB>`: six hex digits, either case; lower case is the one spelling.
export const BACKGROUND_HEX = /^[0-9a-fA-F]{6}$/;
// The one spelling the resolved operation and the origin's options hold.
export const BACKGROUND_LOWER_HEX = /^[0-9a-f]{6}$/;
// The background where none is asked for a JPEG (its padding and its flattened transparency).
export const DEFAULT_JPEG_BACKGROUND = "ffffff";
/** A PDF page drawn without a size asked: imgproxy's and most viewers' resolution. */
export const PDF_PAGE_DPI = 150;
// Decimal values take at most this many fraction digits, so near-identical sigmas
// cannot mint unbounded distinct derivatives.
export const MAX_FRACTION_DIGITS = 2;
// HMAC-SHA256 truncated to 16 bytes (128 bits), base64url without padding.
export const SIGNATURE_LENGTH = 22;
// A preset's name (`t_<name>`, POST /v1/presets): no comma or slash, so it sits in a token and a path segment as it is.
export const PRESET_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,39}$/;
export const PRESET_NAME_RULE = "1 to 40 lower-case letters, digits, _ or -, starting with a letter or digit";

export const OUTPUT_FORMATS = ["jpeg", "webp", "avif", "png"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
export type FormatChoice = OutputFormat | "auto";
export type Fit = (typeof fitValues)[number];
export type Gravity = (typeof gravityValues)[number];
export type Rotation = 90 | 180 | 270;
export type PlaceholderKind = (typeof placeholderValues)[number];
export type OverlayGravity = (typeof overlayGravityValues)[number];

/** A rectangle in source pixels (after the EXIF orientation, before `r_`): `crop_<x>x<y>x<width>x<height>`. */
export interface CropRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where a cover crop centres, in fractions of the picture's width and height from its top left: `g_<x>x<y>`. */
export interface FocalPoint {
  x: number;
  y: number;
}

export const focalRange = { min: 0, max: 1 } as const;

// The face-aware tokens (origin/image/faces/): the gravities a detection centres a cover crop on
// (`auto` uses the faces when there are any), the zoom towards them, and the effects on the faces.
export const FACE_GRAVITIES: readonly Gravity[] = ["face", "faces", "auto"];
export const zoomRange = { min: 1, max: 10 } as const;
// What a face's box grows by on each side, as a fraction of its size, where a zoom or an effect uses it: the box is the face's, not the head's.
export const FACE_MARGIN = 0.2;
export const faceEffectValues = ["blur_faces", "pixelate_faces"] as const;
export type FaceEffectKind = (typeof faceEffectValues)[number];
// e_blur_faces's strength: the blur's sigma in hundredths of half the face box's shorter side.
export const faceBlurRange = { min: 1, max: 100 } as const;
export const DEFAULT_FACE_BLUR = 50;
// e_pixelate_faces's size: a block's side in the picture's pixels before the resize (default: a tenth of the face's shorter side).
export const pixelateRange = { min: 2, max: 200 } as const;

/** `e_blur_faces[:<strength>]`, `e_pixelate_faces[:<size>]`: `amount` undefined for pixelate's own default. */
export interface FaceEffect {
  kind: FaceEffectKind;
  amount?: number;
}

/** The compass names that are focal points too: a crop centred as near as it can be to a corner or an edge's middle is the crop at that compass point. */
export const COMPASS_FOCAL_POINTS: readonly (readonly [Exclude<Gravity, "auto">, FocalPoint])[] = [
  ["center", { x: 0.5, y: 0.5 }],
  ["north", { x: 0.5, y: 0 }],
  ["northeast", { x: 1, y: 0 }],
  ["east", { x: 1, y: 0.5 }],
  ["southeast", { x: 1, y: 1 }],
  ["south", { x: 0.5, y: 1 }],
  ["southwest", { x: 0, y: 1 }],
  ["west", { x: 0, y: 0.5 }],
  ["northwest", { x: 0, y: 0 }],
];

export function focalValue(point: FocalPoint): string {
  return `${point.x}x${point.y}`;
}

export function cropValue(crop: CropRect): string {
  return `${crop.x}x${crop.y}x${crop.width}x${crop.height}`;
}

// What a transform does without the token; canonicalTransform drops tokens equal to these.
export const DEFAULT_QUALITY = 76;
export const DEFAULT_FIT: Fit = "inside";
export const DEFAULT_GRAVITY: Gravity = "center";
// Centred, as Cloudinary, imgproxy and Cloudflare place an overlay without a position.
export const DEFAULT_OVERLAY_GRAVITY: OverlayGravity = "center";
export const DEFAULT_OVERLAY_OPACITY = 100;

// A fixed encoder quality, or q_auto's level: the origin searches the lowest quality reaching its score.
export type TransformQuality = number | { auto: QualityLevel };

export interface TransformOverlay {
  fileId: string;
  gravity: OverlayGravity;
  /** Percent of the output's width; undefined keeps the overlay's own size (shrunk to fit the output). */
  width?: number;
  /** Percent, 1 to 100: an overlay at 0 changes nothing and is folded away. */
  opacity: number;
}

/** A quality as q_'s one spelling of it: `auto` for the default level (`auto:good` is its alias), as Cloudinary writes it. */
export function qualityValue(quality: TransformQuality): number | AutoQuality {
  if (typeof quality === "number") return quality;
  return quality.auto === DEFAULT_QUALITY_LEVEL ? "auto" : `auto:${quality.auto}`;
}
