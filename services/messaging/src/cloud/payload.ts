import { Schema, SchemaGetter } from "effect"

/**
 * The provider's webhook body (WhatsApp Business Cloud API format). Only the fields Parley acts on
 * are declared; anything else the provider adds is ignored, so a new provider field never turns a
 * genuine delivery into a refusal. Numeric ids arrive as JSON numbers in template updates and as
 * strings elsewhere: both decode to strings.
 */

const IdString = Schema.Union([Schema.String, Schema.Number]).pipe(
  Schema.decodeTo(Schema.String, {
    decode: SchemaGetter.transform((value: string | number) => String(value)),
    encode: SchemaGetter.transform((value: string) => value),
  }),
)

export const CloudInboundMessage = Schema.Struct({
  from: Schema.String,
  id: Schema.String,
  timestamp: Schema.optionalKey(Schema.String),
  type: Schema.String,
  text: Schema.optionalKey(Schema.Struct({ body: Schema.String })),
})
export type CloudInboundMessage = typeof CloudInboundMessage.Type

export const CloudStatus = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  recipient_id: Schema.String,
  timestamp: Schema.optionalKey(Schema.String),
})
export type CloudStatus = typeof CloudStatus.Type

export const CloudContact = Schema.Struct({
  wa_id: Schema.optionalKey(Schema.String),
  profile: Schema.optionalKey(Schema.Struct({ name: Schema.optionalKey(Schema.String) })),
})
export type CloudContact = typeof CloudContact.Type

/**
 * A `messages` change. Its lists stay raw here and each element is decoded on its own: one
 * malformed status or contact must not make the rest of the change (real customer messages) vanish.
 */
export const MessagesValue = Schema.Struct({
  metadata: Schema.Struct({ phone_number_id: Schema.String }),
  contacts: Schema.optionalKey(Schema.Array(Schema.Unknown)),
  messages: Schema.optionalKey(Schema.Array(Schema.Record(Schema.String, Schema.Unknown))),
  statuses: Schema.optionalKey(Schema.Array(Schema.Unknown)),
})
export type MessagesValue = typeof MessagesValue.Type

const templateRef = {
  message_template_id: Schema.optionalKey(Schema.NullOr(IdString)),
  message_template_name: Schema.String,
  message_template_language: Schema.String,
}

export const TemplateStatusValue = Schema.Struct({
  event: Schema.String,
  reason: Schema.optionalKey(Schema.NullOr(Schema.String)),
  ...templateRef,
})
export type TemplateStatusValue = typeof TemplateStatusValue.Type

export const TemplateQualityValue = Schema.Struct({
  previous_quality_score: Schema.optionalKey(Schema.NullOr(Schema.String)),
  new_quality_score: Schema.String,
  ...templateRef,
})
export type TemplateQualityValue = typeof TemplateQualityValue.Type

export const TemplateCategoryValue = Schema.Struct({
  previous_category: Schema.optionalKey(Schema.NullOr(Schema.String)),
  new_category: Schema.String,
  ...templateRef,
})
export type TemplateCategoryValue = typeof TemplateCategoryValue.Type

/** The envelope: changes are kept raw here and decoded per `field`, so one odd change never hides the rest. */
export const CloudWebhookBody = Schema.Struct({
  object: Schema.String,
  entry: Schema.Array(
    Schema.Struct({
      id: IdString,
      changes: Schema.Array(Schema.Struct({ field: Schema.String, value: Schema.Unknown })),
    }),
  ),
})
export type CloudWebhookBody = typeof CloudWebhookBody.Type

/** `text.body` for text, `<type>.caption` for media, `""` otherwise (docs/contract.md §7). */
export const inboundText = (message: Readonly<Record<string, unknown>>): string => {
  const type = typeof message.type === "string" ? message.type : ""
  const text = message.text as { body?: unknown } | undefined
  if (type === "text" && typeof text?.body === "string") return text.body
  const part = message[type] as { caption?: unknown } | undefined
  if (part !== null && typeof part === "object" && typeof part.caption === "string") return part.caption
  return ""
}
