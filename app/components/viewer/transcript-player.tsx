import { forwardRef, useImperativeHandle, useRef, useState } from "react";
import { formatTimestamp, type TimedSegment } from "#domain/library/transcript-pages";
import transcriptStyles from "./transcript.css";

export type TranscriptPlayerHandle = { playFrom: (seconds: number) => void };

/**
 * A recording's page (decision 143): the player over the recording and the
 * page's segments, each with its time; a time plays from there, and a
 * citation of the page plays from the segment its quote starts in. The
 * segments are text nodes, never HTML.
 */
export const TranscriptPlayer = forwardRef<
  TranscriptPlayerHandle,
  { documentId: string; documentName: string; segments: TimedSegment[]; highlighted: TimedSegment | null; fontSize: string; /** false: captions of a video, no recording to play. */ playable?: boolean }
>(function TranscriptPlayer({ documentId, documentName, segments, highlighted, fontSize, playable = true }, ref) {
  const audio = useRef<HTMLAudioElement>(null);
  const [seekedTo, setSeekedTo] = useState<number | null>(null);

  const playFrom = (seconds: number) => {
    const player = audio.current;
    if (!player) return;
    const start = () => {
      player.currentTime = seconds;
      setSeekedTo(seconds);
      // Autoplay may be refused without a recent click; the player then waits at that time.
      player.play().catch(() => undefined);
    };
    if (player.readyState >= 1) start();
    else player.addEventListener("loadedmetadata", start, { once: true });
  };
  useImperativeHandle(ref, () => ({ playFrom }));

  return (
    <div className="dc-transcript" data-testid="transcript" data-seeked-to={seekedTo ?? undefined}>
      {/* React 18 has no stylesheet hoisting: the link sits with the player (the viewer and the document page both show it). */}
      <link rel="stylesheet" href={transcriptStyles} />
      {playable ? <audio ref={audio} controls preload="metadata" src={`/api/documents/${encodeURIComponent(documentId)}/audio`} className="dc-transcript__audio" aria-label={`Play ${documentName}`} data-testid="transcript-audio" /> : null}
      <ol className="dc-transcript__segments" style={{ fontSize }}>
        {segments.map((segment) => (
          <li key={`${segment.startSeconds}-${segment.endSeconds}`} className={segment === highlighted ? "dc-transcript__segment is-cited" : "dc-transcript__segment"} data-testid="transcript-segment">
            {playable ? (
              <button type="button" className="dc-transcript__time" onClick={() => playFrom(segment.startSeconds)} aria-label={`Play from ${formatTimestamp(segment.startSeconds)}`}>
                {formatTimestamp(segment.startSeconds)}
              </button>
            ) : (
              <span className="dc-transcript__time">{formatTimestamp(segment.startSeconds)}</span>
            )}
            {segment === highlighted ? <mark className="dc-viewer-mark" data-testid="citation-highlight">{segment.text}</mark> : <span>{segment.text}</span>}
          </li>
        ))}
      </ol>
    </div>
  );
});
