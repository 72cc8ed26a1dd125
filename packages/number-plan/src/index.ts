export { inPlan, isInPlan } from "./plan.ts"
