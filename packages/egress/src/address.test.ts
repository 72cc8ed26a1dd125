import { describe, expect, it } from "vitest"
import { isPublicAddress } from "./address.ts"

describe("isPublicAddress", () => {
  it.each([
    "127.0.0.1",
    "127.255.1.2",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "192.0.2.10",
    "198.18.0.1",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "240.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "fe80::1",
    "fe80::1%eth0",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",
    "2001:db8::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:0:a00:1",
    "::127.0.0.1",
    "64:ff9b::a00:1",
    "2002:7f00:1::",
    "2001:0:4136:e378::1",
    "[::1]",
    "not-an-ip",
  ])("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false)
  })

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
  ])("accepts the public address %s", (address) => {
    expect(isPublicAddress(address)).toBe(true)
  })
})
