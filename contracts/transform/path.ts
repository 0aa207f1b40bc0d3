// The path of a transform URL. The edge signs and verifies this exact string with the canonical
// transform in it, and the client builds its URLs from it, so both spell it one way.
export function transformPath(keyId: string, transform: string, fileId: string): string {
  return `/v1/image/t/${keyId}/${transform}/${fileId}`;
}
