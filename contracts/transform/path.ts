// The path of a transform URL. The edge signs and verifies this exact string with the canonical
// transform in it, and the client builds its URLs from it, so both spell it one way. `source` is
// a file id (`file_...`) or an origin name and the path under it (`shop/products/a.jpg`), so a
// signature covers the origin and the path. The edge decodes the transform segment once before
// reading its tokens, so a `%` in a token (a text overlay's percent-encoded text) is written `%25`.
export function transformPath(keyId: string, transform: string, source: string): string {
  return `/v1/image/t/${keyId}/${transform.replaceAll("%", "%25")}/${source}`;
}
