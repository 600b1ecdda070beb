import { Button, Callout, Dialog, Flex, Text } from "@radix-ui/themes";
import { useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { useCallback, useRef, useState } from "react";
import Cropper, { type Area } from "react-easy-crop";
import { AlertIcon } from "#app/components/icons";
import { useToast } from "#app/components/toast";
import { checkPictureSource, PICTURE_FILE_NAME, PICTURE_SIZE_PX } from "#domain/identity/profile";
import type { PictureUploadResult } from "#app/routes/profile.picture";

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error("The image could not be read."));
    image.src = src;
  });
}

/** Draws the cropped area onto a 250×250 canvas and exports it as PNG. */
async function cropToPng(src: string, area: Area): Promise<Blob> {
  const image = await loadImage(src);
  const canvas = document.createElement("canvas");
  canvas.width = PICTURE_SIZE_PX;
  canvas.height = PICTURE_SIZE_PX;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("Your browser cannot crop images.");
  context.imageSmoothingQuality = "high";
  context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, PICTURE_SIZE_PX, PICTURE_SIZE_PX);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("The image could not be exported."))), "image/png"),
  );
}

/**
 * Profile picture change (spec 001 §2, §5): choose a JPG/JPEG (≤ 5 MB), crop
 * it in a dialog, upload the 250×250 PNG. Needs JavaScript (cropping is a
 * canvas job); without it the button explains that.
 */
export function PictureEditor({ disabled, disabledReason }: { disabled?: boolean; disabledReason?: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [source, setSource] = useState<string | null>(null);
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const csrf = useRouteLoaderData<{ csrfToken?: string }>("root")?.csrfToken ?? "";
  const toast = useToast();
  const revalidator = useRevalidator();

  const close = () => {
    if (source) URL.revokeObjectURL(source);
    setSource(null);
    setZoom(1);
    setCrop({ x: 0, y: 0 });
  };

  const onChoose = (event: React.ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = "";
    if (!file) return;
    const problem = checkPictureSource(file);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setSource(URL.createObjectURL(file));
  };

  const onCropComplete = useCallback((_: Area, pixels: Area) => setArea(pixels), []);

  const save = async () => {
    if (!source || !area) return;
    setSaving(true);
    setError(null);
    try {
      const png = await cropToPng(source, area);
      const body = new FormData();
      body.set("csrf", csrf);
      body.set("picture", new File([png], PICTURE_FILE_NAME, { type: "image/png" }));
      const response = await fetch("/profile/picture", { method: "POST", body, headers: { Accept: "application/json" } });
      const result = (await response.json().catch(() => ({ ok: false, error: "Upload failed. Please try again." }))) as PictureUploadResult;
      if (!result.ok) throw new Error(result.error);
      close();
      toast.push({ type: "success", message: "Profile picture updated" });
      revalidator.revalidate();
    } catch (e) {
      setError(e instanceof Error ? e.message : "Upload failed. Please try again.");
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="dc-picture-editor">
      <input
        ref={input}
        type="file"
        accept=".jpg,.jpeg,image/jpeg"
        className="dc-visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="picture-input"
        onChange={onChoose}
      />
      <Button
        type="button"
        variant="soft"
        disabled={disabled}
        title={disabled ? disabledReason : undefined}
        onClick={() => input.current?.click()}
        data-testid="change-picture"
      >
        Change picture
      </Button>
      <Text as="p" size="1" color="gray" mt="1">
        JPG or JPEG, up to 5 MB.
      </Text>
      {error && !source ? (
        <Text as="p" size="1" color="red" role="alert" mt="1" data-testid="picture-error">
          {error}
        </Text>
      ) : null}

      <Dialog.Root open={source !== null} onOpenChange={(open) => (open ? undefined : close())}>
        <Dialog.Content maxWidth="520px" aria-describedby="crop-help">
          <Dialog.Title>Crop your picture</Dialog.Title>
          <Dialog.Description id="crop-help" size="2" color="gray">
            Drag to position, use the slider to zoom. The picture is saved as a 250×250 square.
          </Dialog.Description>
          <div className="dc-cropper" data-testid="cropper">
            {source ? (
              <Cropper
                image={source}
                crop={crop}
                zoom={zoom}
                aspect={1}
                cropShape="round"
                showGrid={false}
                onCropChange={setCrop}
                onZoomChange={setZoom}
                onCropComplete={onCropComplete}
              />
            ) : null}
          </div>
          <Flex align="center" gap="3" mt="3">
            <Text as="label" size="2" htmlFor="zoom">
              Zoom
            </Text>
            {/* A native range: labelled, keyboard-operable, no extra ARIA needed. */}
            <input
              id="zoom"
              type="range"
              className="dc-range"
              min={1}
              max={3}
              step={0.05}
              value={zoom}
              onChange={(e) => setZoom(Number(e.currentTarget.value))}
            />
          </Flex>
          {error ? (
            <Callout.Root color="red" mt="3" role="alert">
              <Callout.Icon>
                <AlertIcon size={16} />
              </Callout.Icon>
              <Callout.Text>{error}</Callout.Text>
            </Callout.Root>
          ) : null}
          <Flex justify="end" gap="3" mt="4">
            <Dialog.Close>
              <Button variant="soft" color="gray" disabled={saving}>
                Cancel
              </Button>
            </Dialog.Close>
            <Button onClick={save} loading={saving} disabled={!area || saving} data-testid="save-picture">
              Save picture
            </Button>
          </Flex>
        </Dialog.Content>
      </Dialog.Root>
    </div>
  );
}
