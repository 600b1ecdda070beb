import { Toast as ToastPrimitive } from "radix-ui";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from "react";
import { AlertIcon, CheckCircleIcon, CloseIcon, InfoIcon } from "#app/components/icons";

/** Spec 000 §8/§9: toasts show for 4 seconds, at most 4 at once, bottom-right (above the chat input, `useToastsClearOf`). */
export const TOAST_DURATION_MS = 4000;
export const MAX_VISIBLE_TOASTS = 4;

export type ToastType = "success" | "error" | "info";
export type ToastInput = { type: ToastType; message: string; title?: string };
type QueuedToast = ToastInput & { key: number; open: boolean };

type ToastApi = { push: (toast: ToastInput) => void };
const ToastContext = createContext<ToastApi>({ push: () => undefined });

/** Push a toast from any component: `useToast().push({ type: 'success', message })`. */
export const useToast = () => useContext(ToastContext);

let nextKey = 1;

const CLEARANCE = "--dc-toast-clearance";

/**
 * Keeps the bottom-right toasts above `ref`'s element while it is on screen
 * (issue 44 item 5: a toast covered the chat input's microphone and Send): the
 * viewport's bottom is lifted to the element's top edge. Phones show toasts at
 * the top, where this changes nothing.
 */
export function useToastsClearOf(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const root = document.documentElement;
    const place = () => {
      const box = element.getBoundingClientRect();
      // Hidden (the phone's closed chat sheet, a minimised chat): it claims nothing.
      if (box.width === 0 || box.height === 0 || box.bottom <= 0 || box.top >= window.innerHeight) return;
      root.style.setProperty(CLEARANCE, `${Math.max(0, Math.round(window.innerHeight - box.top))}px`);
    };
    place();
    const observer = new ResizeObserver(place);
    observer.observe(element);
    window.addEventListener("resize", place);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", place);
      root.style.removeProperty(CLEARANCE);
    };
  }, [ref]);
}

export function ToastProvider({ children, initial }: { children: ReactNode; initial?: ToastInput | null }) {
  const [toasts, setToasts] = useState<QueuedToast[]>([]);

  const push = useCallback((toast: ToastInput) => {
    setToasts((current) => [...current, { ...toast, key: nextKey++, open: true }]);
  }, []);

  // The server's flash toast (root loader). Each loader result is a new object,
  // and the flash is consumed on read, so a non-null value is always fresh.
  const lastInitial = useRef<ToastInput | null | undefined>(undefined);
  useEffect(() => {
    if (initial && initial !== lastInitial.current) push(initial);
    lastInitial.current = initial;
  }, [initial, push]);

  const close = useCallback((key: number) => {
    setToasts((current) => current.map((t) => (t.key === key ? { ...t, open: false } : t)));
    // Let the exit animation run before dropping it, so the next queued one moves up.
    window.setTimeout(() => setToasts((current) => current.filter((t) => t.key !== key)), 200);
  }, []);

  // Queue: only the oldest four still-open toasts are on screen; the rest wait.
  const visible = toasts.filter((t) => t.open).slice(0, MAX_VISIBLE_TOASTS);
  const closing = toasts.filter((t) => !t.open);
  const api = useMemo(() => ({ push }), [push]);

  return (
    <ToastContext.Provider value={api}>
      <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" label="Notification">
        {children}
        {[...closing, ...visible].map((toast) => (
          <ToastPrimitive.Root
            key={toast.key}
            open={toast.open}
            onOpenChange={(open) => (open ? undefined : close(toast.key))}
            className={`dc-toast dc-toast--${toast.type}`}
            type={toast.type === "error" ? "foreground" : "background"}
            data-testid="toast"
          >
            <span className="dc-toast__icon">
              {toast.type === "success" ? <CheckCircleIcon /> : toast.type === "error" ? <AlertIcon /> : <InfoIcon />}
            </span>
            <div className="dc-toast__body">
              {toast.title ? <ToastPrimitive.Title className="dc-toast__title">{toast.title}</ToastPrimitive.Title> : null}
              <ToastPrimitive.Description className="dc-toast__message">{toast.message}</ToastPrimitive.Description>
            </div>
            <ToastPrimitive.Close className="dc-toast__close" aria-label="Dismiss notification">
              <CloseIcon size={14} />
            </ToastPrimitive.Close>
          </ToastPrimitive.Root>
        ))}
        <ToastPrimitive.Viewport className="dc-toast-viewport" />
      </ToastPrimitive.Provider>
    </ToastContext.Provider>
  );
}
