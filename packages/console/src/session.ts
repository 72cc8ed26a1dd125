/**
 * Who is signed in: the answer of `GET /api/auth/me` (or of the login), held in a signal every
 * screen reads. `undefined` while the console asks, `null` when nobody is signed in.
 */
import { computed, signal } from "@preact/signals"
import { allows, type Role, type RouteKey } from "./api/access.ts"
import { type Answer, ApiFailure, api, onSessionLost, unwrap } from "./api/client.ts"

export type CurrentUser = Answer<"/api/auth/me", "get">

export const session = signal<CurrentUser | null | undefined>(undefined)
/** Why the sign-in screen is showing, when it is not the first visit ("Your session has ended"). */
export const signedOutReason = signal<string | undefined>(undefined)

export const role = computed<Role>(() => session.value?.user.role ?? "member")
export const isAdmin = computed(() => role.value === "admin")
/** Whether the signed-in user may call `route` (see `api/access.ts`). */
export const may = (route: RouteKey): boolean => allows(role.value, route)

export const loadSession = async (): Promise<void> => {
  try {
    session.value = await unwrap(api.GET("/api/auth/me"))
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 401) session.value = null
    else throw error
  }
}

export const signIn = async (email: string, password: string): Promise<void> => {
  session.value = await unwrap(api.POST("/api/auth/login", { body: { email, password } }))
  signedOutReason.value = undefined
}

export const signOut = async (): Promise<void> => {
  await unwrap(api.POST("/api/auth/logout"))
  session.value = null
  signedOutReason.value = "You are signed out."
}

onSessionLost(() => {
  if (session.value) {
    session.value = null
    signedOutReason.value = "Your session has ended. Sign in again to go on."
  }
})
