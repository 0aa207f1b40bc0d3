// heic-decode ships no types; this is the part of its API the HEIC step calls.
declare module "heic-decode" {
  interface DecodedImage {
    width: number;
    height: number;
    data: Uint8ClampedArray;
  }
  interface HeifImageEntry {
    width: number;
    height: number;
    decode(): Promise<DecodedImage>;
  }
  interface HeifImages extends Array<HeifImageEntry> {
    dispose(): void;
  }
  function decode(input: { buffer: Uint8Array }): Promise<DecodedImage>;
  namespace decode {
    function all(input: { buffer: Uint8Array }): Promise<HeifImages>;
  }
  export default decode;
}
