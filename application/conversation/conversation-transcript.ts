import type { ConversationReadModel, MessageReadModel } from "#projections/conversation/conversations.queries";

export interface TranscriptEntry {
  speaker: "You" | "DocuChat";
  time: string;
  text: string;
  citations: string[];
}

export interface Transcript {
  title: string;
  entries: TranscriptEntry[];
}

/**
 * The conversation as people read it: each question, then the latest finished
 * answer to it, with its citations named by document and page.
 */
export function buildTranscript(
  conversation: ConversationReadModel,
  messages: MessageReadModel[],
  documentNames: Map<string, string>,
): Transcript {
  const entries: TranscriptEntry[] = [];
  for (const message of messages) {
    if (message.sender === "USER") {
      const prefix = message.selectedText ? `“${message.selectedText}” ` : "";
      entries.push({ speaker: "You", time: message.createdAt, text: `${prefix}${message.text}`, citations: [] });
      continue;
    }
    const versions = messages.filter((m) => m.sender === "BOT" && m.questionId === message.questionId && m.status === "complete");
    if (message.status !== "complete" || versions.at(-1)?.id !== message.id) continue;
    entries.push({
      speaker: "DocuChat",
      time: message.createdAt,
      text: message.text,
      citations: message.citations.map((c) => `${documentNames.get(c.documentId) ?? "Document"}, page ${c.pageNumber}`),
    });
  }
  return { title: conversation.title || "New Chat", entries };
}

export function transcriptToText(transcript: Transcript): string {
  const lines = [transcript.title, "=".repeat(Math.min(transcript.title.length, 80)), ""];
  for (const entry of transcript.entries) {
    lines.push(`${entry.speaker} (${entry.time}):`, entry.text);
    if (entry.citations.length > 0) lines.push(`Sources: ${entry.citations.join("; ")}`);
    lines.push("");
  }
  return lines.join("\n");
}
