import type { OutboxWriter } from "@parley/bus"
import { CalendarDate, ClockTime, HumanPhoneNumber } from "@parley/contracts"
import type { Database } from "@parley/db"
import { Effect, Schema } from "effect"
import { makeBooking, slotsOf } from "../bookings/calendar.ts"
import type { TurnContext } from "../chat/turn-context.ts"
import { onlyService } from "../engine/dialogue-booking.ts"
import { internationalDigits } from "../engine/phone.ts"
import type { ConversationState } from "../engine/state.ts"
import type { ToolCall, ToolSpec } from "./chat-completions.ts"
import { LlmFailure } from "./llm-failure.ts"
import type { ModelProgress } from "./model-progress.ts"

/**
 * The model's tools: `record_lead`, `list_slots`, `book_slot`. Arguments are decoded by Schemas; a
 * call with malformed arguments (or an unknown tool) fails the turn, and the deterministic engine
 * answers instead. Results go back to the model as JSON.
 *
 * Guardrails (docs/contract.md §8), whatever the model says: a phone number is used only when the visitor
 * wrote it in this conversation (or it is the channel's sender); a turn makes at most one booking.
 * A refused call tells the model why, so it can ask the visitor instead.
 */

/** What the tools of one turn are held to. */
export interface ToolGuard {
  /** The numbers the visitor wrote in this conversation, and the channel's sender: international digits. */
  readonly phones: ReadonlySet<string>
  readonly progress: ModelProgress
}

const NOT_GIVEN = "the visitor has not given that phone number in this conversation: ask them for their number"

/** The model's phone argument as international digits, when the visitor gave that number; else `undefined`. */
const givenPhone = (raw: string, context: TurnContext, guard: ToolGuard): string | undefined => {
  const digits = internationalDigits(raw, context.settings.country)
  return guard.phones.has(digits) ? digits : undefined
}

const Name = Schema.String.check(Schema.isMaxLength(100))
const Service = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100))

export const RecordLeadArgs = Schema.Struct({
  phone: Schema.optionalKey(HumanPhoneNumber),
  name: Schema.optionalKey(Name),
  type: Schema.optionalKey(Schema.Literals(["CALLBACK_REQUESTED", "DEMO_REQUESTED", "GENERAL_INQUIRY"])),
})
export const ListSlotsArgs = Schema.Struct({ date: CalendarDate, service: Schema.optionalKey(Service) })
export const BookSlotArgs = Schema.Struct({
  date: CalendarDate,
  time: ClockTime,
  service: Schema.optionalKey(Service),
  name: Schema.optionalKey(Name),
  phone: Schema.optionalKey(HumanPhoneNumber),
})

export const TOOL_SPECS: ReadonlyArray<ToolSpec> = [
  {
    name: "record_lead",
    description:
      "Record the visitor as a lead once they give a phone number (or, on a phone channel, a name or a request). type: CALLBACK_REQUESTED when they ask to be called, DEMO_REQUESTED for a demo, else GENERAL_INQUIRY.",
    parameters: {
      type: "object",
      properties: {
        phone: { type: "string", description: "7–15 digits, may include + spaces dashes dots parentheses" },
        name: { type: "string" },
        type: { type: "string", enum: ["CALLBACK_REQUESTED", "DEMO_REQUESTED", "GENERAL_INQUIRY"] },
      },
    },
  },
  {
    name: "list_slots",
    description: "List the free booking times of a date (YYYY-MM-DD) in the organization's time zone.",
    parameters: {
      type: "object",
      properties: { date: { type: "string" }, service: { type: "string" } },
      required: ["date"],
    },
  },
  {
    name: "book_slot",
    description: "Book a slot the visitor picked. Needs the visitor's phone number (not on phone channels).",
    parameters: {
      type: "object",
      properties: {
        date: { type: "string" },
        time: { type: "string", description: "HH:MM" },
        service: { type: "string" },
        name: { type: "string" },
        phone: { type: "string" },
      },
      required: ["date", "time"],
    },
  },
]

const decodeArgs = <S extends Schema.Constraint>(schema: S, call: ToolCall) =>
  Effect.try({
    try: () => JSON.parse(call.function.arguments) as unknown,
    catch: () => new LlmFailure({ reason: `${call.function.name}: arguments are not JSON` }),
  }).pipe(
    Effect.flatMap((json) =>
      Schema.decodeUnknownEffect(schema)(json, { errors: "all" }).pipe(
        Effect.mapError((error) => new LlmFailure({ reason: `${call.function.name}: ${error.message}` })),
      ),
    ),
  ) as Effect.Effect<S["Type"], LlmFailure>

export interface ToolOutcome {
  readonly state: ConversationState
  readonly result: unknown
}

/** Runs one tool call against the conversation's state and the calendar. */
export const runTool = (
  call: ToolCall,
  state: ConversationState,
  context: TurnContext,
  guard: ToolGuard,
): Effect.Effect<ToolOutcome, LlmFailure, Database | OutboxWriter> =>
  Effect.gen(function* () {
    switch (call.function.name) {
      case "record_lead": {
        const args = yield* decodeArgs(RecordLeadArgs, call)
        const phone =
          args.phone === undefined || context.customerPhone !== undefined
            ? undefined
            : givenPhone(args.phone, context, guard)
        if (args.phone !== undefined && context.customerPhone === undefined && phone === undefined) {
          return { state, result: { recorded: false, error: NOT_GIVEN } }
        }
        const next: ConversationState = {
          ...state,
          ...(phone === undefined ? {} : { phone }),
          ...(args.name !== undefined && args.name.trim() !== "" ? { name: args.name.trim() } : {}),
          callback: state.callback || args.type === "CALLBACK_REQUESTED",
          demo: state.demo || args.type === "DEMO_REQUESTED",
        }
        return { state: next, result: { recorded: (context.customerPhone ?? next.phone) !== undefined } }
      }
      case "list_slots": {
        const args = yield* decodeArgs(ListSlotsArgs, call)
        const day = yield* slotsOf(context.orgId, args.date, args.service).pipe(Effect.result)
        if (day._tag === "Failure") return { state, result: { error: day.failure.detail } }
        return {
          state: { ...state, bookingAsked: true },
          result: {
            ...day.success,
            slots: day.success.slots.filter((slot) => slot.available).map((slot) => slot.time),
          },
        }
      }
      case "book_slot": {
        const args = yield* decodeArgs(BookSlotArgs, call)
        if (guard.progress.booked !== undefined) {
          return { state, result: { booked: false, error: "one booking per turn: this turn already booked one" } }
        }
        const given = args.phone === undefined ? undefined : givenPhone(args.phone, context, guard)
        if (context.customerPhone === undefined && args.phone !== undefined && given === undefined) {
          return { state, result: { booked: false, error: NOT_GIVEN } }
        }
        const phone = context.customerPhone ?? given ?? state.phone
        if (phone === undefined)
          return { state, result: { booked: false, error: "ask the visitor for a phone number" } }
        const name = args.name?.trim() || state.name || ""
        // Never the first of several services unasked: the one named in the conversation, else the visitor is asked.
        const services = context.settings.services
        const service = args.service ?? state.pending?.service ?? state.service ?? onlyService(services)
        if (service === undefined) {
          return { state, result: { booked: false, error: `ask the visitor which service: ${services.join(", ")}` } }
        }
        const slot = { date: args.date, time: args.time, service }
        // A lead the booking created is this conversation's (its own from then on, docs/contract.md §8).
        const bookedState = (id: string, leadCreated: boolean): ConversationState => ({
          ...state,
          ...(context.customerPhone === undefined ? { phone } : {}),
          ...(name === "" ? {} : { name }),
          bookingAsked: true,
          booking: slot,
          bookingId: id,
          bookingMade: true,
          ...(leadCreated ? { leads: { ...state.leads, [phone]: { created: true } } } : {}),
        })
        let settle = () => {}
        guard.progress.committing = new Promise<void>((resolve) => {
          settle = resolve
        })
        // Uninterruptible: cut off at the turn's deadline, the booking still commits (or is refused) and
        // is recorded here, where the turn, waiting on `committing`, finds it to confirm.
        const made = yield* makeBooking(context.orgId, {
          name,
          phone,
          date: args.date,
          time: args.time,
          service,
          sessionId: context.conversationId,
          source: context.source,
          own: context.customerPhone !== undefined || state.leads?.[phone]?.created === true,
        }).pipe(
          Effect.result,
          Effect.tap((outcome) =>
            Effect.sync(() => {
              if (outcome._tag === "Failure") return
              guard.progress.booked = slot
              guard.progress.state = bookedState(outcome.success.booking.id, outcome.success.lead.outcome === "created")
            }),
          ),
          Effect.ensuring(Effect.sync(() => settle())),
          Effect.uninterruptible,
        )
        if (made._tag === "Failure") return { state, result: { booked: false, error: made.failure.detail } }
        return {
          state: bookedState(made.success.booking.id, made.success.lead.outcome === "created"),
          result: { booked: true, booking: made.success.booking },
        }
      }
      default:
        return yield* Effect.fail(new LlmFailure({ reason: `unknown tool ${call.function.name}` }))
    }
  })
