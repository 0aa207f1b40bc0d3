// jSquash types its pixels as the DOM's ImageData, which workerd has no type for (nor, before a
// decoder installs its polyfill, a value): the codecs read and return only these three fields.
interface ImageData {
  readonly data: Uint8ClampedArray;
  readonly width: number;
  readonly height: number;
}
