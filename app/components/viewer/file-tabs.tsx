import type { ComponentProps } from "react";
import { useToast } from "#app/components/toast";
import { DocumentTabs } from "#app/components/workspace/document-tabs";
import { useViewerCaptureMode } from "./events";

/** Spec 001 §4: tabs do not close in capture mode. */
export const CAPTURE_CLOSE_MESSAGE = "Cannot close file in Capture mode";

/**
 * The screen's tab strip (with its 'More' overflow dropdown, about 100 px per
 * tab) plus the capture-mode rule: while a viewer captures, closing a tab is
 * refused with the toast 'Cannot close file in Capture mode'. `captureMode`
 * is the screen's own state when it has one; otherwise the viewer's
 * `docuchat:capture-mode` events are followed.
 */
export function FileTabs(props: ComponentProps<typeof DocumentTabs> & { captureMode?: boolean }) {
  const { captureMode, onClose, ...rest } = props;
  const fromViewer = useViewerCaptureMode();
  const capturing = captureMode ?? fromViewer;
  const toast = useToast();
  return (
    <DocumentTabs
      {...rest}
      onClose={(id) => {
        if (capturing) toast.push({ type: "error", message: CAPTURE_CLOSE_MESSAGE });
        else onClose(id);
      }}
    />
  );
}
