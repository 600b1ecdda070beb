import { useEffect, useMemo, useRef, useState } from "react";
import { CaptureOverlay, useAreaCapture } from "./capture";
import { CaptureIcon, FitWidthIcon } from "#app/components/icons";
import { Divider, PageInput, Toolbar, ToolbarButton, ZoomControls } from "./toolbar";
import { inlineUrl, type DocumentViewerProps } from "./types";
import { clampZoom, stepZoom, TEXT_ZOOM } from "./zoom";

/** An image document: fitted to the width at first, zoom 50–500 % in steps of 10 %, area capture. */
export function ImageViewer(props: DocumentViewerProps & { captureMode: boolean; setCaptureMode: ((on: boolean) => void) | null }) {
  const { document: doc, captureMode, setCaptureMode, onCapture, onReady } = props;
  const id = doc.documentId;
  const uid = useMemo(() => id.replace(/[^a-zA-Z0-9_-]/g, ""), [id]);
  const [zoom, setZoom] = useState(1);
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const [failed, setFailed] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const onReadyRef = useRef(onReady);
  onReadyRef.current = onReady;

  const fit = (size = natural) => {
    const box = scrollRef.current?.clientWidth ?? 800;
    if (size) setZoom(clampZoom(Math.min(1, (box - 32) / size.width), TEXT_ZOOM));
  };

  useEffect(() => {
    const root = scrollRef.current;
    if (!root) return;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      setZoom((z) => stepZoom(z, event.deltaY < 0 ? 1 : -1, TEXT_ZOOM));
    };
    root.addEventListener("wheel", onWheel, { passive: false });
    return () => root.removeEventListener("wheel", onWheel);
  }, []);

  const rect = useAreaCapture({ scope: scrollRef, anchor: rootRef, active: captureMode, onCapture, onExit: setCaptureMode ? () => setCaptureMode(false) : undefined });

  return (
    <div ref={rootRef} className={`dc-viewer${captureMode ? " is-capturing" : ""}`} data-testid="document-viewer" data-kind="image" data-document-id={id} data-state={failed ? "error" : natural ? "ready" : "loading"} data-zoom={zoom}>
      <Toolbar label={`${doc.documentName} viewer controls`}>
        <PageInput id={`pg-${uid}`} current={1} pageCount={1} onGo={() => undefined} />
        <Divider />
        <ZoomControls id={`zm-${uid}`} zoom={zoom} rule={TEXT_ZOOM} onZoom={setZoom} />
        <ToolbarButton label="Fit width" onClick={() => fit()} disabled={!natural}>
          <FitWidthIcon size={16} />
        </ToolbarButton>
        {setCaptureMode ? (
          <>
            <Divider />
            <ToolbarButton label={captureMode ? "Stop capture" : "Capture an area"} pressed={captureMode} onClick={() => setCaptureMode(!captureMode)} testId="toggle-capture">
              <CaptureIcon size={16} />
            </ToolbarButton>
          </>
        ) : null}
      </Toolbar>
      <div className="dc-viewer-body">
        <div
          ref={scrollRef}
          className="dc-viewer-scroll"
          tabIndex={0}
          role="region"
          aria-label={`Image ${doc.documentName}`}
          data-testid="viewer-scroll"
          onKeyDown={(e) => {
            if ((e.target as HTMLElement).tagName === "INPUT") return;
            if (e.key === "+" || e.key === "=") setZoom((z) => stepZoom(z, 1, TEXT_ZOOM));
            else if (e.key === "-") setZoom((z) => stepZoom(z, -1, TEXT_ZOOM));
          }}
        >
          {failed ? (
            <div className="dc-viewer-status dc-viewer-status--error" role="alert" data-testid="viewer-error">
              Error: Failed to fetch the file: the image could not be loaded
            </div>
          ) : (
            <div className="dc-viewer-pages">
              <div className="dc-viewer-image" data-capture-surface="" style={natural ? { width: natural.width * zoom, height: natural.height * zoom } : undefined}>
                <img
                  src={inlineUrl(id)}
                  alt={doc.documentName}
                  data-capture-source=""
                  draggable={false}
                  onLoad={(e) => {
                    const size = { width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight };
                    setNatural(size);
                    fit(size);
                    onReadyRef.current?.();
                  }}
                  onError={() => setFailed(true)}
                />
              </div>
            </div>
          )}
        </div>
      </div>
      <CaptureOverlay rect={rect} />
    </div>
  );
}
