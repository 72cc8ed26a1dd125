/** The launcher's few words, in each language of the widget; the panel carries its own (panel/strings.ts). */
import type { Language } from "../shared/language.ts"

export interface LauncherStrings {
  readonly open: string
  readonly close: string
  readonly loading: string
  readonly loadFailed: string
}

export const LAUNCHER_STRINGS: Readonly<Record<Language, LauncherStrings>> = {
  en: {
    open: "Open chat",
    close: "Close chat",
    loading: "Opening chat…",
    loadFailed: "The chat could not be loaded. Check your connection and select the button to try again.",
  },
  es: {
    open: "Abrir chat",
    close: "Cerrar chat",
    loading: "Abriendo el chat…",
    loadFailed: "No se pudo cargar el chat. Comprueba tu conexión y pulsa el botón para volver a intentarlo.",
  },
  de: {
    open: "Chat öffnen",
    close: "Chat schließen",
    loading: "Chat wird geöffnet…",
    loadFailed:
      "Der Chat konnte nicht geladen werden. Prüfen Sie Ihre Verbindung und wählen Sie die Schaltfläche erneut.",
  },
  fr: {
    open: "Ouvrir le chat",
    close: "Fermer le chat",
    loading: "Ouverture du chat…",
    loadFailed: "Le chat n’a pas pu être chargé. Vérifiez votre connexion et sélectionnez le bouton pour réessayer.",
  },
  pt: {
    open: "Abrir chat",
    close: "Fechar chat",
    loading: "Abrindo o chat…",
    loadFailed: "Não foi possível carregar o chat. Verifique sua conexão e selecione o botão para tentar de novo.",
  },
}
