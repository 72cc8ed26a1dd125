import { SecretBox } from "@parley/platform"
import { Context, Layer, Redacted } from "effect"

/**
 * The box that seals what a channel keeps secret — the provider's access token, the bridge's
 * inbound token — under PARLEY_SECRET_KEY (AES-256-GCM) before it reaches the database.
 */
export class TokenBox extends Context.Service<TokenBox, SecretBox>()("@parley/messaging/TokenBox") {
  static readonly layer = (secretKey: Redacted.Redacted<string>) =>
    Layer.sync(TokenBox, () => TokenBox.of(SecretBox.fromBase64Key(Redacted.value(secretKey))))
}
