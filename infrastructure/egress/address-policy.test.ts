import { describe, expect, it } from "vitest";
import { classifyAddress, classifyHostName, parseIPv4, parseIPv6 } from "./address-policy";

describe("address policy", () => {
  it("parses IPv4 and IPv6 text forms", () => {
    expect(parseIPv4("127.0.0.1")).toBe(0x7f000001);
    expect(parseIPv4("0177.0.0.1")).toBeNull(); // non-canonical: the URL parser canonicalises first
    expect(parseIPv4("256.0.0.1")).toBeNull();
    expect(parseIPv6("::1")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6("[::ffff:127.0.0.1]")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIPv6("fe80::1%eth0")).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6("1:2:3:4:5:6:7:8:9")).toBeNull();
    expect(parseIPv6("1::2::3")).toBeNull();
  });

  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["0.0.0.0", "special"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["100.127.255.255", "private"],
    ["169.254.169.254", "link-local"],
    ["169.254.0.1", "link-local"],
    ["224.0.0.1", "special"],
    ["239.255.255.250", "special"],
    ["240.0.0.1", "special"],
    ["255.255.255.255", "special"],
    ["198.18.0.1", "special"],
    ["198.19.255.255", "special"],
    ["192.0.2.1", "special"],
    ["198.51.100.7", "special"],
    ["203.0.113.9", "special"],
    ["192.0.0.170", "special"],
    ["::1", "loopback"],
    ["::", "special"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.1.2.3", "private"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:0:127.0.0.1", "loopback"],
    ["::127.0.0.1", "special"], // IPv4-compatible (deprecated)
    ["::8.8.8.8", "special"],
    ["64:ff9b::7f00:1", "loopback"],
    ["64:ff9b::10.0.0.1", "private"],
    ["64:ff9b::169.254.169.254", "link-local"],
    ["64:ff9b:1::1", "special"], // local-use NAT64
    ["2002:7f00:1::", "loopback"], // 6to4 of 127.0.0.1
    ["2002:c0a8:101::1", "private"], // 6to4 of 192.168.1.1
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "special"], // Teredo
    ["2001:db8::1", "special"],
    ["3fff::1", "special"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["fe80::1", "link-local"],
    ["febf::1", "link-local"],
    ["fec0::1", "private"],
    ["ff02::1", "special"],
    ["100::1", "special"],
    ["not-an-ip", "special"],
  ])("refuses %s as %s", (address, refusal) => {
    expect(classifyAddress(address)).toBe(refusal);
  });

  it.each([
    "8.8.8.8",
    "93.184.216.34",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "169.253.255.255",
    "198.20.0.1",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("allows the public address %s", (address) => {
    expect(classifyAddress(address)).toBeNull();
  });

  it.each([
    ["localhost", "loopback"],
    ["LOCALHOST.", "loopback"],
    ["app.localhost", "loopback"],
    ["metadata.google.internal", "internal-name"],
    ["metadata", "internal-name"],
    ["intranet", "internal-name"],
    ["printer.local", "internal-name"],
    ["db.corp", "internal-name"],
    ["router.home.arpa", "internal-name"],
    ["api.default.svc.cluster.local", "internal-name"],
  ])("refuses the internal host name %s", (name, refusal) => {
    expect(classifyHostName(name)).toBe(refusal);
  });

  it("lets ordinary names through to resolution", () => {
    expect(classifyHostName("example.com")).toBeNull();
    expect(classifyHostName("docs.example.test")).toBeNull();
    expect(classifyHostName("internal.example.com")).toBeNull();
  });
});
