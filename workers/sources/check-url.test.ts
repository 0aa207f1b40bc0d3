import { describe, expect, it } from "vitest";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { MAX_URL_LENGTH, checkUrl } from "./check-url.ts";

const strict = { allowLoopback: false };
const local = { allowLoopback: true };

function refusal(url: string, policy = strict): ProblemError {
  try {
    checkUrl(url, policy);
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
  throw new Error(`${url} was accepted`);
}

describe("checkUrl", () => {
  it("accepts public http and https URLs and returns them parsed", () => {
    expect(checkUrl("https://images.example.com/a.jpg?x=1", strict).href).toBe("https://images.example.com/a.jpg?x=1");
    expect(checkUrl("http://8.8.8.8/a.png", strict).hostname).toBe("8.8.8.8");
    expect(checkUrl("https://[2606:4700:4700::1111]/", strict).hostname).toBe("[2606:4700:4700::1111]");
    expect(checkUrl("https://example.com:8443/", strict).port).toBe("8443");
    expect(checkUrl("https://example.com:443/", strict).port).toBe("");
    expect(checkUrl("http://example.com:80/", strict).port).toBe("");
  });

  it.each([
    ["http://127.0.0.1/", "loopback"],
    ["http://2130706433/", "loopback"],
    ["http://0x7f.1/", "loopback"],
    ["http://017700000001/", "loopback"],
    ["http://127.1:8080/", "loopback"],
    ["http://[::1]/", "loopback"],
    ["http://[::ffff:127.0.0.1]/", "loopback"],
    ["http://[::ffff:7f00:1]/", "loopback"],
    ["http://[64:ff9b::7f00:1]/", "loopback"],
    ["http://10.1.2.3/", "private"],
    ["http://192.168.0.1/", "private"],
    ["http://[fd00::1]/", "private"],
    ["http://[::ffff:192.168.0.1]/", "private"],
    ["http://169.254.169.254/latest/meta-data/", "metadata"],
    ["http://[fd00:ec2::254]/", "metadata"],
    ["http://[::ffff:169.254.169.254]/", "metadata"],
    ["http://169.254.1.1/", "link_local"],
    ["http://[fe80::1]/", "link_local"],
    ["http://100.64.1.1/", "cgnat"],
    ["http://224.0.0.251/", "multicast"],
    ["http://[ff02::1]/", "multicast"],
    ["http://0.0.0.0/", "unspecified"],
    ["http://[::]/", "unspecified"],
    ["http://192.0.2.10/", "reserved"],
    ["http://[2001:db8::1]/", "reserved"],
    ["http://localhost/", "loopback"],
    ["http://LOCALHOST./", "loopback"],
    ["http://app.localhost/", "loopback"],
    ["http://metadata.google.internal/computeMetadata/v1/", "internal_name"],
    ["http://metadata/", "internal_name"],
    ["http://printer.local/", "internal_name"],
    ["http://router.home.arpa/", "internal_name"],
    ["http://intranet/", "internal_name"],
  ])("refuses %s as %s", (url, kind) => {
    const problem = refusal(url);
    expect(problem.slug).toBe("source_forbidden_address");
    expect(problem.status).toBe(422);
    expect(problem.extensions.address_class).toBe(kind);
  });

  it("lets loopback through only when allowed, and nothing else", () => {
    for (const url of ["http://127.0.0.1:8787/x", "http://[::1]:9000/", "http://localhost:8788/", "http://0x7f.1:8080/"]) {
      expect(checkUrl(url, local).href).toBe(new URL(url).href);
      expect(refusal(url).slug).toBe("source_forbidden_address");
    }
    for (const url of ["http://10.0.0.1/", "http://169.254.169.254/", "http://[fe80::1]/", "http://0.0.0.0/", "http://metadata.google.internal/"]) {
      expect(refusal(url, local).slug).toBe("source_forbidden_address");
    }
  });

  it.each([
    ["not a url", /not an absolute URL/],
    ["/relative/path.jpg", /not an absolute URL/],
    ["ftp://example.com/a.jpg", /ftp scheme/],
    ["file:///etc/passwd", /file scheme/],
    ["data:image/png;base64,AAAA", /data scheme/],
    ["javascript:alert(1)", /javascript scheme/],
    ["gopher://example.com/", /gopher scheme/],
    ["https://user:pass@example.com/a.jpg", /credentials/],
    ["https://user@example.com/a.jpg", /credentials/],
    ["http://example.com:22/", /port 22/],
    ["http://example.com:25/", /port 25/],
    ["http://example.com:1023/", /port 1023/],
    ["http://[::1/", /not an absolute URL/],
  ])("refuses %s as an invalid URL", (url, detail) => {
    const problem = refusal(url);
    expect(problem.slug).toBe("source_invalid_url");
    expect(problem.status).toBe(400);
    expect(problem.message).toMatch(detail);
  });

  it("refuses overlong URLs before parsing", () => {
    const problem = refusal(`https://example.com/${"a".repeat(MAX_URL_LENGTH)}`);
    expect(problem.slug).toBe("source_invalid_url");
  });
});
