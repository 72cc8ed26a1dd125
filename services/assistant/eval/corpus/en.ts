import { at, type Conversation, conversation, lead } from "./types.ts"
import { WORLDS } from "./world.ts"

const c = conversation("en")
const CALL = "CALLBACK_REQUESTED"
const DEMO = "DEMO_REQUESTED"
const BOOK = "BOOKING"
const INFO = "GENERAL_INQUIRY"

/** English visitors of Brightside Digital (US number plan, America/New_York). */
export const EN: ReadonlyArray<Conversation> = [
  // callback
  c(
    "callback-01",
    "callback",
    ["Hi, I'm Dana. Please call me back on +1 (415) 555-0100"],
    lead("14155550100", "Dana", CALL),
  ),
  c("callback-02", "callback", ["can someone give me a call? 415-555-0123"], lead("14155550123", "", CALL)),
  c("callback-03", "callback", ["please ring me on 415.555.0188, thanks"], lead("14155550188", "", CALL)),
  c(
    "callback-04",
    "callback",
    ["hey", "I'd like to talk to someone about pricing, could you phone me?", "(212) 555-0147, ask for Marcus"],
    lead("12125550147", "Marcus", CALL),
  ),
  c(
    "callback-05",
    "callback",
    ["My name is Olivia Chen and I'd like a callback", "sure, 646 555 0191"],
    lead("16465550191", "Olivia Chen", CALL),
  ),
  c(
    "callback-06",
    "callback",
    ["Call me tomorrow morning if possible, 917-555-0162. Thanks, Raj"],
    lead("19175550162", "Raj", CALL),
  ),
  c("callback-07", "callback", ["Can you reach me by phone? My cell is 303 555 0111"], lead("13035550111", "", CALL)),
  // demo
  c(
    "demo-01",
    "demo",
    [
      { say: "I'd like a demo of your booking software", never: ["9:00 AM", "9:30 AM", "10:30 AM"] },
      "I'm Priya, 415 555 0170",
    ],
    lead("14155550170", "Priya", DEMO),
  ),
  c(
    "demo-02",
    "demo",
    ["Can we schedule a product demo for my team? This is Tom, 312-555-0109"],
    lead("13125550109", "Tom", DEMO),
  ),
  c(
    "demo-03",
    "demo",
    ["hi im sarah, interested in a demo", "my number is 415 555 0136"],
    lead("14155550136", "Sarah", DEMO),
  ),
  c(
    "demo-04",
    "demo",
    ["Could you show me how the appointment booking works in a walkthrough? 415-555-0155"],
    lead("14155550155", "", DEMO),
  ),
  // booking
  c(
    "booking-01",
    "booking",
    ["I'd like to book an appointment on Friday", "consultation", "10:30 works", "I'm Dana Lee, 415 555 0142"],
    lead("14155550142", "Dana Lee", BOOK, at("2026-11-27", "10:30")),
  ),
  c(
    "booking-02",
    "booking",
    ["do you have appointments tomorrow?", "consultation", "2pm please", "Ken Adams, 415-555-0143"],
    lead("14155550143", "Ken Adams", BOOK, at("2026-11-26", "14:00")),
  ),
  c(
    "booking-03",
    "booking",
    ["Book me an onboarding session on 3 Dec at 11am", "it's Maria, (415) 555-0144"],
    lead("14155550144", "Maria", BOOK, at("2026-12-03", "11:00", "onboarding session")),
  ),
  c(
    "booking-04",
    "booking",
    ["can i get a consultation next tuesday?", "the first one", "Leo, 4155550145"],
    lead("14155550145", "Leo", BOOK, at("2026-12-01", "09:00")),
  ),
  c(
    "booking-05",
    "booking",
    ["I need to schedule a meeting with you guys on Monday at 3pm", "consultation", "sure, Jenna 415 555 0146"],
    lead("14155550146", "Jenna", BOOK, at("2026-11-30", "15:00")),
  ),
  c(
    "booking-06",
    "booking",
    ["hi! any free slots on Thursday afternoon?", "consultation", "4:30 pm", "name's Bo, phone 415 555 0147"],
    lead("14155550147", "Bo", BOOK, at("2026-11-26", "16:30")),
  ),
  c(
    "booking-07",
    "booking",
    ["I want to reserve a consultation for December 2nd at noon", "Hannah Brooks", "415-555-0148"],
    lead("14155550148", "Hannah Brooks", BOOK, at("2026-12-02", "12:00")),
  ),
  // dates
  c(
    "dates-01",
    "dates",
    [
      { say: "Can I book a consultation for Thursday the 4th at 10?", says: ["?"] },
      "Thursday please, the 3rd",
      "I'm Zoe, 415 555 0150",
    ],
    lead("14155550150", "Zoe", BOOK, at("2026-12-03", "10:00")),
  ),
  c(
    "dates-02",
    "dates",
    ["book me in two days at half past two", "consultation", "Sam Ortiz 415 555 0151"],
    lead("14155550151", "Sam Ortiz", BOOK, at("2026-11-27", "14:30")),
  ),
  c(
    "dates-03",
    "dates",
    ["Could I come in on the 1st at nine thirty? I'm Ava, 415-555-0152", "consultation"],
    lead("14155550152", "Ava", BOOK, at("2026-12-01", "09:30")),
  ),
  c(
    "dates-04",
    "dates",
    ["appointment Thursday the 3rd at 9:30 am please", "consultation", "Noah, 415 555 0153"],
    lead("14155550153", "Noah", BOOK, at("2026-12-03", "09:30")),
  ),
  c(
    "dates-05",
    "dates",
    ["is the day after tomorrow at 11 free?", "consultation", "great, book it. Mia 415 555 0154"],
    lead("14155550154", "Mia", BOOK, at("2026-11-27", "11:00")),
  ),
  c(
    "dates-06",
    "dates",
    [
      { say: "I'd like an appointment on Monday Dec 1 at 10am", says: ["?"] },
      "Tuesday",
      "consultation",
      "Eli, 415 555 0156",
    ],
    lead("14155550156", "Eli", BOOK, at("2026-12-01", "10:00")),
  ),
  c(
    "dates-07",
    "dates",
    ["book a consultation on 12/4 at 1:30pm, I'm Grace, 415 555 0157"],
    lead("14155550157", "Grace", BOOK, at("2026-12-04", "13:30")),
  ),
  // closed day, past time
  c(
    "closed-01",
    "closed-past",
    [
      { say: "Can I book for Sunday at 11?", says: ["closed|not open"], never: ["phone number"] },
      "ok, Monday at 11 then",
      "consultation",
      "Liam 415 555 0158",
    ],
    lead("14155550158", "Liam", BOOK, at("2026-11-30", "11:00")),
  ),
  c(
    "closed-02",
    "closed-past",
    [
      { say: "book me today at 9am", says: ["passed|past|already"], never: ["phone number"] },
      "then 3pm today",
      "consultation",
      "Ivy, 415-555-0159",
    ],
    lead("14155550159", "Ivy", BOOK, at("2026-11-25", "15:00")),
  ),
  c(
    "closed-03",
    "closed-past",
    [
      { say: "can I come in on Saturday at 4pm?", says: ["2:00 PM|2 PM|14:00|2pm"] },
      "saturday at 11 then",
      "consultation",
      "Owen 415 555 0160",
    ],
    lead("14155550160", "Owen", BOOK, at("2026-11-28", "11:00")),
  ),
  c("closed-04", "closed-past", [{ say: "Appointment on Sunday the 29th please", says: ["closed|not open"] }], null),
  // faq
  c("faq-01", "faq", [{ say: "is there somewhere to park?", says: ["Mill Lane"] }], null),
  c("faq-02", "faq", [{ say: "What's the price?", says: ["$29"] }], null),
  c("faq-03", "faq", [{ say: "hi, how much is it per month?", says: ["$29"] }], null),
  c("faq-04", "faq", [{ say: "Can I try it for free first?", says: ["14 days"] }], null),
  c("faq-05", "faq", [{ say: "what's your address?", says: ["Harbor Street"] }], null),
  c("faq-06", "faq", [{ say: "do you take paypal?", says: ["PayPal"] }], null),
  c("faq-07", "faq", [{ say: "does it work with my shopify store", says: ["WooCommerce"] }], null),
  c("faq-08", "faq", [{ say: "Can I quit whenever I want?", says: ["Settings"] }], null),
  c("faq-09", "faq", [{ say: "is customer data kept safe and private?", says: ["GDPR"] }], null),
  c("faq-10", "faq", [{ say: "Hello! Is support available on Saturdays and Sundays?", says: ["7 days"] }], null),
  // opening hours, services, name
  c(
    "hours-01",
    "hours-services",
    [{ say: "What are your opening hours?", says: ["9:00 AM|9 AM|9:00|9am", "6:00 PM|6 PM|18:00|6pm"] }],
    null,
  ),
  c("hours-02", "hours-services", [{ say: "are you open on saturday?", says: ["10:00 AM|10 AM|10:00|10am"] }], null),
  c("hours-03", "hours-services", [{ say: "what services do you offer?", says: ["consultation", "onboarding"] }], null),
  c("hours-04", "hours-services", [{ say: "what's the name of your company again?", says: ["Brightside"] }], null),
  c("hours-05", "hours-services", [{ say: "when do you close today?", says: ["6:00 PM|6 PM|18:00|6pm"] }], null),
  // unknown
  c(
    "unknown-01",
    "unknown",
    [{ say: "Do you sell printers?", says: ["?"], never: ["$29", "Mill Lane", "PayPal"] }],
    null,
  ),
  c(
    "unknown-02",
    "unknown",
    [
      { say: "Can you fix my laptop's screen?", says: ["?"], never: ["$29", "Mill Lane"] },
      "yes please call me, 415 555 0161",
    ],
    lead("14155550161", "", CALL),
  ),
  // reference numbers
  c("reference-01", "reference", ["my order number is 4839201745 and it hasn't arrived"], null, [
    "14839201745",
    "4839201745",
  ]),
  c(
    "reference-02",
    "reference",
    ["Invoice 20261145 looks wrong, can someone call me at 415 555 0163?"],
    lead("14155550163", "", CALL),
    ["20261145"],
  ),
  c("reference-03", "reference", ["Membership no. 12345678 — I can't log in"], null, ["12345678"]),
  c("reference-04", "reference", ["ticket #8839217 still open, my account number is 0012345678"], null, [
    "8839217",
    "0012345678",
    "10012345678",
  ]),
  c(
    "reference-05",
    "reference",
    ["tracking number 9400111899223344556677 says delivered but nothing came. I'm Lucy, call me 415-555-0164"],
    lead("14155550164", "Lucy", CALL),
    ["9400111899223344556677"],
  ),
  c("reference-06", "reference", ["my customer number is 5512345678, please update my address"], null, [
    "5512345678",
    "15512345678",
  ]),
  c("reference-07", "reference", ["booking reference 7734521 — can I change it?"], null, ["7734521"]),
  // phone formats
  c("phone-01", "phone-format", ["I'm in London, call me on +44 (0) 7700 900 456"], lead("447700900456", "", CALL)),
  c("phone-02", "phone-format", ["reach me on +33 6 12 34 56 78, I'm Julien"], lead("33612345678", "Julien", CALL)),
  c("phone-03", "phone-format", ["my number: 4155550165"], lead("14155550165", "", INFO)),
  c("phone-04", "phone-format", ["text or call +1-415-555-0166"], lead("14155550166", "", CALL)),
  // A UK number written internationally (with or without the "(0)" trunk prefix) to a US business:
  // taken, and said as taken (docs/contract.md §8).
  c(
    "phone-05",
    "phone-format",
    [{ say: "I'm Tom, please call me on +44 7700 900123", says: ["call you back"], never: ["not sure"] }],
    lead("447700900123", "Tom", CALL),
  ),
  // A UK national number to a US business is no US number: asked about, recorded nowhere
  // (never as a made-up 1 07700…) until the visitor writes it with its country code.
  c(
    "phone-06",
    "phone-format",
    [{ say: "Can you call me? 07700 900123", says: ["not sure 07700 900123"], never: ["call you back"] }],
    null,
    ["107700900123"],
  ),
  c(
    "phone-07",
    "phone-format",
    [
      { say: "Can you call me? 07700 900123", says: ["07700 900123"], never: ["call you back"] },
      { say: "sorry, it's +44 7700 900123", says: ["call you back"] },
    ],
    lead("447700900123", "", CALL),
    ["107700900123"],
  ),
  // The same UK national number to a business in Great Britain: a number of its own country.
  {
    ...c(
      "phone-09",
      "phone-format",
      [{ say: "Can you call me? 07700 900123", says: ["call you back"], never: ["not sure"] }],
      lead("447700900123", "", CALL),
    ),
    world: { ...WORLDS.en, settings: { ...WORLDS.en.settings, country: "GB" } },
  },
  c(
    "phone-08",
    "phone-format",
    [{ say: "I'm Tom, please call me on +44 (0) 7700 900456", says: ["call you back"], never: ["not sure"] }],
    lead("447700900456", "Tom", CALL),
  ),
  // names
  c("name-01", "name", ["this is dr. patel, please call me at 415 555 0167"], lead("14155550167", "Dr. Patel", CALL)),
  c("name-02", "name", ["Hi there, Chris here. 415-555-0168, call me back please"], lead("14155550168", "Chris", CALL)),
  c("name-03", "name", ["I'm interested in your product. Call me: 415 555 0169"], lead("14155550169", "", CALL)),
  c("name-04", "name", ["hello, my name's anna maria, number 415 555 0171"], lead("14155550171", "Anna Maria", INFO)),
  // cancel, move
  c(
    "cancel-01",
    "cancel-move",
    [
      "book a consultation Friday at 10am, I'm Kate, 415 555 0172",
      { say: "actually, please cancel that appointment", says: ["cancel"] },
    ],
    lead("14155550172", "Kate", BOOK),
  ),
  c(
    "cancel-02",
    "cancel-move",
    [
      "I'm Ben, 415 555 0173, book me Monday at 9:30",
      "consultation",
      { say: "can we move it to Tuesday at 2pm instead?", says: ["2:00 PM|2 PM|14:00"] },
    ],
    lead("14155550173", "Ben", BOOK, at("2026-12-01", "14:00")),
  ),
  c(
    "cancel-03",
    "cancel-move",
    ["Tara, 415 555 0174. I'd like an appointment tomorrow at 11", "consultation", "sorry, could we push it to 3pm?"],
    lead("14155550174", "Tara", BOOK, at("2026-11-26", "15:00")),
  ),
  // corrections
  c(
    "correction-01",
    "correction",
    ["call me on 415 555 0175", "sorry, wrong number, it's 415 555 0176"],
    lead("14155550176", "", CALL),
  ),
  c(
    "correction-02",
    "correction",
    ["I'm Rosa, call me back on 415 555 0177", "actually don't call me, I'll email you instead"],
    lead("14155550177", "Rosa", INFO),
  ),
  c(
    "correction-03",
    "correction",
    ["please do not call me, just send info. my number is 415 555 0178 in case"],
    lead("14155550178", "", INFO),
  ),
  // general
  c("general-01", "general", ["Hello!", "just browsing, thanks"], null),
  c("general-02", "general", ["We need 3 licences for 12 people at 2 sites, budget around $1,250.00"], null),
  c("general-03", "general", ["I have a question about my bill, 415 555 0179"], lead("14155550179", "", INFO)),
]
