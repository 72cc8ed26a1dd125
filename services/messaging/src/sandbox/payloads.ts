/**
 * The provider's webhook payloads (WhatsApp Business Cloud API format, docs/contract.md §10.1), as the
 * sandbox provider sends them into the ingress: exactly what a real provider would post.
 */

const envelope = (businessAccountId: string, field: string, value: unknown) => ({
  object: "whatsapp_business_account",
  entry: [{ id: businessAccountId, changes: [{ field, value }] }],
})

const seconds = (at: Date) => String(Math.floor(at.getTime() / 1000))

interface NumberRef {
  readonly businessAccountId: string
  readonly phoneNumberId: string
  readonly displayPhoneNumber: string
}

export const inboundPayload = (
  number: NumberRef & { from: string; name: string; text: string; messageId: string; at: Date },
) =>
  envelope(number.businessAccountId, "messages", {
    messaging_product: "whatsapp",
    metadata: { display_phone_number: number.displayPhoneNumber, phone_number_id: number.phoneNumberId },
    contacts: [{ profile: { name: number.name }, wa_id: number.from }],
    messages: [
      {
        from: number.from,
        id: number.messageId,
        timestamp: seconds(number.at),
        type: "text",
        text: { body: number.text },
      },
    ],
  })

export const statusPayload = (report: NumberRef & { messageId: string; status: string; recipient: string; at: Date }) =>
  envelope(report.businessAccountId, "messages", {
    messaging_product: "whatsapp",
    metadata: { display_phone_number: report.displayPhoneNumber, phone_number_id: report.phoneNumberId },
    statuses: [
      { id: report.messageId, status: report.status, timestamp: seconds(report.at), recipient_id: report.recipient },
    ],
  })

interface TemplateRef {
  readonly metaTemplateId: string | null
  readonly name: string
  readonly language: string
}

const templateRef = (template: TemplateRef) => ({
  // The provider sends template ids as JSON numbers.
  message_template_id:
    template.metaTemplateId === null
      ? null
      : Number.isSafeInteger(Number(template.metaTemplateId))
        ? Number(template.metaTemplateId)
        : template.metaTemplateId,
  message_template_name: template.name,
  message_template_language: template.language,
})

/** One payload per requested change, in the order status, quality, category. */
export const templatePayloads = (
  businessAccountId: string,
  template: TemplateRef & { qualityScore: string | null; category: string },
  update: { status?: string; reason?: string; qualityScore?: string; category?: string },
) => [
  ...(update.status === undefined
    ? []
    : [
        envelope(businessAccountId, "message_template_status_update", {
          event: update.status,
          ...templateRef(template),
          reason: update.status === "REJECTED" ? (update.reason ?? "INVALID_FORMAT") : "NONE",
        }),
      ]),
  ...(update.qualityScore === undefined
    ? []
    : [
        envelope(businessAccountId, "message_template_quality_update", {
          previous_quality_score: template.qualityScore ?? "UNKNOWN",
          new_quality_score: update.qualityScore,
          ...templateRef(template),
        }),
      ]),
  ...(update.category === undefined
    ? []
    : [
        envelope(businessAccountId, "template_category_update", {
          previous_category: template.category,
          new_category: update.category,
          ...templateRef(template),
        }),
      ]),
]
