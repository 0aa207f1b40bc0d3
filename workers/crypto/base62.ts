const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `length` uniformly random base62 characters (rejection sampling keeps every symbol equally likely). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const byte of bytes) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export function encodeBase62(value: number, width: number): string {
  let n = value;
  let out = "";
  do {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  } while (n > 0);
  return out.padStart(width, "0");
}

/** A base62 digit's value; -1 for a character that is none. */
export function base62Digit(char: string): number {
  return char.length === 1 ? ALPHABET.indexOf(char) : -1;
}

export function isBase62(text: string): boolean {
  return /^[0-9A-Za-z]*$/.test(text);
}
