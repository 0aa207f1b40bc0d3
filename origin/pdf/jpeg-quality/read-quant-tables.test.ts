import { describe, expect, it } from "vitest";
import { dqtSegment, jpegFromSegments, segment, sofSegment } from "./jpeg-header-fixture.ts";
import { encodePhotoLike } from "./photo-like-fixture.ts";
import { readQuantTables } from "./read-quant-tables.ts";

const ascending = Array.from({ length: 64 }, (_, i) => i + 1);
const wide = Array.from({ length: 64 }, (_, i) => 1000 + i * 300);

describe("readQuantTables", () => {
  it("reads several tables of both precisions from one DQT segment, in natural order", () => {
    const jpeg = jpegFromSegments(
      dqtSegment([
        { id: 0, precision: 8, naturalOrder: ascending },
        { id: 2, precision: 16, naturalOrder: wide },
      ]),
      sofSegment([0, 2, 2]),
    );
    const read = readQuantTables(jpeg);
    expect(read?.tables.get(0)).toEqual({ id: 0, precision: 8, values: ascending });
    expect(read?.tables.get(2)).toEqual({ id: 2, precision: 16, values: wide });
    expect(read?.componentTableIds).toEqual([0, 2, 2]);
  });

  it("places the bytes of a real DQT by zigzag position", async () => {
    const jpeg = await encodePhotoLike({ quality: 50 });
    const read = readQuantTables(jpeg);
    // Annex K luminance, natural row 1 column 0 is 12 and row 0 column 2 is 10: both
    // differ from their zigzag neighbours, so a row-major read would misplace them.
    expect(read?.tables.get(0)?.values[8]).toBe(12);
    expect(read?.tables.get(0)?.values[2]).toBe(10);
    expect(read?.componentTableIds).toEqual([0, 1, 1]);
  });

  it("lets a later DQT replace a slot and skips fill bytes before markers", () => {
    const jpeg = jpegFromSegments(
      dqtSegment([{ id: 0, precision: 8, naturalOrder: ascending }]),
      [0xff, 0xff, 0xff],
      dqtSegment([{ id: 0, precision: 8, naturalOrder: new Array(64).fill(7) }]),
    );
    expect(readQuantTables(jpeg)?.tables.get(0)?.values).toEqual(new Array(64).fill(7));
  });

  it("skips an EXIF thumbnail's tables inside APP1 and ignores tables after the first scan", () => {
    const thumbnail = jpegFromSegments(dqtSegment([{ id: 0, precision: 8, naturalOrder: new Array(64).fill(99) }]));
    const header = jpegFromSegments(segment(0xe1, [...thumbnail]), dqtSegment([{ id: 0, precision: 8, naturalOrder: ascending }]));
    const afterScan = dqtSegment([{ id: 1, precision: 8, naturalOrder: ascending }]);
    const read = readQuantTables(Uint8Array.from([...header.subarray(0, -2), ...afterScan]));
    expect(read?.tables.get(0)?.values).toEqual(ascending);
    expect(read?.tables.has(1)).toBe(false);
  });

  it("keeps the tables when the file is cut after its DQT", () => {
    const jpeg = jpegFromSegments(dqtSegment([{ id: 0, precision: 8, naturalOrder: ascending }]), sofSegment([0]));
    const cutInsideFrameHeader = jpeg.subarray(0, 2 + 69 + 5);
    expect(readQuantTables(cutInsideFrameHeader)?.tables.get(0)?.values).toEqual(ascending);
  });

  it.each([
    ["empty input", []],
    ["a PNG signature", [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
    ["a JPEG with no DQT", [...jpegFromSegments(sofSegment([0]))]],
    ["a DQT length past the end", [0xff, 0xd8, 0xff, 0xdb, 0xff, 0xff, 0x00, 1, 2, 3]],
    ["a DQT length below 2", [0xff, 0xd8, 0xff, 0xdb, 0x00, 0x01, 0xff, 0xd9]],
    ["an empty DQT", [0xff, 0xd8, ...segment(0xdb, []), 0xff, 0xd9]],
    ["precision code 2", [0xff, 0xd8, ...segment(0xdb, [0x20, ...ascending]), 0xff, 0xd9]],
    ["table slot 4", [0xff, 0xd8, ...segment(0xdb, [0x04, ...ascending]), 0xff, 0xd9]],
    ["a zero step", [0xff, 0xd8, ...segment(0xdb, [0x00, 0, ...ascending.slice(1)]), 0xff, 0xd9]],
    ["a DQT whose length leaves half a table", [0xff, 0xd8, ...segment(0xdb, [0x00, ...ascending, 0x01, 5, 5]), 0xff, 0xd9]],
  ])("returns null for %s", (_, bytes) => {
    expect(readQuantTables(Uint8Array.from(bytes))).toBeNull();
  });

  it("returns null for every cut inside the DQT of a real JPEG and never throws on any prefix", async () => {
    const jpeg = await encodePhotoLike({ quality: 80 });
    const dqtStart = jpeg.findIndex((byte, i) => byte === 0xff && jpeg[i + 1] === 0xdb);
    for (let cut = 0; cut <= Math.min(jpeg.length, 700); cut++) {
      const read = readQuantTables(jpeg.subarray(0, cut));
      if (cut > dqtStart && cut < dqtStart + 2 + 67) expect(read).toBeNull();
    }
  });

  it("never throws on random bytes, with or without a JPEG signature", () => {
    let seed = 12345;
    const nextByte = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed >>> 24;
    };
    for (let round = 0; round < 2000; round++) {
      const bytes = Uint8Array.from({ length: 1 + (round % 300) }, nextByte);
      if (round % 2 === 0 && bytes.length > 3) bytes.set([0xff, 0xd8, 0xff]);
      expect(() => readQuantTables(bytes)).not.toThrow();
    }
  });
});
