import { Writable } from "node:stream";
import { crc32, inflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { FLUSH_CHARS, ZipWriter } from "./zip-writer.ts";

interface ReadEntry {
  name: string;
  crc: number;
  size: number;
  content: Buffer;
}

// Reads the archive by its central directory, as unzip does, so the sizes and CRC-32s checked are
// the ones a reader trusts.
function readZip(archive: Buffer): ReadEntry[] {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  const entries: ReadEntry[] = [];
  for (let i = 0; i < count; i++) {
    const crc = archive.readUInt32LE(at + 16);
    const compressed = archive.readUInt32LE(at + 20);
    const size = archive.readUInt32LE(at + 24);
    const nameLength = archive.readUInt16LE(at + 28);
    const local = archive.readUInt32LE(at + 42);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString();
    const dataAt = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    entries.push({ name, crc, size, content: inflateRawSync(archive.subarray(dataAt, dataAt + compressed)) });
    at += 46 + nameLength;
  }
  return entries;
}

async function archiveOf(write: (zip: ZipWriter) => Promise<void>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  const zip = new ZipWriter(sink, new Promise<never>(() => undefined));
  await write(zip);
  await zip.finish();
  return Buffer.concat(chunks);
}

describe("ZipWriter", () => {
  it("records each entry's CRC-32 and size as its inflated data gives them, streamed over many pieces or added whole", async () => {
    const rows = Array.from({ length: 40_000 }, (_, r) => `<row r="${r}"><c><v>${(r * 7919) % 104_729}</v></c><c><is><t>é ${r % 97} 🙂</t></is></c></row>`);
    const archive = await archiveOf(async (zip) => {
      const entry = await zip.openEntry("xl/worksheets/sheet1.xml");
      for (const row of rows) {
        entry.write(row);
        if (entry.pending > FLUSH_CHARS) await entry.flush();
      }
      await entry.close();
      await zip.addFile("small.xml", "<a/>");
      const empty = await zip.openEntry("empty.xml");
      await empty.close();
    });
    const entries = readZip(archive);
    expect(entries.map((entry) => entry.name)).toEqual(["xl/worksheets/sheet1.xml", "small.xml", "empty.xml"]);
    const expected = [Buffer.from(rows.join("")), Buffer.from("<a/>"), Buffer.alloc(0)];
    expect(expected[0]!.length).toBeGreaterThan(20 * FLUSH_CHARS);
    for (const [i, entry] of entries.entries()) {
      expect(entry.content.equals(expected[i]!)).toBe(true);
      expect(entry.size).toBe(expected[i]!.length);
      expect(entry.crc).toBe(crc32(expected[i]!));
    }
  });
});
