import { at, type Conversation, conversation, lead } from "./types.ts"

const c = conversation("pt")
const CALL = "CALLBACK_REQUESTED"
const DEMO = "DEMO_REQUESTED"
const BOOK = "BOOKING"
const INFO = "GENERAL_INQUIRY"

/** Portuguese-speaking visitors of Nuvem Clara Sistemas (Brazilian number plan, America/Sao_Paulo). */
export const PT: ReadonlyArray<Conversation> = [
  // callback
  c(
    "callback-01",
    "callback",
    ["Olá, meu nome é João. Podem me ligar? (11) 98765-4321"],
    lead("5511987654321", "João", CALL),
  ),
  c("callback-02", "callback", ["me liga por favor 11 91234-5678"], lead("5511912345678", "", CALL)),
  c(
    "callback-03",
    "callback",
    ["Boa tarde, gostaria que alguém me ligasse para falar de preços", "+55 21 99876 5432"],
    lead("5521998765432", "", CALL),
  ),
  c(
    "callback-04",
    "callback",
    ["Aqui é a Fernanda Lima, pode me retornar a ligação? (31) 98888-7777"],
    lead("5531988887777", "Fernanda Lima", CALL),
  ),
  c(
    "callback-05",
    "callback",
    ["Alguém pode me telefonar amanhã de manhã? Tel: (11) 3456-7890"],
    lead("551134567890", "", CALL),
  ),
  // demo
  c(
    "demo-01",
    "demo",
    [
      { say: "Quero uma demonstração do sistema de agendamento de vocês", never: ["09:00", "10:30"] },
      "Sou a Beatriz, (11) 97777-1111",
    ],
    lead("5511977771111", "Beatriz", DEMO),
  ),
  c(
    "demo-02",
    "demo",
    ["Vocês podem fazer uma demo para a minha equipe? Me chamo Rafael, (11) 96666-2222"],
    lead("5511966662222", "Rafael", DEMO),
  ),
  c(
    "demo-03",
    "demo",
    ["tenho interesse em ver uma demo", "meu celular é (11) 95555-3333"],
    lead("5511955553333", "", DEMO),
  ),
  // booking
  c(
    "booking-01",
    "booking",
    ["Oi, queria marcar um horário na sexta", "consulta", "10:30", "Mariana Souza, (11) 90000-1111"],
    lead("5511900001111", "Mariana Souza", BOOK, at("2026-11-27", "10:30")),
  ),
  c(
    "booking-02",
    "booking",
    ["Vocês têm horário amanhã para uma consulta?", "às 16h", "Lucas, (11) 90000-1112"],
    lead("5511900001112", "Lucas", BOOK, at("2026-11-26", "16:00")),
  ),
  c(
    "booking-03",
    "booking",
    ["Quero agendar um treinamento no dia 3 de dezembro às 11h", "meu nome é Camila, (11) 90000-1113"],
    lead("5511900001113", "Camila", BOOK, at("2026-12-03", "11:00", "treinamento")),
  ),
  c(
    "booking-04",
    "booking",
    ["dá pra marcar na segunda às 12h?", "consulta", "Gustavo Alves (11) 90000-1114"],
    lead("5511900001114", "Gustavo Alves", BOOK, at("2026-11-30", "12:00")),
  ),
  c(
    "booking-05",
    "booking",
    ["preciso de uma consulta na próxima terça", "o primeiro horário", "Larissa, (11) 90000-1115"],
    lead("5511900001115", "Larissa", BOOK, at("2026-12-01", "09:00")),
  ),
  // dates
  c(
    "dates-01",
    "dates",
    [
      { say: "Pode ser quinta-feira dia 4 às 10h?", says: ["?"] },
      "quinta, dia 3 então",
      "consulta",
      "Sou o Pedro, (11) 90000-1116",
    ],
    lead("5511900001116", "Pedro", BOOK, at("2026-12-03", "10:00")),
  ),
  c(
    "dates-02",
    "dates",
    ["quero marcar depois de amanhã às 11h", "consulta", "Júlia (11) 90000-1117"],
    lead("5511900001117", "Júlia", BOOK, at("2026-11-27", "11:00")),
  ),
  c(
    "dates-03",
    "dates",
    ["Daqui a dois dias às 14h30 dá? Me chamo Diego, (11) 90000-1118", "consulta"],
    lead("5511900001118", "Diego", BOOK, at("2026-11-27", "14:30")),
  ),
  c(
    "dates-04",
    "dates",
    ["dia 2 de dezembro ao meio-dia tem vaga? Ana, (11) 90000-1119", "consulta"],
    lead("5511900001119", "Ana", BOOK, at("2026-12-02", "12:00")),
  ),
  c(
    "dates-05",
    "dates",
    ["agendar para 04/12 às 13h30, Bruno (11) 90000-1120", "consulta"],
    lead("5511900001120", "Bruno", BOOK, at("2026-12-04", "13:30")),
  ),
  // closed, past
  c(
    "closed-01",
    "closed-past",
    [
      { say: "Posso ir no domingo às 11h?", says: ["fechado"], never: ["telefone"] },
      "tá, então segunda às 11h",
      "consulta",
      "Renato (11) 90000-1121",
    ],
    lead("5511900001121", "Renato", BOOK, at("2026-11-30", "11:00")),
  ),
  c(
    "closed-02",
    "closed-past",
    [
      { say: "horário hoje às 9h", says: ["já passou"], never: ["telefone"] },
      "então hoje às 15h",
      "consulta",
      "Paula, (11) 90000-1122",
    ],
    lead("5511900001122", "Paula", BOOK, at("2026-11-25", "15:00")),
  ),
  c("closed-03", "closed-past", [{ say: "sábado às 17h?", says: ["14:00|14h"] }], null),
  // faq
  c("faq-01", "faq", [{ say: "Onde posso estacionar?", says: ["Acácias"] }], null),
  c("faq-02", "faq", [{ say: "Qual é o preço?", says: ["R$ 99"] }], null),
  c("faq-03", "faq", [{ say: "Dá pra testar de graça?", says: ["14 dias"] }], null),
  c("faq-04", "faq", [{ say: "Qual o endereço de vocês?", says: ["Campinas"] }], null),
  c("faq-05", "faq", [{ say: "Aceitam pix?", says: ["Pix"] }], null),
  c("faq-06", "faq", [{ say: "Integra com a minha loja na Nuvemshop?", says: ["Nuvemshop"] }], null),
  c("faq-07", "faq", [{ say: "Tem fidelidade?", says: ["Sem fidelidade"] }], null),
  c("faq-08", "faq", [{ say: "Vocês seguem a LGPD?", says: ["LGPD"] }], null),
  // hours, services, name
  c(
    "hours-01",
    "hours-services",
    [{ say: "Qual é o horário de funcionamento?", says: ["9:00|09:00|9h", "18:00|18h"] }],
    null,
  ),
  c("hours-02", "hours-services", [{ say: "Vocês abrem aos sábados?", says: ["10:00|10h", "14:00|14h"] }], null),
  c("hours-03", "hours-services", [{ say: "Quais serviços vocês oferecem?", says: ["consulta", "treinamento"] }], null),
  // unknown
  c("unknown-01", "unknown", [{ say: "Vocês vendem impressoras?", says: ["alguém da equipe ligue para você"] }], null),
  c(
    "unknown-02",
    "unknown",
    [
      { say: "Vocês consertam notebook?", says: ["alguém da equipe ligue para você"] },
      "sim, me liga no (11) 90000-1123",
    ],
    lead("5511900001123", "", CALL),
  ),
  // reference numbers
  c("reference-01", "reference", ["O número do meu pedido é 4839201745 e ainda não chegou"], null, [
    "4839201745",
    "554839201745",
  ]),
  c(
    "reference-02",
    "reference",
    ["O boleto 20261145 veio errado, me liga no (11) 90000-1124"],
    lead("5511900001124", "", CALL),
    ["20261145"],
  ),
  c("reference-03", "reference", ["meu CPF é 123.456.789-09, preciso da segunda via"], null, [
    "12345678909",
    "5512345678909",
  ]),
  c("reference-04", "reference", ["protocolo de atendimento 11987654321, ninguém resolveu"], null, [
    "11987654321",
    "5511987654321",
  ]),
  c("reference-05", "reference", ["código de rastreio BR123456789BR não atualiza"], null, ["123456789"]),
  // phone formats
  c("phone-01", "phone-format", ["meu telefone: +55 (11) 98765-4322"], lead("5511987654322", "", INFO)),
  c("phone-02", "phone-format", ["me liga no 011 98765 4323"], lead("5511987654323", "", CALL)),
  c("phone-03", "phone-format", ["whatsapp 11987654324, pode ligar"], lead("5511987654324", "", CALL)),
  // names
  c("name-01", "name", ["oi aqui é a carla, me liga no (11) 90000-1125"], lead("5511900001125", "Carla", CALL)),
  c("name-02", "name", ["Sou novo por aqui, meu número é (11) 90000-1126"], lead("5511900001126", "", INFO)),
  // cancel, move
  c(
    "cancel-01",
    "cancel-move",
    [
      "Sou o Marcelo, (11) 90000-1127, quero horário na sexta às 10h",
      "consulta",
      { say: "pode cancelar o horário, por favor", says: ["cancelad"] },
    ],
    lead("5511900001127", "Marcelo", BOOK),
  ),
  c(
    "cancel-02",
    "cancel-move",
    ["Sou a Vanessa, (11) 90000-1128, horário na segunda às 9h30", "consulta", "Dá pra remarcar para terça às 14h?"],
    lead("5511900001128", "Vanessa", BOOK, at("2026-12-01", "14:00")),
  ),
  // corrections
  c(
    "correction-01",
    "correction",
    ["me liga no (11) 90000-1129", "desculpa, número errado, o certo é (11) 90000-1130"],
    lead("5511900001130", "", CALL),
  ),
  c(
    "correction-02",
    "correction",
    ["Sou a Patrícia, me liga no (11) 90000-1131", "pensando bem, não precisa ligar, vou mandar um e-mail"],
    lead("5511900001131", "Patrícia", INFO),
  ),
  // general
  c("general-01", "general", ["Olá", "só estou dando uma olhada, obrigado"], null),
  c("general-02", "general", ["Somos 12 pessoas em 3 lojas, orçamento de R$ 1.250,00"], null),
]
