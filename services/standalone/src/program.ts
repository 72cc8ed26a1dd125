/**
 * `npm start`'s composition root (loaded by `main.ts`): every Parley service in one process. Reads
 * the environment once, starts, and on the first start creates the demo organization and prints how
 * to use it.
 */
import { runMain } from "@parley/platform"
import { Effect } from "effect"
import { createDemoAccount, readBootstrapMarker } from "./bootstrap.ts"
import { startStandalone } from "./standalone.ts"

const print = (line = "") => process.stdout.write(`${line}\n`)

const program = Effect.gen(function* () {
  const running = yield* startStandalone(process.env)
  const operatorToken = running.env.PARLEY_OPERATOR_TOKEN as string
  const marker = yield* Effect.promise(() => readBootstrapMarker(running.dataDir, running.database))
  print()
  print(`Parley is running at ${running.url}`)
  // At the public URL, not the listening address: sessions accept only that origin (CSRF, §2.4).
  print(`  console:  ${running.publicUrl}/console/`)
  print(`  health:   ${running.url}/health/ready`)
  print(`  metrics:  ${running.metricsUrl}/metrics (loopback only)`)
  print(`  data:     ${running.dataDir}${running.embeddedDatabase ? " (embedded Postgres)" : ""}`)
  if (marker === undefined) {
    const demo = yield* Effect.promise(() =>
      createDemoAccount(running.url, operatorToken, running.dataDir, running.database),
    )
    print()
    print("First start: a demo organization was created. These are shown once; keep them somewhere safe.")
    print(`  operator token:  ${operatorToken}`)
    print(`  admin login:     ${demo.adminEmail} / ${demo.adminPassword}  (sign in at ${running.publicUrl}/console/)`)
    print(`  API key:         ${demo.apiKey}`)
    print()
    print(`  try: curl -H 'X-API-Key: ${demo.apiKey}' ${running.url}/api/org/webhook-events`)
    print()
    print('No WhatsApp account needed to try messaging: sign in, open Channels, press "Connect the sandbox",')
    print('then "Simulate a customer". Parley plays the provider; nothing leaves this machine.')
    print(`  ${running.publicUrl}/console/channels`)
    print(
      `  or: curl -X PUT -H 'X-API-Key: ${demo.apiKey}' -H 'content-type: application/json' -d '{"sandbox":true}' ${running.url}/api/channels/cloud`,
    )
  } else {
    print(
      `  demo org: ${marker.organizationId} (admin ${marker.adminEmail}); operator token in ${running.secrets.file}`,
    )
  }
  if (running.verifyToken !== undefined) {
    print(
      running.verifyToken.created
        ? `  cloud webhook verify token (generated, kept in ${running.verifyToken.file}): ${running.verifyToken.token}`
        : `  cloud webhook verify token: in ${running.verifyToken.file}`,
    )
  }
  print()
  print("Parley is ready. Ctrl-C stops it.")
  return yield* Effect.never
})

runMain(program.pipe(Effect.scoped))
