/**
 * A button that asks before doing something that cannot be undone (revoke a key, delete a webhook),
 * in a native modal `<dialog>`: it keeps the focus inside, Escape cancels, and the focus returns
 * to the button afterwards.
 */
import type { ComponentChildren } from "preact"
import { useId, useRef } from "preact/hooks"

export interface ConfirmButtonProps {
  /** The button's text (`Revoke`); give `accessibleLabel` when it needs its row to make sense. */
  readonly label: string
  readonly accessibleLabel?: string
  readonly title: string
  readonly children: ComponentChildren
  readonly confirmLabel: string
  /** The button that closes the dialog doing nothing (`Cancel`); name it when the action is itself a cancel (`Keep booking`). */
  readonly dismissLabel?: string
  readonly onConfirm: () => void
  readonly disabled?: boolean
  readonly danger?: boolean
}

export const ConfirmButton = (props: ConfirmButtonProps) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const id = useId()
  const close = () => dialog.current?.close()
  return (
    <>
      <button
        type="button"
        class={props.danger ? "danger" : "secondary"}
        aria-label={props.accessibleLabel}
        disabled={props.disabled}
        onClick={() => dialog.current?.showModal()}
      >
        {props.label}
      </button>
      <dialog ref={dialog} aria-labelledby={`${id}-title`} aria-describedby={`${id}-body`}>
        <h2 id={`${id}-title`}>{props.title}</h2>
        <div id={`${id}-body`}>{props.children}</div>
        <div class="actions">
          <button type="button" class="secondary" onClick={close}>
            {props.dismissLabel ?? "Cancel"}
          </button>
          <button
            type="button"
            class={props.danger ? "danger" : "primary"}
            onClick={() => {
              close()
              props.onConfirm()
            }}
          >
            {props.confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  )
}
