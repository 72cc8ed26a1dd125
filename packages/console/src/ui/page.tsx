/**
 * A screen's frame: its heading (which takes the focus when the screen opens, so a keyboard or
 * screen-reader user starts there), an optional introduction and the content.
 */
import type { ComponentChildren, VNode } from "preact"
import { useEffect, useRef } from "preact/hooks"

export const Page = ({
  title,
  intro,
  children,
}: {
  title: string
  intro?: ComponentChildren
  children: ComponentChildren
}) => {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    document.title = `${title} · Parley console`
    heading.current?.focus({ preventScroll: false })
  }, [title])
  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {intro === undefined ? null : <p class="intro">{intro}</p>}
      {children}
    </>
  )
}

/** A section of a screen, named by its heading. */
export const Section = ({
  title,
  children,
  actions,
}: {
  title: string
  children: ComponentChildren
  actions?: ComponentChildren
}) => (
  <section class="panel" aria-label={title}>
    <div class="panel-head">
      <h2>{title}</h2>
      {actions === undefined ? null : <div class="panel-actions">{actions}</div>}
    </div>
    {children}
  </section>
)

/** A wide table that scrolls sideways on a narrow screen, reachable and scrollable by keyboard. */
export const TableScroll = ({ label, children }: { label: string; children: ComponentChildren }) => (
  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to scroll by keyboard
  <section class="table-scroll" aria-label={label} tabIndex={0}>
    {children}
  </section>
)

/** Shown instead of a screen an administrator alone may see. */
export const AdminOnly = ({ title }: { title: string }) => (
  <Page title={title}>
    <p>Only an administrator of your organization can see this. Ask one for what you need.</p>
  </Page>
)

/**
 * A screen that needs `route`: the screen for those who may call it, else a word that it is for
 * administrators (the API would refuse them anyway; this spares a member the refusal).
 */
export const guarded =
  <P extends object>(allowed: () => boolean, title: string, Screen: (props: P) => VNode | null) =>
  (props: P) =>
    allowed() ? <Screen {...props} /> : <AdminOnly title={title} />
