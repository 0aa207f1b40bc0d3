// HEIC test inputs made at run time: sharp makes the pixels, Debian's `heif-enc` (libheif-examples)
// encodes HEVC. heif-enc 1.15 writes one image per input and neither grids nor rotations, so a
// phone's layout is assembled here from its output: the picture cut into tiles, each tile an
// image item, a `grid` item over them as the primary, and optionally `irot` with the EXIF
// orientation a phone writes beside it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { boxes, child, metaBox } from "../foreign-source/heif-boxes.ts";
import { heifItems } from "../foreign-source/heif-items.ts";

export function heifEncPresent(): boolean {
  return spawnSync("heif-enc", ["--help"], { stdio: "ignore" }).error === undefined;
}

/** `heif-enc args… image.png…` over the given PNGs, one image item each, in order. */
export function heifEnc(pngs: Uint8Array[], args: string[] = []): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), "pixelpress-heif-enc-"));
  try {
    const inputs = pngs.map((png, i) => {
      const file = join(dir, `in-${i}.png`);
      writeFileSync(file, png);
      return file;
    });
    const output = join(dir, "out.heic");
    const run = spawnSync("heif-enc", [...args, "-o", output, ...inputs], { encoding: "utf8" });
    if (run.error || run.status !== 0) throw new Error(`heif-enc failed: ${run.error?.message ?? run.stderr}`);
    return new Uint8Array(readFileSync(output));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface CodedImage {
  hvcC: Uint8Array;
  data: Uint8Array;
}

/** The HEVC configuration and coded bytes of each image item heif-enc wrote, in item order. */
function codedImages(heic: Uint8Array): CodedImage[] {
  return [...heifItems(heic).items.values()].flatMap((item) => {
    const hvcC = item.properties.find((box) => box.type === "hvcC");
    return item.type === "hvc1" && hvcC && item.data ? [{ hvcC: heic.slice(hvcC.at, hvcC.end), data: item.data.slice() }] : [];
  });
}

const u8 = (value: number) => [value & 0xff];
const u16 = (value: number) => [(value >> 8) & 0xff, value & 0xff];
const u32 = (value: number) => [...u16(value >>> 16), ...u16(value & 0xffff)];
const fourcc = (type: string) => [...Buffer.from(type, "latin1")];

function box(type: string, ...content: (number[] | Uint8Array)[]): Uint8Array {
  const body = Buffer.concat(content.map((part) => Buffer.from(part)));
  return Buffer.concat([Buffer.from([...u32(8 + body.byteLength), ...fourcc(type)]), body]);
}
const fullBox = (type: string, version: number, flags: number, ...content: (number[] | Uint8Array)[]) =>
  box(type, [version, ...u16(flags >> 8).slice(0, 1), ...u16(flags & 0xffff)], ...content);

export interface HeicLayout {
  /** The picture is cut into tiles of this size (a phone uses 512). */
  tile: number;
  /** EXIF orientation to display the stored pixels with: 1 (none), 3, 6 or 8; written as `irot` and as EXIF. */
  orientation?: 1 | 3 | 6 | 8;
}

// EXIF orientation → irot's angle, in quarter turns anticlockwise.
const QUARTER_TURNS = { 1: 0, 3: 2, 6: 3, 8: 1 } as const;

function exifWithOrientation(orientation: number): Uint8Array {
  // A big-endian TIFF header and one IFD holding the Orientation tag (0x0112, SHORT).
  const tiff = [...fourcc("MM"), ...u16(42), ...u32(8), ...u16(1), ...u16(0x0112), ...u16(3), ...u32(1), ...u16(orientation), ...u16(0), ...u32(0)];
  return new Uint8Array([...u32(0), ...tiff]);
}

/**
 * `pixels` (any opaque image sharp reads) as a grid HEIC the way phones write one: tiles of `layout.tile`
 * pixels (the picture padded to whole tiles, the grid cropping back), heif-enc `args` per tile.
 */
export async function gridHeic(pixels: Uint8Array, layout: HeicLayout, args: string[] = []): Promise<Uint8Array> {
  const { width, height } = await sharp(pixels).metadata();
  const columns = Math.ceil(width / layout.tile);
  const rows = Math.ceil(height / layout.tile);
  // Opaque: heif-enc would add each tile's alpha plane as another image.
  const padded = await sharp(pixels).removeAlpha().extend({ right: columns * layout.tile - width, bottom: rows * layout.tile - height, extendWith: "copy" }).png().toBuffer();
  const tiles: Uint8Array[] = [];
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      const region = { left: column * layout.tile, top: row * layout.tile, width: layout.tile, height: layout.tile };
      tiles.push(new Uint8Array(await sharp(padded).extract(region).png().toBuffer()));
    }
  }
  const coded = codedImages(heifEnc(tiles, args));
  if (coded.length !== tiles.length) throw new Error(`heif-enc wrote ${coded.length} images for ${tiles.length} tiles`);
  return assemble(coded, { columns, rows, width, height }, layout);
}

function assemble(tiles: CodedImage[], grid: { columns: number; rows: number; width: number; height: number }, layout: HeicLayout): Uint8Array {
  const orientation = layout.orientation ?? 1;
  const gridId = tiles.length + 1;
  const exifId = tiles.length + 2;
  const gridData = new Uint8Array([0, 0, grid.rows - 1, grid.columns - 1, ...u16(grid.width), ...u16(grid.height)]);
  const exif = exifWithOrientation(orientation);
  // The grid's own bytes in idat (iloc construction method 1), as an iPhone writes them; the rest in mdat.
  const payloads = [...tiles.map((tile, i) => ({ id: i + 1, data: tile.data })), { id: exifId, data: exif }];
  // One hvcC per distinct configuration (heif-enc writes the same one for same-sized tiles), as a phone does.
  const configurations = [...new Set(tiles.map((tile) => Buffer.from(tile.hvcC).toString("latin1")))];
  const properties = [
    ...configurations.map((configuration) => Buffer.from(configuration, "latin1")),
    fullBox("ispe", 0, 0, u32(layout.tile), u32(layout.tile)),
    fullBox("ispe", 0, 0, u32(grid.width), u32(grid.height)),
    box("irot", u8(QUARTER_TURNS[orientation])),
  ];
  if (properties.length > 127) throw new Error(`${configurations.length} distinct tile configurations: more than ipma's 7-bit indices hold`);
  const tileIspe = configurations.length + 1;
  const configurationOf = (tile: CodedImage) => configurations.indexOf(Buffer.from(tile.hvcC).toString("latin1")) + 1;
  const ipma = fullBox(
    "ipma",
    0,
    0,
    u32(tiles.length + 1),
    ...tiles.map((tile, i) => [...u16(i + 1), 2, 0x80 | configurationOf(tile), tileIspe]),
    [...u16(gridId), 2, tileIspe + 1, 0x80 | (tileIspe + 2)],
  );
  const items = [...tiles.map((_, i) => ({ id: i + 1, type: "hvc1", hidden: true })), { id: gridId, type: "grid", hidden: false }, { id: exifId, type: "Exif", hidden: true }];
  const iinf = fullBox("iinf", 0, 0, u16(items.length), ...items.map((item) => fullBox("infe", 2, item.hidden ? 1 : 0, u16(item.id), u16(0), fourcc(item.type), [0])));
  const iref = fullBox("iref", 0, 0, box("dimg", u16(gridId), u16(tiles.length), ...tiles.map((_, i) => u16(i + 1))), box("cdsc", u16(exifId), u16(1), u16(gridId)));
  const buildMeta = (mdatStart: number) => {
    let offset = mdatStart + 8;
    // Version 1: each entry names its construction method (0: in the file, 1: in idat).
    const iloc = fullBox(
      "iloc",
      1,
      0,
      [0x44, 0x00],
      u16(payloads.length + 1),
      ...payloads.map(({ id, data }) => {
        const entry = [...u16(id), ...u16(0), ...u16(0), ...u16(1), ...u32(offset), ...u32(data.byteLength)];
        offset += data.byteLength;
        return entry;
      }),
      [...u16(gridId), ...u16(1), ...u16(0), ...u16(1), ...u32(0), ...u32(gridData.byteLength)],
    );
    const hdlr = fullBox("hdlr", 0, 0, u32(0), fourcc("pict"), u32(0), u32(0), u32(0), [0]);
    return fullBox("meta", 0, 0, hdlr, fullBox("pitm", 0, 0, u16(gridId)), iloc, iinf, iref, box("iprp", box("ipco", ...properties), ipma), box("idat", gridData));
  };
  const ftyp = box("ftyp", fourcc("heic"), u32(0), fourcc("mif1"), fourcc("heic"));
  // The meta's size does not depend on the offsets it holds: measure it once, then write it.
  const metaSize = buildMeta(0).byteLength;
  const meta = buildMeta(ftyp.byteLength + metaSize);
  return Buffer.concat([ftyp, meta, box("mdat", ...payloads.map(({ data }) => data))]);
}

/** The items of a HEIC, for a test to check what it built: each item's type and hidden flag. */
export function heicItems(heic: Uint8Array): { type: string; hidden: boolean }[] {
  const meta = metaBox(heic);
  const iinf = meta && child(heic, meta, "iinf", 4);
  if (!iinf) return [];
  return [...boxes(heic, iinf.start + 6, iinf.end)].map((infe) => ({ type: String.fromCharCode(...heic.subarray(infe.start + 8, infe.start + 12)), hidden: (heic[infe.start + 3]! & 1) === 1 }));
}
