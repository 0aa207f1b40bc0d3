// A zip archive written front to back into a stream: each entry is deflated as it is produced
// (Node's zlib, on the thread pool, so compression overlaps the XML writing) and followed by a
// data descriptor, so nothing needs seeking back and no entry is held whole in memory. The
// central directory goes last. Sizes stay under 4 GiB: the request's JSON cap bounds the XML.
//
// zlib only starts on the next queued piece when its last one's completion has run on the main
// thread, so a flush gives the event loop a turn after handing a piece over. A queue of pieces
// still stalled: each turn starts at most one piece, so zlib could never catch up after a slow
// piece, the queue filled, and the writer waited for it to drain (over 100 ms a million cells,
// in 8-13 waits). So one piece is with zlib at a time, and everything written while it works goes
// as the next piece: zlib's pieces grow when it falls behind, and the writer rarely waits.
import { once } from "node:events";
import type { Writable } from "node:stream";
import { constants, crc32, createDeflateRaw, deflateRawSync, type DeflateRaw } from "node:zlib";

const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
// Bit 3: sizes and CRC follow the data; bit 11: names are UTF-8.
const STREAMED_FLAGS = 0x0808;
const SIZED_FLAGS = 0x0800;
const DEFLATE = 8;
const VERSION = 20;
// 1980-01-01 00:00, the DOS epoch: the archive does not depend on when it was written.
const DOS_DATE = 0x0021;
const DOS_TIME = 0;
/** XML text is handed to zlib in pieces of about this many characters. */
export const FLUSH_CHARS = 1 << 16;
// XML may wait this much for zlib before a flush waits for zlib in turn.
const WAITING_BYTES = 16 * FLUSH_CHARS;

interface EntryRecord {
  name: Buffer;
  flags: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

function localHeader(name: Buffer, flags: number, crc: number, compressed: number, size: number): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(LOCAL_HEADER, 0);
  header.writeUInt16LE(VERSION, 4);
  header.writeUInt16LE(flags, 6);
  header.writeUInt16LE(DEFLATE, 8);
  header.writeUInt16LE(DOS_TIME, 10);
  header.writeUInt16LE(DOS_DATE, 12);
  header.writeUInt32LE(crc, 14);
  header.writeUInt32LE(compressed, 18);
  header.writeUInt32LE(size, 22);
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, name]);
}

function centralHeader(entry: EntryRecord): Buffer {
  const header = Buffer.alloc(46);
  header.writeUInt32LE(CENTRAL_HEADER, 0);
  header.writeUInt16LE(VERSION, 4);
  header.writeUInt16LE(VERSION, 6);
  header.writeUInt16LE(entry.flags, 8);
  header.writeUInt16LE(DEFLATE, 10);
  header.writeUInt16LE(DOS_TIME, 12);
  header.writeUInt16LE(DOS_DATE, 14);
  header.writeUInt32LE(entry.crc, 16);
  header.writeUInt32LE(entry.compressed, 20);
  header.writeUInt32LE(entry.size, 24);
  header.writeUInt16LE(entry.name.length, 28);
  header.writeUInt32LE(entry.offset, 42);
  return Buffer.concat([header, entry.name]);
}

/** One entry being written: append XML text, flush when `pending` grows, then close. */
export interface ZipEntry {
  write(text: string): void;
  /** Characters written but not yet handed to zlib. */
  readonly pending: number;
  /** Hands the pending text to zlib; resolves when zlib (and the output behind it) can take more. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export class ZipWriter {
  private readonly entries: EntryRecord[] = [];
  private offset = 0;
  private readonly output: Writable;
  private readonly level: number;
  /** Rejects when the output fails, so no wait for a drain that will never come can hang. */
  private readonly aborted: Promise<never>;
  /** Entries follow each other in the stream; one written inside another would corrupt both. */
  private entryOpen = false;

  constructor(output: Writable, aborted: Promise<never>, level = constants.Z_BEST_SPEED) {
    this.output = output;
    this.aborted = aborted;
    this.level = level;
  }

  private async emit(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    if (!this.output.write(chunk)) await Promise.race([once(this.output, "drain"), this.aborted]);
  }

  /** A small entry known whole. */
  async addFile(path: string, content: string | Buffer): Promise<void> {
    this.assertNoOpenEntry(path);
    const name = Buffer.from(path);
    const data = typeof content === "string" ? Buffer.from(content) : content;
    const deflated = deflateRawSync(data, { level: this.level });
    const crc = crc32(data);
    this.entries.push({ name, flags: SIZED_FLAGS, crc, compressed: deflated.length, size: data.length, offset: this.offset });
    await this.emit(localHeader(name, SIZED_FLAGS, crc, deflated.length, data.length));
    await this.emit(deflated);
  }

  /** A large entry written as it is produced. */
  private assertNoOpenEntry(path: string): void {
    if (this.entryOpen) throw new Error(`zip entry ${path} started inside another`);
  }

  async openEntry(path: string): Promise<ZipEntry> {
    this.assertNoOpenEntry(path);
    this.entryOpen = true;
    const record: EntryRecord = { name: Buffer.from(path), flags: STREAMED_FLAGS, crc: 0, compressed: 0, size: 0, offset: this.offset };
    this.entries.push(record);
    await this.emit(localHeader(record.name, STREAMED_FLAGS, 0, 0, 0));
    // The stream's own buffer holds at most the one piece in flight: waiting pieces stay here.
    const deflate: DeflateRaw = createDeflateRaw({ level: this.level, chunkSize: 1 << 16 });
    const output = this.output;
    deflate.on("data", (chunk: Buffer) => {
      record.compressed += chunk.length;
      this.offset += chunk.length;
      if (!output.write(chunk)) {
        deflate.pause();
        output.once("drain", () => deflate.resume());
      }
    });
    const finished = once(deflate, "end");
    finished.catch(() => undefined);
    let text = "";
    // One piece is with zlib at a time, and what is written meanwhile waits here and goes as one.
    let waiting: Buffer[] = [];
    let waitingBytes = 0;
    let busy = false;
    let wake: (() => void) | undefined;
    const send = (): void => {
      const data = waiting.length === 1 ? waiting[0]! : Buffer.concat(waiting, waitingBytes);
      waiting = [];
      waitingBytes = 0;
      busy = true;
      deflate.write(data, deflated);
    };
    function deflated(): void {
      busy = false;
      if (waitingBytes > 0) send();
      if (wake !== undefined && waitingBytes <= WAITING_BYTES) {
        const resume = wake;
        wake = undefined;
        resume();
      }
    }
    const hand = (): void => {
      const data = Buffer.from(text);
      text = "";
      record.crc = crc32(data, record.crc);
      record.size += data.length;
      waiting.push(data);
      waitingBytes += data.length;
      if (!busy) send();
    };
    return {
      write(chunk) {
        text += chunk;
      },
      get pending() {
        return text.length;
      },
      flush: async () => {
        if (text.length === 0) return;
        hand();
        if (waitingBytes <= WAITING_BYTES) await new Promise(setImmediate);
        else await Promise.race([new Promise<void>((resolve) => (wake = resolve)), this.aborted]);
      },
      close: async () => {
        if (text.length > 0) hand();
        if (waitingBytes > 0) send();
        deflate.end();
        await Promise.race([finished, this.aborted]);
        const descriptor = Buffer.alloc(16);
        descriptor.writeUInt32LE(DATA_DESCRIPTOR, 0);
        descriptor.writeUInt32LE(record.crc, 4);
        descriptor.writeUInt32LE(record.compressed, 8);
        descriptor.writeUInt32LE(record.size, 12);
        await this.emit(descriptor);
        this.entryOpen = false;
      },
    };
  }

  /** Writes the central directory; the caller ends the output. */
  async finish(): Promise<void> {
    const start = this.offset;
    const directory = Buffer.concat(this.entries.map(centralHeader));
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(start, 16);
    await this.emit(directory);
    await this.emit(end);
  }
}
