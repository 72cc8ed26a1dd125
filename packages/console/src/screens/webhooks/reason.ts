/** Why a delivery exists (the log's `reason`), in words: an event's own delivery needs none. */
export const reasonLabel = (reason: "event" | "test" | "redeliver" | "replay"): string =>
  reason === "test"
    ? "A test event: sent with X-Service-Test: true."
    : reason === "redeliver"
      ? "A redelivery, asked for from this log."
      : reason === "replay"
        ? "A replay of a time window."
        : "An event's delivery."

/** The short badge for a delivery that is not an event's own. */
export const reasonBadge = (reason: "event" | "test" | "redeliver" | "replay", test: boolean): string | undefined =>
  reason === "redeliver"
    ? test
      ? "test · redelivery"
      : "redelivery"
    : reason === "replay"
      ? test
        ? "test · replay"
        : "replay"
      : test || reason === "test"
        ? "test"
        : undefined
