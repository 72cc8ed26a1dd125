/**
 * The frame around every screen: who is signed in, to which organization and with what role (always
 * visible, docs/contract.md §14), the navigation, and the screen itself in `<main>`.
 */
import type { ComponentChildren } from "preact"
import { useState } from "preact/hooks"
import { useLocation } from "preact-iso"
import { asFailure } from "../api/client.ts"
import { may, session, signOut } from "../session.ts"
import { NAV } from "./navigation.ts"

export const Shell = ({ children }: { children: ComponentChildren }) => {
  const { path } = useLocation()
  const [signOutError, setSignOutError] = useState<string | undefined>(undefined)
  const me = session.value
  if (!me) return null
  const current = (href: string) => path === href || path.startsWith(`${href}/`)
  return (
    <div class="app">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href="/console/">
          Parley
        </a>
        <p class="who">
          <span class="org">{me.organization.name}</span>
          <span class="user">{me.user.email}</span>
          <span class={`role role-${me.user.role}`}>{me.user.role === "admin" ? "Administrator" : "Member"}</span>
        </p>
        <button
          type="button"
          class="secondary"
          onClick={() => signOut().catch((error: unknown) => setSignOutError(asFailure(error).message))}
        >
          Sign out
        </button>
      </header>
      {signOutError === undefined ? null : (
        <p class="notice notice-error" role="alert">
          {signOutError}
        </p>
      )}
      <div class="layout">
        <nav class="sidebar" aria-label="Console">
          <ul>
            <li>
              <a href="/console/" aria-current={path === "/console" ? "page" : undefined}>
                Overview
              </a>
            </li>
          </ul>
          {NAV.map(({ group, items }) => {
            const visible = items.filter((item) => may(item.reads))
            if (visible.length === 0) return null
            return (
              <div key={group}>
                <h2 class="nav-group">{group}</h2>
                <ul>
                  {visible.map((item) => (
                    <li key={item.href}>
                      <a href={item.href} aria-current={current(item.href) ? "page" : undefined}>
                        {item.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            )
          })}
        </nav>
        <main id="main" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  )
}
