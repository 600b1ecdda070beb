import { foldDiacritics, STOP_WORDS_BY_LANGUAGE, words } from "#application/shared/text-analysis";

/**
 * Languages of the built-in model: the fixed phrases of an answer (quoted
 * sentences stay as written), question templates, and a light detector that
 * says when the quotes are not in the language the user asked for.
 */

export interface Phrases {
  code: string;
  notFound: string;
  lead: (name: string, page: number) => string;
  leadMany: string;
  source: (name: string, page: number) => string;
  images: string;
  quotedNote: string;
  /** Leads the overview a summary request gets (headings and their first sentences). */
  overview: string;
}

const PHRASES: Record<string, Phrases> = {
  en: {
    code: "en",
    notFound: "I couldn't find this in the documents of this workspace.",
    lead: (name, page) => `According to ${name} (page ${page}):`,
    leadMany: "Here is what your documents say:",
    source: (name, page) => `${name}, page ${page}`,
    images: "I can't read images: the built-in model only quotes the text of your documents.",
    quotedNote: "Quoted in the document's original language.",
    overview: "Here is an overview, from the documents' headings and the sentences that open them:",
  },
  es: {
    code: "es",
    notFound: "No he encontrado esto en los documentos de este espacio de trabajo.",
    lead: (name, page) => `Según ${name} (página ${page}):`,
    leadMany: "Esto es lo que dicen sus documentos:",
    source: (name, page) => `${name}, página ${page}`,
    images: "No puedo leer imágenes: el modelo integrado solo cita el texto de sus documentos.",
    quotedNote: "Citado en el idioma original del documento.",
    overview: "Este es un resumen, a partir de los títulos de los documentos y las frases con que empiezan:",
  },
  fr: {
    code: "fr",
    notFound: "Je n'ai pas trouvé cette information dans les documents de cet espace de travail.",
    lead: (name, page) => `D'après ${name} (page ${page}) :`,
    leadMany: "Voici ce que disent vos documents :",
    source: (name, page) => `${name}, page ${page}`,
    images: "Je ne peux pas lire les images : le modèle intégré ne fait que citer le texte de vos documents.",
    quotedNote: "Cité dans la langue d'origine du document.",
    overview: "Voici un aperçu, d'après les titres des documents et les phrases qui les ouvrent :",
  },
  de: {
    code: "de",
    notFound: "Das habe ich in den Dokumenten dieses Arbeitsbereichs nicht gefunden.",
    lead: (name, page) => `Laut ${name} (Seite ${page}):`,
    leadMany: "Das steht in Ihren Dokumenten:",
    source: (name, page) => `${name}, Seite ${page}`,
    images: "Bilder kann ich nicht lesen: Das integrierte Modell zitiert nur den Text Ihrer Dokumente.",
    quotedNote: "Zitiert in der Originalsprache des Dokuments.",
    overview: "Hier ist ein Überblick, aus den Überschriften der Dokumente und den Sätzen, mit denen sie beginnen:",
  },
  pt: {
    code: "pt",
    notFound: "Não encontrei isso nos documentos deste espaço de trabalho.",
    lead: (name, page) => `De acordo com ${name} (página ${page}):`,
    leadMany: "Veja o que dizem os seus documentos:",
    source: (name, page) => `${name}, página ${page}`,
    images: "Não consigo ler imagens: o modelo integrado apenas cita o texto dos seus documentos.",
    quotedNote: "Citado no idioma original do documento.",
    overview: "Eis uma visão geral, a partir dos títulos dos documentos e das frases que os abrem:",
  },
  it: {
    code: "it",
    notFound: "Non ho trovato questa informazione nei documenti di questo spazio di lavoro.",
    lead: (name, page) => `Secondo ${name} (pagina ${page}):`,
    leadMany: "Ecco cosa dicono i tuoi documenti:",
    source: (name, page) => `${name}, pagina ${page}`,
    images: "Non posso leggere le immagini: il modello integrato cita solo il testo dei tuoi documenti.",
    quotedNote: "Citato nella lingua originale del documento.",
    overview: "Ecco una panoramica, dai titoli dei documenti e dalle frasi che li aprono:",
  },
  nl: {
    code: "nl",
    notFound: "Ik heb dit niet gevonden in de documenten van deze werkruimte.",
    lead: (name, page) => `Volgens ${name} (pagina ${page}):`,
    leadMany: "Dit staat er in uw documenten:",
    source: (name, page) => `${name}, pagina ${page}`,
    images: "Ik kan geen afbeeldingen lezen: het ingebouwde model citeert alleen de tekst van uw documenten.",
    quotedNote: "Geciteerd in de oorspronkelijke taal van het document.",
    overview: "Hier is een overzicht, uit de koppen van de documenten en de zinnen waarmee ze beginnen:",
  },
  hi: {
    code: "hi",
    notFound: "मुझे यह जानकारी इस वर्कस्पेस के दस्तावेज़ों में नहीं मिली।",
    lead: (name, page) => `${name} (पृष्ठ ${page}) के अनुसार:`,
    leadMany: "आपके दस्तावेज़ों में यह लिखा है:",
    source: (name, page) => `${name}, पृष्ठ ${page}`,
    images: "मैं चित्र नहीं पढ़ सकता: अंतर्निहित मॉडल केवल आपके दस्तावेज़ों का पाठ उद्धृत करता है।",
    quotedNote: "दस्तावेज़ की मूल भाषा में उद्धृत।",
    overview: "दस्तावेज़ों के शीर्षकों और उनके पहले वाक्यों से एक अवलोकन:",
  },
  zh: {
    code: "zh",
    notFound: "我在此工作区的文档中没有找到相关内容。",
    lead: (name, page) => `根据 ${name}（第 ${page} 页）：`,
    leadMany: "您的文档中是这样写的：",
    source: (name, page) => `${name}，第 ${page} 页`,
    images: "我无法读取图片：内置模型只会引用您文档中的文字。",
    quotedNote: "引文保留文档的原始语言。",
    overview: "以下是根据文档标题及其开头句子整理的概览：",
  },
  ja: {
    code: "ja",
    notFound: "このワークスペースのドキュメントには該当する情報が見つかりませんでした。",
    lead: (name, page) => `${name}（${page} ページ）によると：`,
    leadMany: "ドキュメントには次のように書かれています：",
    source: (name, page) => `${name}、${page} ページ`,
    images: "画像は読み取れません。組み込みモデルはドキュメントのテキストを引用するだけです。",
    quotedNote: "引用はドキュメントの元の言語のままです。",
    overview: "ドキュメントの見出しとその最初の文による概要です：",
  },
};

const LANGUAGE_NAMES: Record<string, string> = {
  english: "en",
  spanish: "es",
  espanol: "es",
  castellano: "es",
  french: "fr",
  francais: "fr",
  german: "de",
  deutsch: "de",
  portuguese: "pt",
  portugues: "pt",
  italian: "it",
  italiano: "it",
  dutch: "nl",
  nederlands: "nl",
  hindi: "hi",
  "हिन्दी": "hi",
  "हिंदी": "hi",
  chinese: "zh",
  "中文": "zh",
  japanese: "ja",
  "日本語": "ja",
};

/** "Spanish", "español", "es", "es-MX" → "es"; anything unknown → English. */
export function languageCode(language: string): string {
  const folded = foldDiacritics(language.trim());
  const code = LANGUAGE_NAMES[folded] ?? LANGUAGE_NAMES[language.trim()] ?? folded.split(/[-_]/)[0];
  return code in PHRASES ? code : "en";
}

export function phrasesFor(language: string): Phrases {
  return PHRASES[languageCode(language)];
}

/** Stop-word votes for Latin-script languages, script for the others; undefined when unsure. */
export function detectLanguage(text: string): string | undefined {
  if (/\p{Script=Devanagari}/u.test(text)) return "hi";
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) return "ja";
  if (/\p{Script=Han}/u.test(text)) return "zh";
  const tokens = words(text).map(foldDiacritics);
  if (tokens.length < 4) return undefined;
  const votes = Object.entries(STOP_WORD_SETS).map(([code, set]) => ({ code, hits: tokens.filter((t) => set.has(t)).length }));
  votes.sort((a, b) => b.hits - a.hits);
  const [first, second] = votes;
  // Short words are shared across languages ("a", "de", "en"): require a clear lead.
  return first.hits >= 2 && first.hits >= 1.5 * second.hits ? first.code : undefined;
}

interface QuestionTemplates {
  /** Names the section; `oneDocument` when the passages are all of one document. */
  heading: (heading: string, oneDocument?: boolean) => string;
  topic: ((topic: string, oneDocument?: boolean) => string)[];
  /** "Table 1", "Figure 3": what a caption labels. */
  caption?: (label: string) => string;
}

const QUESTION_TEMPLATES: Record<string, QuestionTemplates> = {
  en: {
    // Words the question adds beside the topic are words an answer must match too ("section",
    // "cover"): asked "say about", the built-in model weighs the topic's own words.
    heading: (h, one) => `What ${one ? "does the document" : "do the documents"} say about ${/^\p{Lu}\p{Ll}*(?:\s+\p{Ll}|$)/u.test(h) ? h[0].toLowerCase() + h.slice(1) : h}?`,
    caption: (label) => `What does ${label} show?`,
    topic: [(t, one) => `What ${one ? "does the document" : "do the documents"} say about ${t}?`, (t) => `Can you summarise the part about ${t}?`, (t) => `What are the key points on ${t}?`],
  },
  es: {
    heading: (h) => `¿Qué trata la sección «${h}»?`,
    topic: [(t) => `¿Qué dicen los documentos sobre ${t}?`, (t) => `¿Puedes resumir la parte sobre ${t}?`, (t) => `¿Cuáles son los puntos clave sobre ${t}?`],
  },
  fr: {
    heading: (h) => `Que couvre la section « ${h} » ?`,
    topic: [(t) => `Que disent les documents sur ${t} ?`, (t) => `Peux-tu résumer la partie sur ${t} ?`, (t) => `Quels sont les points clés sur ${t} ?`],
  },
  de: {
    heading: (h) => `Worum geht es im Abschnitt „${h}“?`,
    topic: [(t) => `Was sagen die Dokumente über ${t}?`, (t) => `Kannst du den Teil über ${t} zusammenfassen?`, (t) => `Was sind die wichtigsten Punkte zu ${t}?`],
  },
  pt: {
    heading: (h) => `O que cobre a seção “${h}”?`,
    topic: [(t) => `O que os documentos dizem sobre ${t}?`, (t) => `Pode resumir a parte sobre ${t}?`, (t) => `Quais são os pontos principais sobre ${t}?`],
  },
  it: {
    heading: (h) => `Di cosa tratta la sezione «${h}»?`,
    topic: [(t) => `Cosa dicono i documenti su ${t}?`, (t) => `Puoi riassumere la parte su ${t}?`, (t) => `Quali sono i punti chiave su ${t}?`],
  },
};

export function questionTemplatesFor(language: string): QuestionTemplates {
  return QUESTION_TEMPLATES[languageCode(language)] ?? QUESTION_TEMPLATES.en;
}

const STOP_WORD_SETS = Object.fromEntries(
  Object.entries(STOP_WORDS_BY_LANGUAGE).map(([code, list]) => [code, new Set(list.map(foldDiacritics))]),
) as Record<string, Set<string>>;
