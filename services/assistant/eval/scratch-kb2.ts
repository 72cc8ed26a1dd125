import { findAnswer } from "../src/engine/knowledge.ts"
console.log(findAnswer([{ question: "What is your cancellation policy?", answer: "Cancel 24 hours ahead, or a $20 fee applies." }], undefined, "what happens if I have to cancel my appointment last minute?", "en"))
console.log(findAnswer([{ question: "What is your cancellation policy?", answer: "Cancel 24 hours ahead, or a $20 fee applies." }], undefined, "what happens if I cancel my appointment late?", "en"))
