import { Button, Flex, Heading, IconButton, Progress, Select, Text } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { useNavigate } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { CloseIcon, MicIcon } from "#app/components/icons";
import { useToast } from "#app/components/toast";
import { AUDIO_EXTENSIONS, MAX_AUDIO_BYTES, MAX_FILES_PER_UPLOAD } from "#domain/library/upload-rules";
import { HintButton } from "./disabled-hint";
import { formatSize } from "./format";
import { isAudioName, uploadEach } from "./upload-client";
import { useCsrfToken } from "#app/components/use-csrf";

type Clip = { id: string; name: string; blob: Blob; url: string; type: string; progress: number | null; error: string | null };

const ACCEPT = AUDIO_EXTENSIONS.map((ext) => `.${ext}`).join(",") + ",audio/*";
let nextId = 1;

function recordingName() {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `Recording ${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}.${pad(d.getMinutes())}.${pad(d.getSeconds())}.webm`;
}

/** A keyset whose transcription models the upload may choose (from the model catalog). */
export type TranscriptionOption = { keysetId: string; keysetName: string; models: { id: string; label: string }[] };

const OFFLINE = "offline";

/** Spec 000 §2 Audio: record with the microphone or pick audio files, then upload them as documents. */
export function AudioUpload({ transcription = [], initial = null }: { transcription?: TranscriptionOption[]; initial?: { keyset_id: string; model: string } | null }) {
  const [transcriber, setTranscriber] = useState(initial ? JSON.stringify(initial) : OFFLINE);
  const id = useId();
  const [clips, setClips] = useState<Clip[]>([]);
  const [recording, setRecording] = useState(false);
  const [seconds, setSeconds] = useState(0);
  const [micNote, setMicNote] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const recorder = useRef<MediaRecorder | null>(null);
  const chunks = useRef<Blob[]>([]);
  const inputRef = useRef<HTMLInputElement>(null);
  const clipsRef = useRef(clips);
  clipsRef.current = clips;
  const toast = useToast();
  const navigate = useNavigate();
  const csrfToken = useCsrfToken();

  useEffect(() => {
    if (!recording) return;
    const timer = window.setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => window.clearInterval(timer);
  }, [recording]);
  useEffect(
    () => () => {
      recorder.current?.stream.getTracks().forEach((t) => t.stop());
      clipsRef.current.forEach((c) => URL.revokeObjectURL(c.url));
    },
    [],
  );

  const addClip = (blob: Blob, name: string) => {
    if (clipsRef.current.length >= MAX_FILES_PER_UPLOAD) {
      toast.push({ type: "info", message: "Cannot upload more than 10 files" });
      return;
    }
    if (blob.size > MAX_AUDIO_BYTES) {
      toast.push({ type: "error", message: `${name}: audio can be at most ${formatSize(MAX_AUDIO_BYTES)}.` });
      return;
    }
    setClips((c) => [...c, { id: `clip-${nextId++}`, name, blob, url: URL.createObjectURL(blob), type: blob.type || "audio/webm", progress: null, error: null }]);
  };

  async function toggleRecording() {
    if (recording) {
      recorder.current?.stop();
      return;
    }
    setMicNote(null);
    try {
      if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === "undefined") throw new Error("Recording is not supported");
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const rec = new MediaRecorder(stream);
      chunks.current = [];
      rec.ondataavailable = (e) => e.data.size > 0 && chunks.current.push(e.data);
      rec.onstop = () => {
        stream.getTracks().forEach((t) => t.stop());
        setRecording(false);
        const blob = new Blob(chunks.current, { type: rec.mimeType || "audio/webm" });
        if (blob.size > 0) addClip(blob, recordingName());
      };
      recorder.current = rec;
      rec.start();
      setSeconds(0);
      setRecording(true);
    } catch (error) {
      // Spec 000 §8: a microphone failure is only logged; we add a readable note.
      console.error("Microphone access failed", error);
      setMicNote("The microphone is not available. Allow microphone access in your browser, or upload an audio file instead.");
    }
  }

  const patch = (clipId: string, fields: Partial<Clip>) => setClips((c) => c.map((x) => (x.id === clipId ? { ...x, ...fields } : x)));
  const remove = (clipId: string) =>
    setClips((c) => {
      const gone = c.find((x) => x.id === clipId);
      if (gone) URL.revokeObjectURL(gone.url);
      return c.filter((x) => x.id !== clipId);
    });

  async function uploadAll() {
    if (uploading || clips.length === 0) return;
    setUploading(true);
    const failed = await uploadEach(clips, csrfToken, {
      describe: (clip) => {
        const type = clip.type.split(";")[0] || "audio/webm";
        return {
          name: clip.name,
          body: clip.blob,
          contentType: type,
          payload: {
            document_name: clip.name,
            document_type: type,
            document_size: clip.blob.size,
            page_count: 1,
            media_type: "file",
            document_source: "audio",
            embedding_data: null,
            transcription_data: transcriber === OFFLINE ? null : JSON.parse(transcriber),
            ocr: "false",
            rag_type: "",
          },
        };
      },
      progress: (clip, progress, error) => patch(clip.id, { progress, error }),
      done: (clip) => remove(clip.id),
      failed: (name, message) => toast.push({ type: "error", message: `${name}: ${message}` }),
    });
    setUploading(false);
    if (failed === 0) {
      toast.push({ type: "success", message: "Uploaded Audio" });
      window.setTimeout(() => navigate("/history/documents"), 1000);
    }
  }

  const mm = String(Math.floor(seconds / 60)).padStart(2, "0");
  const ss = String(seconds % 60).padStart(2, "0");

  return (
    <div className="dc-upload-grid">
      <div className="dc-upload-main">
        <section className="dc-lib-card dc-recorder" aria-labelledby={`${id}-rec`}>
          <Heading as="h2" size="4" id={`${id}-rec`} className="dc-visually-hidden">
            Record audio
          </Heading>
          <button
            type="button"
            className={`dc-recorder__button${recording ? " is-recording" : ""}`}
            onClick={toggleRecording}
            aria-pressed={recording}
            data-testid="record-button"
          >
            <span className="dc-recorder__mic">
              <MicIcon size={34} />
            </span>
            <Text size="3" weight="bold">
              {recording ? "Click to stop recording" : "Click to start recording"}
            </Text>
          </button>
          <Text size="2" color="gray" aria-live="polite">
            {recording ? `Recording… ${mm}:${ss}` : "Your recording stays in this browser until you upload it."}
          </Text>
          {micNote ? (
            <Text size="2" color="red" role="status" data-testid="mic-note">
              {micNote}
            </Text>
          ) : null}
          <div className="dc-recorder__or">
            <Text size="2" color="gray">
              Or try uploading an audio file
            </Text>
          </div>
          <Button variant="soft" size="3" onClick={() => inputRef.current?.click()} disabled={uploading}>
            Choose audio files
          </Button>
          <input
            ref={inputRef}
            type="file"
            multiple
            accept={ACCEPT}
            className="dc-visually-hidden"
            tabIndex={-1}
            aria-label="Choose audio files"
            data-testid="audio-input"
            onChange={(e) => {
              for (const file of Array.from(e.currentTarget.files ?? [])) {
                if (isAudioName(file.name)) addClip(file, file.name);
                else toast.push({ type: "error", message: `${file.name}: choose an audio file (${AUDIO_EXTENSIONS.join(", ")}).` });
              }
              e.currentTarget.value = "";
            }}
          />
        </section>

        <section className="dc-lib-card" aria-labelledby={`${id}-clips`}>
          <Heading as="h2" size="4" id={`${id}-clips`} mb="3">
            Audio to upload
          </Heading>
          {clips.length === 0 ? (
            <div className="dc-empty">
              <MicIcon size={26} />
              <Text size="2" color="gray">
                No files to show
              </Text>
            </div>
          ) : (
            <ul className="dc-file-list">
              {clips.map((clip) => (
                <li key={clip.id} className="dc-file-row dc-file-row--audio" data-testid="audio-clip">
                  <div className="dc-file-row__body">
                    <Text as="div" size="2" weight="medium" className="dc-ellipsis">
                      {clip.name}
                    </Text>
                    <Text as="div" size="1" color="gray">
                      {formatSize(clip.blob.size)}
                    </Text>
                    <audio controls src={clip.url} className="dc-audio" aria-label={`Play ${clip.name}`} />
                    {clip.progress !== null ? <Progress value={Math.round(clip.progress * 100)} size="1" mt="2" aria-label={`Uploading ${clip.name}`} /> : null}
                    {clip.error ? (
                      <Text as="div" size="1" color="red" role="alert">
                        {clip.error}
                      </Text>
                    ) : null}
                  </div>
                  <Tooltip content="Remove">
                    <IconButton variant="ghost" color="red" aria-label={`Remove ${clip.name}`} disabled={uploading} onClick={() => remove(clip.id)}>
                      <CloseIcon size={16} />
                    </IconButton>
                  </Tooltip>
                </li>
              ))}
            </ul>
          )}
          <Flex direction="column" gap="1" mt="4">
            <Text id={`${id}-transcriber`} size="2" weight="medium">
              Transcription model
            </Text>
            <Select.Root value={transcriber} onValueChange={setTranscriber} disabled={uploading}>
              <Select.Trigger aria-labelledby={`${id}-transcriber`} data-testid="transcription-model" />
              <Select.Content position="popper">
                <Select.Item value={OFFLINE}>Built-in, offline (basic quality)</Select.Item>
                {transcription
                  .filter((k) => k.models.length > 0)
                  .map((k) => (
                    <Select.Group key={k.keysetId}>
                      <Select.Label>{k.keysetName}</Select.Label>
                      {k.models.map((m) => (
                        <Select.Item key={m.id} value={JSON.stringify({ keyset_id: k.keysetId, model: m.id })}>
                          {m.label}
                        </Select.Item>
                      ))}
                    </Select.Group>
                  ))}
              </Select.Content>
            </Select.Root>
            {transcription.every((k) => k.models.length === 0) ? (
              <Text size="1" color="gray">
                Add an OpenAI or Azure OpenAI key in Chat Settings for better transcripts.
              </Text>
            ) : null}
          </Flex>
          <Flex justify="end" mt="4">
            <HintButton size="3" disabled={clips.length === 0 || uploading} hint="No files" onClick={uploadAll} loading={uploading} data-testid="upload-audio">
              Click to upload recorded audio
            </HintButton>
          </Flex>
        </section>
      </div>
      <aside className="dc-upload-side" aria-label="About audio">
        <div className="dc-lib-card">
          <Heading as="h2" size="3" mb="1">
            How audio becomes a document
          </Heading>
          <Text as="p" size="2" color="gray">
            Recordings and audio files ({AUDIO_EXTENSIONS.join(", ")}, up to {formatSize(MAX_AUDIO_BYTES)}) are transcribed into text you can chat
            with. The built-in model runs offline on this server and is basic: clear speech comes out mostly right, noisy or fast speech less so, and
            the document says so. A transcription model of your own keys (OpenAI, Azure OpenAI) gives better transcripts. Each part of the
            transcript keeps its time, so an answer's citation plays the recording from there.
          </Text>
        </div>
      </aside>
    </div>
  );
}
