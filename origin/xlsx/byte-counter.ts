// Sits between the zip writer and the caller's sink: counts the bytes of the finished file
// and exposes the sink's back-pressure (its writable side fills when the sink is slow).
import { Transform, type TransformCallback } from "node:stream";

export class ByteCounter extends Transform {
  bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    callback(null, chunk);
  }
}
