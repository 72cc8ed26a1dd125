import { describe, expect, it } from "vitest"
import { findPhone, findPhones } from "./phone.ts"

describe("findPhone", () => {
  it.each([
    ["call me on +1 (415) 555-0100", "US", "14155550100"],
    ["my order number is 4839201745 and it hasn't arrived", "US", undefined],
    ["Invoice 20261145 looks wrong, can someone call me at 415 555 0163?", "US", "14155550163"],
    ["I'm in London, call me on +44 (0) 7700 900 456", "US", "447700900456"],
    ["ticket #8839217 still open, my account number is 0012345678", "US", undefined],
    ["my customer number is 5512345678, please update my address", "US", undefined],
    ["booking reference 7734521 — can I change it?", "US", undefined],
    ["nº de socio 612345678, no puedo entrar", "ES", undefined],
    ["Mi DNI es 12345678Z y el localizador de la reserva es 7734521", "ES", undefined],
    ["número de cliente 655443322, quiero cambiar", "ES", undefined],
    ["llamadme al 0034 699 123 456", "ES", "34699123456"],
    ["mi fijo es el 91 123 45 67", "ES", "34911234567"],
    ["meine Nummer: +49 (0)171 2345678", "DE", "491712345678"],
    ["Tel.: 089 / 12 34 56 78, bitte Rückruf", "DE", "498912345678"],
    ["Meine Kundennummer lautet 01712345678", "DE", undefined],
    ["Sendungsnummer 00340434161234567890 zeigt nichts an", "DE", undefined],
    ["Mitgliedsnummer 30123456 – ich komme", "DE", undefined],
    ["numéro client 0612345678, merci", "FR", undefined],
    ["numéro d'adhérent 06 11 22 33 99, je", "FR", undefined],
    ["mon numéro de suivi 6A12345678901 n'avance pas", "FR", undefined],
    ["appelez-moi au 0033 6 12 34 56 79", "FR", "33612345679"],
    ["mon numéro : +33 (0)6 12 34 56 78", "FR", "33612345678"],
    ["meu CPF é 123.456.789-09, preciso", "BR", undefined],
    ["protocolo de atendimento 11987654321, ninguém", "BR", undefined],
    ["me liga no 011 98765 4323", "BR", "5511987654323"],
    ["whatsapp 11987654324, pode ligar", "BR", "5511987654324"],
    ["Alguém pode me telefonar amanhã de manhã? Tel: (11) 3456-7890", "BR", "551134567890"],
    ["We need 3 licences for 12 people at 2 sites, budget around $1,250.00", "US", undefined],
    ["Somos 12 personas en 3 tiendas, presupuesto de 1.250,00 €", "ES", undefined],
    ["reserva para el 4/12 a las 13:30, Álvaro 612 000 120", "ES", "34612000120"],
    ["Termin am 04.12. um 13:30, Ben 0171 0001120", "DE", "491710001120"],
    ["my phone is 555-1234", "US", "15551234"],
    ["meu CEP é 01310-100, pode me ligar? 11 98888-7776", "BR", "5511988887776"],
    ["my zip code is 60614 and my number 773 555 0100", "US", "17735550100"],
    ["PLZ 10437, Handy 0151 5550166", "DE", "491515550166"],
    ["my phone is 123456789012345", "US", "123456789012345"],
    ["call me at 12345", "US", undefined],
    ["how about 24.11.2026 at 10:00", "DE", undefined],
    ["book a consultation on 12/4 at 1:30pm, I'm Grace, 415 555 0157", "US", "14155550157"],
    ["id love a callback, 415 555 0158", "US", "14155550158"],
    ["my id is 415 555 0159", "US", undefined],
  ] as Array<[string, string, string | undefined]>)("reads %j in %s as %s", (text, country, digits) => {
    expect(findPhone(text, country)?.digits).toBe(digits)
  })

  it("gives a national number the plan does not know its country code, keeps a + number as written, and reads 00 as the international prefix", () => {
    expect(findPhone("5551234", "US")?.digits).toBe("15551234")
    expect(findPhone("o meu é 912 345 67", "PT")?.digits).toBe("35191234567")
    expect(findPhone("tel 0800 123 456", "PT")?.digits).toBe("3510800123456")
    expect(findPhone("Handy 0172 12345", "DE")?.digits).toBe("4917212345")
    expect(findPhone("+999 123 4567", "US")?.digits).toBe("9991234567")
    expect(findPhone("I'm Dana, I'd like a demo, 0049 30 1234567", "US")?.digits).toBe("49301234567")
  })

  it("finds every number, in order", () => {
    const found = findPhones("call me on 415 555 0100 or +44 20 7946 0958", "US")
    expect(found.map((phone) => phone.digits)).toEqual(["14155550100", "442079460958"])
  })
})

describe("findPhone on hostile input", () => {
  it.each([
    ["a 4,096-digit run", "1".repeat(4096)],
    ["4,096 characters of dotted digits", "1.".repeat(2048)],
    ["4,096 characters of spaced digits", "1 ".repeat(2048)],
  ])("stays fast on %s", (_, text) => {
    const started = performance.now()
    findPhone(text, "US")
    expect(performance.now() - started).toBeLessThan(50)
  })
})

describe("a date written with its year, and the hour after it", () => {
  it.each([
    ["book on 2026-12-02 10:00", "US"],
    ["can I come 2026-12-04 10:30?", "US"],
    ["el 02-12-2026 10:00", "ES"],
    ["am 02.12.2026 10 Uhr", "DE"],
    ["on 12/02/2026 10:30", "US"],
  ])("is no phone number (%j)", (text, country) => {
    expect(findPhones(text, country)).toEqual([])
  })

  it("leaves a number beside a date a number", () => {
    expect(findPhones("2026-12-02 10:00, call me on 415-555-0101", "US").map((p) => p.digits)).toEqual(["14155550101"])
  })
})
