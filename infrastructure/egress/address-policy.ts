/**
 * Which network addresses and host names the server may fetch from
 * (ARCHITECTURE §8). Pure functions: no DNS, no sockets.
 *
 * IPv4 is checked against a deny list of special-purpose ranges. IPv6 is
 * checked with an allow list: only global unicast (2000::/3) is reachable,
 * minus its special-purpose parts; the forms that embed an IPv4 address
 * (IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged
 * by the IPv4 address they carry.
 */

/** Why an address or name was refused; each kind has its own user-readable message. */
export type AddressRefusal = "loopback" | "private" | "link-local" | "special" | "internal-name";

export const REFUSAL_MESSAGES: Record<AddressRefusal, string> = {
  loopback: "This address points to the server itself and cannot be fetched.",
  private: "This address points to a private network and cannot be fetched.",
  "link-local": "This address points to a local network link or a cloud metadata service and cannot be fetched.",
  special: "This address is a reserved or special-purpose network address and cannot be fetched.",
  "internal-name": "This address names an internal host and cannot be fetched.",
};

/** Dotted-quad IPv4 (canonical form only: four decimal parts 0-255) to a 32-bit number. */
export function parseIPv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = value * 256 + n;
  }
  return value;
}

/** IPv6 text (optionally bracketed, optionally with a zone id or a trailing dotted quad) to eight 16-bit groups. */
export function parseIPv6(text: string): number[] | null {
  let s = text.trim();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(":")) return null;

  // A trailing dotted quad becomes two groups.
  const lastColon = s.lastIndexOf(":");
  const tail = s.slice(lastColon + 1);
  if (tail.includes(".")) {
    const v4 = parseIPv4(tail);
    if (v4 === null) return null;
    s = `${s.slice(0, lastColon + 1)}${((v4 >>> 16) & 0xffff).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }

  const halves = s.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string): number[] | null => {
    if (part === "") return [];
    const groups: number[] = [];
    for (const g of part.split(":")) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      groups.push(parseInt(g, 16));
    }
    return groups;
  };
  const head = parse(halves[0]);
  if (head === null) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const rest = parse(halves[1]);
  if (rest === null || head.length + rest.length > 7) return null;
  return [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
}

const v4 = (a: number, b: number, c: number, d: number) => ((a * 256 + b) * 256 + c) * 256 + d;
const inV4 = (addr: number, base: number, bits: number) => {
  const size = 2 ** (32 - bits);
  return addr >= base && addr < base + size;
};

const V4_RULES: [base: number, bits: number, refusal: AddressRefusal][] = [
  [v4(0, 0, 0, 0), 8, "special"], // "this network", incl. 0.0.0.0 unspecified
  [v4(10, 0, 0, 0), 8, "private"],
  [v4(100, 64, 0, 0), 10, "private"], // carrier-grade NAT
  [v4(127, 0, 0, 0), 8, "loopback"],
  [v4(169, 254, 0, 0), 16, "link-local"], // incl. 169.254.169.254 metadata
  [v4(172, 16, 0, 0), 12, "private"],
  [v4(192, 0, 0, 0), 24, "special"], // IETF protocol assignments
  [v4(192, 0, 2, 0), 24, "special"], // documentation TEST-NET-1
  [v4(192, 88, 99, 0), 24, "special"], // 6to4 relay anycast
  [v4(192, 168, 0, 0), 16, "private"],
  [v4(198, 18, 0, 0), 15, "special"], // benchmarking
  [v4(198, 51, 100, 0), 24, "special"], // documentation TEST-NET-2
  [v4(203, 0, 113, 0), 24, "special"], // documentation TEST-NET-3
  [v4(224, 0, 0, 0), 4, "special"], // multicast
  [v4(240, 0, 0, 0), 4, "special"], // reserved, incl. 255.255.255.255 broadcast
];

export function classifyIPv4(addr: number): AddressRefusal | null {
  for (const [base, bits, refusal] of V4_RULES) if (inV4(addr, base, bits)) return refusal;
  return null;
}

const embeddedV4 = (g: number[], hi: number) => g[hi] * 65536 + g[hi + 1];

export function classifyIPv6(g: number[]): AddressRefusal | null {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);

  if (zeros(0, 8)) return "special"; // :: unspecified
  if (zeros(0, 7) && g[7] === 1) return "loopback"; // ::1
  // IPv4-mapped ::ffff:a.b.c.d — judged by the IPv4 address.
  if (zeros(0, 5) && g[5] === 0xffff) return classifyIPv4(embeddedV4(g, 6));
  // IPv4-translated ::ffff:0:a.b.c.d (SIIT) — judged by the IPv4 address.
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return classifyIPv4(embeddedV4(g, 6));
  // NAT64 well-known prefix 64:ff9b::/96 — judged by the IPv4 address.
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return classifyIPv4(embeddedV4(g, 6));
  // 6to4 2002::/16 — judged by the IPv4 address in bits 16-47.
  if (g[0] === 0x2002) return classifyIPv4(embeddedV4(g, 1));

  if ((g[0] & 0xfe00) === 0xfc00) return "private"; // fc00::/7 unique local
  if ((g[0] & 0xffc0) === 0xfe80) return "link-local"; // fe80::/10
  if ((g[0] & 0xffc0) === 0xfec0) return "private"; // fec0::/10 old site-local
  // Everything else outside global unicast 2000::/3 (IPv4-compatible ::/96,
  // local-use NAT64 64:ff9b:1::/48, discard 100::/64, multicast ff00::/8, …).
  if ((g[0] & 0xe000) !== 0x2000) return "special";
  if (g[0] === 0x2001 && g[1] < 0x0200) return "special"; // 2001::/23 IETF assignments: Teredo 2001::/32, benchmarking, ORCHID
  if (g[0] === 0x2001 && g[1] === 0x0db8) return "special"; // documentation
  if (g[0] === 0x3fff && g[1] < 0x1000) return "special"; // documentation 3fff::/20
  return null;
}

/** Refusal for an IP address in text form, or null when it may be fetched. Non-IP text is refused. */
export function classifyAddress(address: string): AddressRefusal | null {
  const a4 = parseIPv4(address);
  if (a4 !== null) return classifyIPv4(a4);
  const a6 = parseIPv6(address);
  if (a6 !== null) return classifyIPv6(a6);
  return "special";
}

const INTERNAL_NAMES = new Set(["localhost", "metadata", "metadata.google.internal", "instance-data", "kubernetes", "kubernetes.default"]);
const INTERNAL_SUFFIXES = [".localhost", ".local", ".internal", ".intranet", ".lan", ".home.arpa", ".corp", ".private", ".svc", ".cluster.local"];

/**
 * Refusal for a host NAME (not an IP literal), before any DNS: names that can
 * only mean something inside our own network. Single-label names are refused
 * too (they resolve through search domains to internal hosts).
 */
export function classifyHostName(hostname: string): AddressRefusal | null {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (name === "localhost") return "loopback";
  if (name === "" || !name.includes(".") || INTERNAL_NAMES.has(name)) return "internal-name";
  if (INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix))) return name.endsWith(".localhost") ? "loopback" : "internal-name";
  return null;
}
