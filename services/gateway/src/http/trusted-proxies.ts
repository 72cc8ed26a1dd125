/**
 * Which peers the gateway believes about the client's address (`X-Forwarded-For`): the proxies in
 * front of it — the chart's ingress controller, a cloud load balancer — listed as addresses or CIDRs
 * (`PARLEY_GATEWAY_TRUSTED_PROXIES`, the chart's `gateway.trustedProxies`). The client is the
 * right-most address of the chain that is not a trusted proxy (Fastify's `trustProxy` with
 * `proxy-addr`), so a client behind a trusted proxy gets its own rate-limit bucket, and an
 * `X-Forwarded-For` sent by anyone else — a client spoofing it, a peer outside the list — is ignored.
 *
 * Default: none (every forwarded header ignored; the peer is the client). Never "everything": a
 * range that covers every address (`0.0.0.0/0`, `::/0`) is refused at start, since it would let any
 * client choose the address it is counted under.
 */
import { isIP } from "node:net"

/** The proxies' addresses and CIDRs, checked; throws naming the entry that is not one. */
export const parseTrustedProxies = (value: string | undefined): ReadonlyArray<string> => {
  const entries = (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
  for (const entry of entries) {
    const [address = "", prefix, ...rest] = entry.split("/")
    const family = isIP(address)
    const bits = family === 4 ? 32 : 128
    const valid =
      family !== 0 &&
      rest.length === 0 &&
      (prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits))
    if (!valid) throw new Error(`"${entry}" is not an IP address or CIDR`)
    if (prefix !== undefined && Number(prefix) === 0) {
      throw new Error(`"${entry}" would trust every address: list the proxies in front of the gateway`)
    }
  }
  return entries
}
