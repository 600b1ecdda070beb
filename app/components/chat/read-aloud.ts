import { useCallback, useEffect, useRef, useState } from "react";
import { voiceParts } from "#app/components/speech/limits";

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

/** Whether the browser can speak itself: speech synthesis with at least one voice (headless Chromium has none). */
function browserVoices(): boolean {
  if (typeof window === "undefined" || !("speechSynthesis" in window) || typeof SpeechSynthesisUtterance === "undefined") return false;
  return window.speechSynthesis.getVoices().length > 0;
}

/**
 * Read aloud (spec 001 §4 Speech playback: idle, loading, playing): with the
 * browser's speech synthesis where it has voices; otherwise with the server's
 * voice (decision 144), the text sent part by part and each part played as it
 * arrives. Errors are shown as text (spec 001 §8).
 */
export function useReadAloud(lang: string) {
  const [state, setState] = useState<PlaybackState>("idle");
  const [error, setError] = useState<string | null>(null);
  const utterance = useRef<SpeechSynthesisUtterance | null>(null);
  const audio = useRef<HTMLAudioElement | null>(null);

  const stopServerVoice = () => {
    const player = audio.current;
    audio.current = null;
    if (player) {
      player.pause();
      player.removeAttribute("src");
      player.load();
    }
  };

  const stop = useCallback(() => {
    utterance.current = null;
    stopServerVoice();
    if (typeof window !== "undefined" && "speechSynthesis" in window) window.speechSynthesis.cancel();
    setState("idle");
  }, []);

  useEffect(
    () => () => {
      stopServerVoice();
      if (utterance.current && typeof window !== "undefined" && "speechSynthesis" in window) window.speechSynthesis.cancel();
    },
    [],
  );

  /** The server's voice: each part is a WAV from /api/speech/voice, played in turn. */
  const playOnServer = useCallback((words: string) => {
    const parts = voiceParts(words);
    const player = new Audio();
    player.preload = "auto";
    audio.current = player;
    let index = 0;
    const next = () => {
      if (audio.current !== player) return;
      if (index >= parts.length) {
        audio.current = null;
        setState("idle");
        return;
      }
      player.src = `/api/speech/voice?${new URLSearchParams({ text: parts[index++]! })}`;
      player.play().catch((e: unknown) => fail(e instanceof Error ? e.message : "playback-failed"));
    };
    const fail = (reason: string) => {
      if (audio.current !== player) return;
      audio.current = null;
      setState("idle");
      setError(`Speech error: ${reason}. The answer could not be read aloud.`);
    };
    player.onplaying = () => audio.current === player && setState("playing");
    player.onended = next;
    player.onerror = () => fail("the server's voice is not available");
    setState("loading");
    next();
  }, []);

  const play = useCallback(
    (text: string) => {
      setError(null);
      const words = speakableText(text);
      if (!words) {
        setError("There is no text to read.");
        return;
      }
      if (!browserVoices()) {
        if (typeof window === "undefined" || typeof Audio === "undefined") {
          setError("Read aloud is not available in this browser.");
          return;
        }
        playOnServer(words);
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
    [lang, playOnServer],
  );

  return { state, error, play, stop };
}
