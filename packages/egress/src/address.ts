import { isIP } from "node:net"

/**
 * Which IP addresses a tenant-chosen URL may reach. Everything that is not plainly a public
 * unicast address is refused: loopback, private, link-local, unique-local, multicast, CGNAT,
 * documentation, benchmarking, reserved, and the IPv6 forms that embed an IPv4 address
 * (IPv4-mapped, IPv4-compatible, NAT64, 6to4) whenever the embedded address is itself refused.
 */

type Range = readonly [base: bigint, prefix: number]

const ipv4ToBigInt = (address: string): bigint => {
  const parts = address.split(".").map((part) => Number.parseInt(part, 10))
  return parts.reduce((value, part) => (value << 8n) | BigInt(part), 0n)
}

const ipv6ToBigInt = (address: string): bigint => {
  let text = address.split("%")[0] as string
  // A trailing dotted quad (::ffff:127.0.0.1) becomes two hextets.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted !== null) {
    const v4 = ipv4ToBigInt(dotted[1] as string)
    text = `${text.slice(0, dotted.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`
  }
  const [head = "", tail] = text.split("::")
  const headParts = head === "" ? [] : head.split(":")
  const tailParts = tail === undefined || tail === "" ? [] : tail.split(":")
  const missing = 8 - headParts.length - tailParts.length
  const hextets = [...headParts, ...Array.from({ length: tail === undefined ? 0 : missing }, () => "0"), ...tailParts]
  return hextets.reduce((value, hextet) => (value << 16n) | BigInt(Number.parseInt(hextet, 16)), 0n)
}

const inRange = (value: bigint, bits: number, [base, prefix]: Range): boolean =>
  value >> BigInt(bits - prefix) === base >> BigInt(bits - prefix)

const v4 = (cidr: string): Range => {
  const [base, prefix] = cidr.split("/") as [string, string]
  return [ipv4ToBigInt(base), Number(prefix)]
}
const v6 = (cidr: string): Range => {
  const [base, prefix] = cidr.split("/") as [string, string]
  return [ipv6ToBigInt(base), Number(prefix)]
}

/** IANA special-purpose IPv4 ranges that are not globally reachable unicast (RFC 6890 and successors). */
const BlockedIpv4: ReadonlyArray<Range> = [
  "0.0.0.0/8", // "this network"
  "10.0.0.0/8", // private
  "100.64.0.0/10", // carrier-grade NAT
  "127.0.0.0/8", // loopback
  "169.254.0.0/16", // link-local (cloud metadata lives here)
  "172.16.0.0/12", // private
  "192.0.0.0/24", // IETF protocol assignments
  "192.0.2.0/24", // documentation
  "192.31.196.0/24", // AS112
  "192.52.193.0/24", // AMT
  "192.88.99.0/24", // 6to4 relay anycast (deprecated)
  "192.168.0.0/16", // private
  "192.175.48.0/24", // AS112 direct delegation
  "198.18.0.0/15", // benchmarking
  "198.51.100.0/24", // documentation
  "203.0.113.0/24", // documentation
  "224.0.0.0/4", // multicast
  "240.0.0.0/4", // reserved, and 255.255.255.255 broadcast
].map(v4)

/** IPv6 ranges refused outright. Ranges embedding IPv4 are handled separately below. */
const BlockedIpv6: ReadonlyArray<Range> = [
  "::/128", // unspecified
  "::1/128", // loopback
  "64:ff9b:1::/48", // local-use NAT64
  "100::/64", // discard-only
  "2001::/23", // IETF protocol assignments (Teredo, benchmarking, ORCHID…)
  "2001:db8::/32", // documentation
  "3fff::/20", // documentation
  "5f00::/16", // SRv6 SIDs
  "fc00::/7", // unique-local
  "fe80::/10", // link-local
  "fec0::/10", // site-local (deprecated)
  "ff00::/8", // multicast
].map(v6)

const mappedIpv4 = v6("::ffff:0:0/96")
const translatedIpv4 = v6("::ffff:0:0:0/96")
const compatibleIpv4 = v6("::/96")
const nat64 = v6("64:ff9b::/96")
const sixToFour = v6("2002::/16")

const ipv4Public = (value: bigint): boolean => !BlockedIpv4.some((range) => inRange(value, 32, range))

const ipv6Public = (value: bigint): boolean => {
  // Forms that carry an IPv4 address in their low 32 bits reach that IPv4 address.
  if ([mappedIpv4, translatedIpv4, compatibleIpv4, nat64].some((range) => inRange(value, 128, range))) {
    return ipv4Public(value & 0xffffffffn)
  }
  if (inRange(value, 128, sixToFour)) return ipv4Public((value >> 80n) & 0xffffffffn)
  return !BlockedIpv6.some((range) => inRange(value, 128, range))
}

/** True when `address` (an IPv4 or IPv6 literal) is a public unicast address; false for anything else. */
export const isPublicAddress = (address: string): boolean => {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address
  switch (isIP(bare.split("%")[0] as string)) {
    case 4:
      return ipv4Public(ipv4ToBigInt(bare))
    case 6:
      return ipv6Public(ipv6ToBigInt(bare))
    default:
      return false
  }
}
