// Text into SpreadsheetML. XML 1.0 cannot carry most C0 controls (they are dropped), and
// Excel reads `_xHHHH_` in text as an escaped character, so a literal one has its `_`
// escaped the same way. Lone surrogates need nothing here: UTF-8 encoding turns them into U+FFFD.
// `[^\t\n\r\x20-\uFFFD]` is the complement of XML 1.0's Char for one UTF-16 unit: surrogates lie in
// the allowed range, so pairs pass and lone ones are left to UTF-8.
const NEEDS_ESCAPE = /[&<>"]|[^\t\n\r\x20-\uFFFD]|_x[0-9A-Fa-f]{4}_/;
const ESCAPES = /[&<>"]|[^\t\n\r\x20-\uFFFD]|_(?=x[0-9A-Fa-f]{4}_)/g;

function replacement(match: string): string {
  switch (match) {
    case "&":
      return "&amp;";
    case "<":
      return "&lt;";
    case ">":
      return "&gt;";
    case '"':
      return "&quot;";
    case "_":
      return "_x005F_";
    default:
      return "";
  }
}

/** Text for element content or a double-quoted attribute. */
export function xmlText(text: string): string {
  return NEEDS_ESCAPE.test(text) ? text.replace(ESCAPES, replacement) : text;
}

/** A `<t>` element; leading or trailing whitespace needs xml:space="preserve" or readers drop it. */
export function textElement(text: string): string {
  const escaped = xmlText(text);
  const edge = text.charCodeAt(0);
  const end = text.charCodeAt(text.length - 1);
  const padded = edge === 32 || edge === 9 || edge === 10 || end === 32 || end === 9 || end === 10;
  return padded ? `<t xml:space="preserve">${escaped}</t>` : `<t>${escaped}</t>`;
}

export function attribute(name: string, value: string | number | boolean | undefined): string {
  if (value === undefined) return "";
  const text = typeof value === "boolean" ? (value ? "1" : "0") : typeof value === "number" ? String(value) : xmlText(value);
  return ` ${name}="${text}"`;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
