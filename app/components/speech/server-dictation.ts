import { useCallback, useEffect, useRef } from "react";
import { MAX_DICTATION_SECONDS } from "./limits";

export type DictationState = "idle" | "loading" | "listening";

/** Whether the browser can record a clip for the server to transcribe. */
export const canRecord = () =>
  typeof window !== "undefined" && typeof MediaRecorder !== "undefined" && typeof navigator !== "undefined" && !!navigator.mediaDevices?.getUserMedia;

/**
 * Dictation through the server (decision 144), where the browser's speech
 * recognition is missing or has no service: record a clip with the
 * microphone (at most a minute; a second click stops it), send it to
 * /api/speech/transcribe, and hand back the words. States follow spec 001 §4
 * (idle, loading, listening); a microphone refused is only logged (spec 001 §8).
 */
export function useServerDictation(csrfToken: string, on: { state: (s: DictationState) => void; words: (text: string) => void; failed: () => void }) {
  const recorder = useRef<MediaRecorder | null>(null);
  const timer = useRef<number | null>(null);
  const handlers = useRef(on);
  handlers.current = on;

  useEffect(
    () => () => {
      if (timer.current) window.clearTimeout(timer.current);
      const r = recorder.current;
      recorder.current = null;
      if (r && r.state !== "inactive") r.stop();
      r?.stream.getTracks().forEach((t) => t.stop());
    },
    [],
  );

  const stop = useCallback(() => {
    if (recorder.current && recorder.current.state !== "inactive") recorder.current.stop();
  }, []);

  const start = useCallback(async () => {
    handlers.current.state("loading");
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      console.warn("Microphone access failed", error);
      handlers.current.state("idle");
      return;
    }
    const r = new MediaRecorder(stream);
    recorder.current = r;
    const chunks: Blob[] = [];
    r.ondataavailable = (e) => e.data.size > 0 && chunks.push(e.data);
    r.onstop = async () => {
      if (timer.current) window.clearTimeout(timer.current);
      stream.getTracks().forEach((t) => t.stop());
      if (recorder.current !== r) return;
      recorder.current = null;
      handlers.current.state("loading");
      const clip = new Blob(chunks, { type: r.mimeType || "audio/webm" });
      try {
        const response = await fetch("/api/speech/transcribe", {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": clip.type.split(";")[0] || "audio/webm", "X-CSRF-Token": csrfToken },
          body: clip,
        });
        const body = (await response.json().catch(() => ({}))) as { text?: string };
        if (!response.ok || !body.text) handlers.current.failed();
        else handlers.current.words(body.text);
      } catch {
        handlers.current.failed();
      } finally {
        handlers.current.state("idle");
      }
    };
    r.start();
    handlers.current.state("listening");
    timer.current = window.setTimeout(() => r.state !== "inactive" && r.stop(), MAX_DICTATION_SECONDS * 1000);
  }, [csrfToken]);

  return { start, stop };
}
