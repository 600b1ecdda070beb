import { type RefObject, useLayoutEffect } from "react";
import { SHEET_HEIGHT, type ChatSettings } from "./chat-settings";

/**
 * Applies the chat's layout to the screen's container: beside the documents,
 * its width and side; as the bottom sheet, its height (or only its bar while
 * minimised). The screen draws the container; the panel owns its size.
 */
export function useChatLayout(rootRef: RefObject<HTMLElement>, variant: "panel" | "sheet", settings: ChatSettings, minimized: boolean) {
  useLayoutEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    if (variant === "panel") {
      const box = root.closest<HTMLElement>("[data-chat-container], .dc-wsx-chat");
      if (!box) return;
      box.style.flex = `0 0 ${settings.chatbotWidth}%`;
      box.style.maxWidth = `${settings.chatbotWidth}%`;
      box.style.order = settings.isChatOnLeft ? "-1" : "";
      box.dataset.chatSide = settings.isChatOnLeft ? "left" : "right";
    } else {
      const sheet = root.closest<HTMLElement>("[data-chat-sheet], .dc-wsx-sheet");
      if (!sheet) return;
      sheet.style.height = minimized ? "auto" : `${settings.sheetHeight}vh`;
      sheet.style.maxHeight = `${SHEET_HEIGHT.max}vh`;
    }
  }, [rootRef, variant, settings.chatbotWidth, settings.isChatOnLeft, settings.sheetHeight, minimized]);
}
