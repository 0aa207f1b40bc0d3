// Classifies IP literals for the SSRF guard. IPv4 is read the way inet_aton and the WHATWG URL
// parser read it (1 to 4 parts, decimal, 0x hex or 0-led octal: "2130706433", "0x7f.1" and
// "017700000001" are all 127.0.0.1), and IPv6 forms that embed an IPv4 address (mapped,
// translated, compatible, NAT64, 6to4) are judged by the address they embed.

export type AddressClass =
  | "public"
  | "loopback"
  | "private"
  | "link_local"
  | "cgnat"
  | "multicast"
  | "metadata"
  | "unspecified"
  | "reserved";

type Range = readonly [network: string, prefix: number, kind: AddressClass];

// First match wins, so specific entries precede the blocks that contain them.
const IPV4_RANGES: readonly Range[] = [
  ["169.254.169.254", 32, "metadata"], // AWS, GCP, Azure, OCI, DigitalOcean instance metadata
  ["169.254.170.2", 32, "metadata"], // AWS ECS task metadata
  ["100.100.100.200", 32, "metadata"], // Alibaba Cloud metadata
  ["0.0.0.0", 32, "unspecified"],
  ["0.0.0.0", 8, "reserved"], // "this network"; Linux connects 0.x to the local host
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "cgnat"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link_local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"], // IETF protocol assignments
  ["192.0.2.0", 24, "reserved"], // TEST-NET-1 documentation
  ["192.88.99.0", 24, "reserved"], // 6to4 relay anycast
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"], // benchmarking
  ["198.51.100.0", 24, "reserved"], // TEST-NET-2 documentation
  ["203.0.113.0", 24, "reserved"], // TEST-NET-3 documentation
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"], // future use and 255.255.255.255 broadcast
];

// IPv6 blocks outside the embedded-IPv4 forms. Only 2000::/3 is global unicast; anything not
// matched here and outside it is reserved.
const IPV6_RANGES: readonly Range[] = [
  ["fd00:ec2::254", 128, "metadata"], // AWS instance metadata over IPv6
  ["::1", 128, "loopback"],
  ["::", 128, "unspecified"],
  ["64:ff9b:1::", 48, "private"], // local-use NAT64
  ["100::", 64, "reserved"], // discard-only
  ["2001::", 23, "reserved"], // IETF protocol assignments: Teredo, ORCHID, benchmarking
  ["2001:db8::", 32, "reserved"], // documentation
  ["3fff::", 20, "reserved"], // documentation
  ["fc00::", 7, "private"], // unique local
  ["fe80::", 10, "link_local"],
  ["fec0::", 10, "private"], // deprecated site-local
  ["ff00::", 8, "multicast"],
  ["2000::", 3, "public"],
];

const IPV4_PART = /^(0x[0-9a-f]*|0[0-7]*|[1-9][0-9]*)$/i;

// inet_aton semantics: the last part fills the bytes the earlier parts leave.
export function parseIPv4(text: string): number | null {
  const parts = (text.endsWith(".") ? text.slice(0, -1) : text).split(".");
  if (parts.length > 4) return null;
  const values: number[] = [];
  for (const part of parts) {
    if (!IPV4_PART.test(part)) return null;
    const lower = part.toLowerCase();
    const value = lower.startsWith("0x")
      ? lower.length === 2 ? 0 : parseInt(lower.slice(2), 16)
      : lower.length > 1 && lower.startsWith("0") ? parseInt(lower.slice(1), 8) : Number(lower);
    if (!Number.isSafeInteger(value)) return null;
    values.push(value);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 255) || last >= 256 ** (4 - values.length)) return null;
  return values.reduce((sum, v, i) => sum + v * 256 ** (3 - i), 0) + last;
}

function parseDottedQuad(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((sum, p) => sum * 256 + Number(p), 0);
}

function parseGroups(text: string, allowIPv4Tail: boolean): number[] | null {
  if (text === "") return [];
  const groups: number[] = [];
  const parts = text.split(":");
  for (const [i, part] of parts.entries()) {
    if (allowIPv4Tail && i === parts.length - 1 && part.includes(".")) {
      const v4 = parseDottedQuad(part);
      if (v4 === null) return null;
      groups.push(Math.floor(v4 / 65536), v4 % 65536);
    } else if (/^[0-9a-f]{1,4}$/i.test(part)) {
      groups.push(parseInt(part, 16));
    } else {
      return null;
    }
  }
  return groups;
}

// Accepts brackets (as in URLs) and a zone id ("fe80::1%eth0"), which does not change the class.
export function parseIPv6(text: string): Uint16Array | null {
  let s = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(":")) return null;
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const head = parseGroups(halves[0]!, halves.length === 1);
  const tail = halves.length === 2 ? parseGroups(halves[1]!, true) : [];
  if (head === null || tail === null) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  return Uint16Array.from([...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail]);
}

function inIPv4Range(address: number, [network, prefix]: Range): boolean {
  const size = 2 ** (32 - prefix);
  return Math.floor(address / size) === Math.floor(parseDottedQuad(network)! / size);
}

function inIPv6Range(groups: Uint16Array, [network, prefix]: Range): boolean {
  const base = parseIPv6(network)!;
  for (let bit = 0; bit < prefix; bit += 16) {
    const width = Math.min(16, prefix - bit);
    const mask = (0xffff << (16 - width)) & 0xffff;
    const i = bit / 16;
    if ((groups[i]! & mask) !== (base[i]! & mask)) return false;
  }
  return true;
}

function classifyIPv4(address: number): AddressClass {
  return IPV4_RANGES.find((range) => inIPv4Range(address, range))?.[2] ?? "public";
}

function embeddedIPv4(groups: Uint16Array, at: number): number {
  return groups[at]! * 65536 + groups[at + 1]!;
}

function zeros(groups: Uint16Array, from: number, to: number): boolean {
  return groups.subarray(from, to).every((g) => g === 0);
}

function classifyIPv6(g: Uint16Array): AddressClass {
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (translated) reach the IPv4 address itself.
  if (zeros(g, 0, 5) && g[5] === 0xffff) return classifyIPv4(embeddedIPv4(g, 6));
  if (zeros(g, 0, 4) && g[4] === 0xffff && g[5] === 0) return classifyIPv4(embeddedIPv4(g, 6));
  // NAT64 well-known prefix: a public IPv4 behind it is a legitimate public destination.
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(g, 2, 6)) return classifyIPv4(embeddedIPv4(g, 6));
  const listed = IPV6_RANGES.find((range) => inIPv6Range(g, range));
  if (listed && listed[2] !== "public") return listed[2];
  // Deprecated IPv4-compatible (::a.b.c.d) and 6to4 (2002:aabb:ccdd::): refused either way,
  // named by the embedded address when that says more.
  const embedded = zeros(g, 0, 6) ? embeddedIPv4(g, 6) : g[0] === 0x2002 ? embeddedIPv4(g, 1) : undefined;
  if (embedded !== undefined) {
    const kind = classifyIPv4(embedded);
    return kind === "public" ? "reserved" : kind;
  }
  return listed ? "public" : "reserved";
}

// null: not an IP literal (a host name).
export function classifyAddress(ip: string): AddressClass | null {
  const v4 = parseIPv4(ip);
  if (v4 !== null) return classifyIPv4(v4);
  const v6 = parseIPv6(ip);
  return v6 === null ? null : classifyIPv6(v6);
}
