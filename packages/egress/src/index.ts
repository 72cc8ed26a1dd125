export { isPublicAddress } from "./address.ts"
export {
  BlockedAddressError,
  EgressClient,
  type EgressOptions,
  type EgressRequest,
  type EgressResult,
  MaxResponseBytes,
} from "./client.ts"
export { type ResolvedAddress, type Resolver, systemResolver } from "./resolver.ts"
export { assertPublicUrl, MaxUrlLength, type UrlPolicy, UrlRefused } from "./url.ts"
