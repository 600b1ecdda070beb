/** BCP-47 tags for read-aloud; languages not listed fall back to en-US (spec 001 §9). */
const SPEECH_TAGS: Record<string, string> = {
  Arabic: "ar-SA", Bengali: "bn-IN", "Chinese (Simplified)": "zh-CN", "Chinese (Traditional)": "zh-TW", Czech: "cs-CZ", Danish: "da-DK",
  Dutch: "nl-NL", English: "en-US", Finnish: "fi-FI", French: "fr-FR", German: "de-DE", Greek: "el-GR", Hebrew: "he-IL", Hindi: "hi-IN",
  Hungarian: "hu-HU", Indonesian: "id-ID", Italian: "it-IT", Japanese: "ja-JP", Korean: "ko-KR", Malay: "ms-MY", Marathi: "mr-IN",
  Norwegian: "nb-NO", Polish: "pl-PL", Portuguese: "pt-BR", Romanian: "ro-RO", Russian: "ru-RU", Slovak: "sk-SK", Spanish: "es-ES",
  Swedish: "sv-SE", Tamil: "ta-IN", Telugu: "te-IN", Thai: "th-TH", Turkish: "tr-TR", Ukrainian: "uk-UA", Urdu: "ur-PK", Vietnamese: "vi-VN",
};

export const speechTagFor = (language: string | null | undefined) => (language && SPEECH_TAGS[language]) || "en-US";
