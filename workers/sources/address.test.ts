import { describe, expect, it } from "vitest";
import { classifyAddress, parseIPv4, parseIPv6 } from "./address.ts";

describe("classifyAddress, IPv4", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["1.1.1.1", "public"],
    ["172.15.255.255", "public"],
    ["172.32.0.0", "public"],
    ["100.63.255.255", "public"],
    ["100.128.0.0", "public"],
    ["223.255.255.255", "public"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.0.1", "link_local"],
    ["169.254.169.254", "metadata"],
    ["169.254.170.2", "metadata"],
    ["100.100.100.200", "metadata"],
    ["100.64.0.1", "cgnat"],
    ["100.127.255.255", "cgnat"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "reserved"],
    ["192.0.0.8", "reserved"],
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["198.19.255.255", "reserved"],
    ["198.51.100.7", "reserved"],
    ["203.0.113.9", "reserved"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
  ])("%s is %s", (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it.each([
    ["2130706433", "loopback"],
    ["0x7f.1", "loopback"],
    ["0x7f000001", "loopback"],
    ["017700000001", "loopback"],
    ["0177.0.0.1", "loopback"],
    ["127.1", "loopback"],
    ["127.0.1", "loopback"],
    ["0xa9.0xfe.0xa9.0xfe", "metadata"],
    ["2852039166", "metadata"],
    ["0", "unspecified"],
    ["0x", "unspecified"],
    ["127.0.0.1.", "loopback"],
    ["134744072", "public"],
  ])("reads the numeric form %s as %s", (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it("agrees with the URL parser on every numeric form", () => {
    for (const host of ["2130706433", "0x7f.1", "017700000001", "0177.0.0.1", "127.1", "0xa9fea9fe", "10.0x10.020.1"]) {
      const normalized = new URL(`http://${host}/`).hostname;
      const fromUrl = parseIPv4(normalized);
      expect(fromUrl).not.toBeNull();
      expect(parseIPv4(host)).toBe(fromUrl);
    }
  });

  it.each(["256.0.0.1", "1.2.3.4.5", "1.2.3.256", "1.16777216", "09.1.1.1", "0x1g", "1..1", "", "example.com", "4294967296"])(
    "%s is not an IPv4 literal",
    (text) => {
      expect(parseIPv4(text)).toBeNull();
    },
  );
});

describe("classifyAddress, IPv6", () => {
  it.each([
    ["2606:4700:4700::1111", "public"],
    ["[2001:4860:4860::8888]", "public"],
    ["2a00:1450:4001:80b::200e", "public"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "private"],
    ["fd12:3456:789a::1", "private"],
    ["fec0::1", "private"],
    ["64:ff9b:1::a00:1", "private"],
    ["fe80::1", "link_local"],
    ["fe80::1%eth0", "link_local"],
    ["febf:ffff::1", "link_local"],
    ["ff02::1", "multicast"],
    ["ff0e::1", "multicast"],
    ["fd00:ec2::254", "metadata"],
    ["2001:db8::1", "reserved"],
    ["2001::1", "reserved"],
    ["3fff::1", "reserved"],
    ["100::1", "reserved"],
    ["4000::1", "reserved"],
    ["::2", "reserved"],
  ])("%s is %s", (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it.each([
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["[::ffff:7f00:1]", "loopback"],
    ["0:0:0:0:0:ffff:7f00:0001", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:a9fe:a9fe", "metadata"],
    ["::ffff:8.8.8.8", "public"],
    ["::ffff:0:192.168.0.1", "private"],
    ["::127.0.0.1", "loopback"],
    ["::8.8.8.8", "reserved"],
    ["64:ff9b::127.0.0.1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "metadata"],
    ["64:ff9b::c0a8:101", "private"],
    ["64:ff9b::808:808", "public"],
    ["2002:7f00:1::", "loopback"],
    ["2002:c0a8:101::1", "private"],
    ["2002:808:808::1", "reserved"],
  ])("judges %s by its embedded IPv4 address: %s", (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it("agrees with the URL parser's IPv6 serialization", () => {
    for (const host of ["[::ffff:127.0.0.1]", "[0:0:0:0:0:ffff:a00:1]", "[64:ff9b::10.0.0.1]", "[fe80:0:0::1]"]) {
      const normalized = new URL(`http://${host}/`).hostname;
      expect(classifyAddress(normalized)).toBe(classifyAddress(host));
      expect(classifyAddress(normalized)).not.toBe("public");
    }
  });

  it.each(["1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "1::2::3", ":1:2:3:4:5:6:7", "12345::1", "::ffff:1.2.3", "::1.2.3.4:5", "g::1", "1:2:3:4:5:6:7::8"])(
    "%s is not an IPv6 literal",
    (text) => {
      expect(parseIPv6(text)).toBeNull();
      expect(classifyAddress(text)).toBeNull();
    },
  );

  it("returns null for host names", () => {
    for (const name of ["example.com", "localhost", "1.2.3.4.nip.io", "deadbeef"]) expect(classifyAddress(name)).toBeNull();
  });
});
