import { useCallback, useEffect, useRef, useState } from "react";

export type PlaybackState = "idle" | "loading" | "playing";

/** Markdown to words worth saying. */
export function speakableText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[\d+\]/g, "")
    .replace(/[*_`>#~|]/g, "")
    .replace(/\\([\\`*_{}[\]()#+\-.!])/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

/** Read aloud with the browser's speech synthesis (spec 001 §4 Speech playback: idle, loading, playing). */
export function useReadAloud(lang: string) {
  const [state, setState] = useState<PlaybackState>("idle");
  const [error, setError] = useState<string | null>(null);
  const utterance = useRef<SpeechSynthesisUtterance | null>(null);

  const stop = useCallback(() => {
    utterance.current = null;
    if (typeof window !== "undefined" && "speechSynthesis" in window) window.speechSynthesis.cancel();
    setState("idle");
  }, []);

  useEffect(() => () => {
    if (utterance.current && typeof window !== "undefined" && "speechSynthesis" in window) window.speechSynthesis.cancel();
  }, []);

  const play = useCallback(
    (text: string) => {
      setError(null);
      if (typeof window === "undefined" || !("speechSynthesis" in window) || typeof SpeechSynthesisUtterance === "undefined") {
        setError("Read aloud is not available in this browser.");
        return;
      }
      const words = speakableText(text);
      if (!words) {
        setError("There is no text to read.");
        return;
      }
      window.speechSynthesis.cancel();
      const u = new SpeechSynthesisUtterance(words);
      u.lang = lang;
      utterance.current = u;
      u.onstart = () => utterance.current === u && setState("playing");
      u.onend = () => {
        if (utterance.current === u) {
          utterance.current = null;
          setState("idle");
        }
      };
      u.onerror = (event) => {
        if (utterance.current !== u) return;
        utterance.current = null;
        setState("idle");
        if (event.error !== "interrupted" && event.error !== "canceled") setError(`Speech error: ${event.error}. The answer could not be read aloud.`);
      };
      setState("loading");
      window.speechSynthesis.speak(u);
    },
    [lang],
  );

  return { state, error, play, stop };
}
