/**
 * Preferred languages offered at onboarding and in the profile (spec 001 §9:
 * "about 95 languages, Afrikaans to Zulu"). Stored by name, as shown.
 */
export const LANGUAGES = [
  "Afrikaans", "Albanian", "Amharic", "Arabic", "Armenian", "Azerbaijani", "Basque", "Belarusian", "Bengali",
  "Bosnian", "Bulgarian", "Burmese", "Catalan", "Chinese (Simplified)", "Chinese (Traditional)",
  "Croatian", "Czech", "Danish", "Dutch", "English", "Estonian", "Filipino", "Finnish",
  "French", "Galician", "Georgian", "German", "Greek", "Gujarati", "Haitian Creole", "Hausa",
  "Hebrew", "Hindi", "Hungarian", "Icelandic", "Igbo", "Indonesian", "Irish", "Italian",
  "Japanese", "Javanese", "Kannada", "Kazakh", "Khmer", "Korean", "Kurdish", "Kyrgyz", "Lao",
  "Latin", "Latvian", "Lithuanian", "Macedonian", "Malay", "Malayalam", "Maltese",
  "Maori", "Marathi", "Mongolian", "Nepali", "Norwegian", "Odia", "Pashto", "Persian", "Polish",
  "Portuguese", "Punjabi", "Romanian", "Russian", "Serbian",
  "Sindhi", "Sinhala", "Slovak", "Slovenian", "Somali", "Spanish", "Swahili", "Swedish", "Tajik",
  "Tamil", "Tatar", "Telugu", "Thai", "Turkish", "Turkmen", "Ukrainian", "Urdu", "Uyghur", "Uzbek",
  "Vietnamese", "Welsh", "Xhosa", "Yiddish", "Yoruba", "Zulu",
] as const;

export type Language = (typeof LANGUAGES)[number];

export const isLanguage = (value: string): value is Language => (LANGUAGES as readonly string[]).includes(value);
