import { Schema } from "effect"

/** The API key scopes (docs/contract.md §2.1). A key with none is a legacy, full-access key. */
export const Scope = Schema.Literals(["chat:write", "chat:read", "bookings:read", "bookings:write", "messages:send"])
export type Scope = typeof Scope.Type

export const Scopes: ReadonlyArray<Scope> = Scope.literals

/** The scopes a website widget needs; a key holding only these is widget-only. */
export const WidgetScopes: ReadonlyArray<Scope> = ["chat:write", "chat:read", "bookings:read", "bookings:write"]

/**
 * A key is widget-only when it has scopes and none of them reaches beyond the widget: it is
 * refused on the private API (docs/contract.md §2.3). A legacy key (no scopes) is not widget-only.
 */
export const isWidgetOnly = (scopes: ReadonlyArray<Scope>): boolean =>
  scopes.length > 0 && scopes.every((scope) => WidgetScopes.includes(scope))
