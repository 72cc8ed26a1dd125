import type { ComponentChildren } from "preact"
import type { ApiFailure } from "../api/client.ts"

/** An API refusal shown with the contract's own `error` text, and the details it gave. */
export const ErrorNotice = ({ error, title }: { error: ApiFailure | undefined; title?: string }) =>
  error === undefined ? null : (
    <div class="notice notice-error" role="alert">
      {title === undefined ? null : <strong>{title} </strong>}
      <span>{error.message}</span>
      {error.issues.length > 0 ? (
        <ul>
          {error.issues.map((issue) => (
            <li key={`${issue.path}:${issue.message}`}>
              {issue.path === "" ? "" : <code>{issue.path}</code>} {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )

/** Something that went well or is under way, announced politely. */
export const StatusNotice = ({ children }: { children: ComponentChildren }) => (
  <div class="notice notice-ok" role="status">
    {children}
  </div>
)

/** What an empty list means and what to do next. */
export const EmptyState = ({ title, children }: { title: string; children?: ComponentChildren }) => (
  <div class="empty">
    <p class="empty-title">{title}</p>
    {children === undefined ? null : <div>{children}</div>}
  </div>
)

/** Visible text for a list still loading (first load only: a reload keeps what is shown). */
export const Loading = ({ what }: { what: string }) => (
  <p class="muted" role="status">
    Loading {what}…
  </p>
)
