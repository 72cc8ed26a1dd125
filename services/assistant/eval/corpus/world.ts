import type { Lang } from "./types.ts"

/**
 * The business each language's conversations talk to: a small software company that sells a
 * subscription product, gives demos, and books consultations and onboarding sessions. Its
 * profile (docs/contract.md §8) and booking settings (§9) are set before every conversation.
 *
 * Calendar of the corpus (today is Wednesday 25 November 2026, 10:00 local):
 * Thu 26, Fri 27, Sat 28 (10:00–14:00), Sun 29 (closed), Mon 30 November; Tue 1, Wed 2, Thu 3,
 * Fri 4, Sat 5, Sun 6, Mon 7 December. Weekdays 09:00–18:00, 30-minute slots, one place each.
 */
export const NOW = { date: "2026-11-25", time: "10:00" }

const WEEKDAY: ReadonlyArray<readonly [string, string]> = [["09:00", "18:00"]]
const hours = {
  mon: WEEKDAY,
  tue: WEEKDAY,
  wed: WEEKDAY,
  thu: WEEKDAY,
  fri: WEEKDAY,
  sat: [["10:00", "14:00"]],
  sun: [],
}

export interface World {
  readonly settings: {
    readonly timezone: string
    readonly country: string
    readonly services: ReadonlyArray<string>
    readonly slotMinutes: number
    readonly capacity: number
    readonly hours: Readonly<Partial<Record<keyof typeof hours, ReadonlyArray<ReadonlyArray<string>>>>>
  }
  readonly profile: {
    readonly businessName: string
    readonly languages: ReadonlyArray<Lang>
    readonly greeting?: string
    readonly about?: string
    readonly faqs: ReadonlyArray<{ readonly question: string; readonly answer: string }>
    readonly handoffMessage?: string
  }
}

export const WORLDS: Record<Lang, World> = {
  en: {
    settings: {
      timezone: "America/New_York",
      country: "US",
      services: ["consultation", "onboarding session"],
      slotMinutes: 30,
      capacity: 1,
      hours,
    },
    profile: {
      businessName: "Brightside Digital",
      languages: ["en", "es"],
      about: "Brightside Digital makes scheduling and point-of-sale software for small shops.",
      faqs: [
        { question: "Do you have parking?", answer: "Yes, free parking behind the building on Mill Lane." },
        { question: "How much does it cost?", answer: "Plans start at $29 per month; the first consultation is free." },
        { question: "Is there a free trial?", answer: "Yes, 14 days free, no credit card needed." },
        { question: "Where is your office?", answer: "We are at 12 Harbor Street, Portland, Maine." },
        { question: "Which payment methods do you accept?", answer: "Visa, Mastercard, PayPal and bank transfer." },
        { question: "Can I export my data?", answer: "Yes, everything exports to CSV at any time." },
        { question: "Do you integrate with Shopify?", answer: "Yes: Shopify, WooCommerce and Square." },
        {
          question: "Can I cancel my subscription?",
          answer: "No long-term contract: cancel your plan from Settings whenever you like.",
        },
        {
          question: "Do you offer support on weekends?",
          answer: "Email support 7 days a week; phone support on weekdays.",
        },
        { question: "Is my data safe?", answer: "Your data is encrypted and stored in the EU; we are GDPR compliant." },
      ],
    },
  },
  es: {
    settings: {
      timezone: "Europe/Madrid",
      country: "ES",
      services: ["consulta", "formación"],
      slotMinutes: 30,
      capacity: 1,
      hours,
    },
    profile: {
      businessName: "Soluciones Brío",
      languages: ["es", "en"],
      faqs: [
        {
          question: "¿Tenéis aparcamiento?",
          answer: "Sí, hay parking gratuito en la calle Almendro, detrás de la oficina.",
        },
        { question: "¿Cuánto cuesta?", answer: "Los planes empiezan en 25 € al mes; la primera consulta es gratis." },
        { question: "¿Hay una prueba gratuita?", answer: "Sí, 14 días gratis sin tarjeta." },
        { question: "¿Dónde estáis?", answer: "Estamos en la calle Mayor 8, Valencia." },
        { question: "¿Qué formas de pago aceptáis?", answer: "Tarjeta, Bizum y transferencia bancaria." },
        { question: "¿Funciona con Shopify?", answer: "Sí: Shopify, WooCommerce y PrestaShop." },
        {
          question: "¿Puedo darme de baja cuando quiera?",
          answer: "Sin permanencia: puedes cancelar el plan desde Ajustes cuando quieras.",
        },
        {
          question: "¿Mis datos están seguros?",
          answer: "Los datos se cifran y se guardan en la UE; cumplimos el RGPD.",
        },
      ],
      handoffMessage: "No tengo esa información ahora mismo. ¿Quieres que alguien del equipo te llame?",
    },
  },
  de: {
    settings: {
      timezone: "Europe/Berlin",
      country: "DE",
      services: ["Beratung", "Einführung"],
      slotMinutes: 30,
      capacity: 1,
      hours,
    },
    profile: {
      businessName: "Nordlicht Software",
      languages: ["de", "en"],
      faqs: [
        { question: "Gibt es Parkplätze?", answer: "Ja, kostenlose Parkplätze im Hof der Lindenstraße 4." },
        {
          question: "Was kostet das?",
          answer: "Die Tarife beginnen bei 25 € im Monat; die erste Beratung ist kostenlos.",
        },
        { question: "Gibt es eine kostenlose Testphase?", answer: "Ja, 14 Tage kostenlos, ohne Kreditkarte." },
        { question: "Wo ist euer Büro?", answer: "Unser Büro ist in der Lindenstraße 4, Hamburg." },
        {
          question: "Welche Zahlungsarten akzeptiert ihr?",
          answer: "Überweisung, SEPA-Lastschrift, Kreditkarte und PayPal.",
        },
        { question: "Funktioniert es mit Shopify?", answer: "Ja: Shopify, WooCommerce und Shopware." },
        {
          question: "Kann ich jederzeit kündigen?",
          answer: "Keine Mindestlaufzeit: Sie können monatlich in den Einstellungen kündigen.",
        },
        {
          question: "Sind meine Daten sicher?",
          answer: "Die Daten liegen verschlüsselt in Rechenzentren in Frankfurt, DSGVO-konform.",
        },
      ],
      handoffMessage: "Das kann ich leider nicht beantworten. Sollen wir Sie zurückrufen?",
    },
  },
  fr: {
    settings: {
      timezone: "Europe/Paris",
      country: "FR",
      services: ["consultation", "formation"],
      slotMinutes: 30,
      capacity: 1,
      hours,
    },
    profile: {
      businessName: "Atelier Lumière",
      languages: ["fr", "en"],
      faqs: [
        {
          question: "Avez-vous un parking ?",
          answer: "Oui, un parking gratuit rue des Tanneurs, juste derrière le bureau.",
        },
        {
          question: "Combien ça coûte ?",
          answer: "Les formules commencent à 25 € par mois ; la première consultation est offerte.",
        },
        { question: "Y a-t-il un essai gratuit ?", answer: "Oui, 14 jours gratuits, sans carte bancaire." },
        { question: "Où se trouve votre bureau ?", answer: "Au 5 rue des Tanneurs, Lyon." },
        {
          question: "Quels moyens de paiement acceptez-vous ?",
          answer: "Carte bancaire, virement et prélèvement SEPA.",
        },
        { question: "Est-ce compatible avec Shopify ?", answer: "Oui : Shopify, WooCommerce et PrestaShop." },
        {
          question: "Puis-je résilier à tout moment ?",
          answer: "Sans engagement : vous résiliez depuis les Réglages quand vous voulez.",
        },
        {
          question: "Mes données sont-elles en sécurité ?",
          answer: "Les données sont chiffrées et hébergées en France, conformément au RGPD.",
        },
      ],
      handoffMessage: "Je n'ai pas cette information. Voulez-vous qu'un membre de l'équipe vous rappelle ?",
    },
  },
  pt: {
    settings: {
      timezone: "America/Sao_Paulo",
      country: "BR",
      services: ["consulta", "treinamento"],
      slotMinutes: 30,
      capacity: 1,
      hours,
    },
    profile: {
      businessName: "Nuvem Clara Sistemas",
      languages: ["pt", "en"],
      faqs: [
        {
          question: "Vocês têm estacionamento?",
          answer: "Sim, estacionamento gratuito na Rua das Acácias, atrás do escritório.",
        },
        { question: "Quanto custa?", answer: "Os planos começam em R$ 99 por mês; a primeira consulta é gratuita." },
        { question: "Tem teste grátis?", answer: "Sim, 14 dias grátis, sem cartão de crédito." },
        { question: "Onde fica o escritório?", answer: "Ficamos na Rua das Acácias, 120, Campinas." },
        { question: "Quais formas de pagamento vocês aceitam?", answer: "Pix, boleto e cartão de crédito." },
        { question: "Funciona com a Shopify?", answer: "Sim: Shopify, Nuvemshop e WooCommerce." },
        {
          question: "Posso cancelar quando quiser?",
          answer: "Sem fidelidade: cancele o plano nas Configurações quando quiser.",
        },
        {
          question: "Meus dados estão seguros?",
          answer: "Os dados são criptografados e ficam no Brasil, de acordo com a LGPD.",
        },
      ],
      handoffMessage: "Não tenho essa informação agora. Quer que alguém da equipe ligue para você?",
    },
  },
}
