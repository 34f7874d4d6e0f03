import { useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { Button, Image } from 'antd-mobile';

/** An image the member uploaded for this form: its upload id and a local preview (an object URL). */
export interface PickedImage {
  id: string;
  preview: string;
}

/**
 * Thumbnails of the images picked so far, each removable, and a button that uploads one more (up to
 * `max`) the moment it is chosen. The form sends only the ids. `onUploadingChange` lets the form hold
 * its submit while an upload is on its way; a failed upload has been shown by the API client.
 */
export function ImagePicker({
  images,
  setImages,
  upload,
  max,
  texts,
  testIdPrefix,
  onUploadingChange,
}: {
  images: PickedImage[];
  setImages: Dispatch<SetStateAction<PickedImage[]>>;
  upload: (file: File) => Promise<{ id: string }>;
  max: number;
  texts: { add: string; remove: string };
  /** Test ids `<prefix>-picked`, `<prefix>-image-input` and `<prefix>-add-image`. */
  testIdPrefix: string;
  onUploadingChange?: (uploading: boolean) => void;
}) {
  const [uploading, setUploading] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const busy = (value: boolean) => {
    setUploading(value);
    onUploadingChange?.(value);
  };
  return (
    <>
      <div className="feedback-thumbs">
        {images.map((image) => (
          <div key={image.id} className="feedback-picked" data-testid={`${testIdPrefix}-picked`}>
            <Image src={image.preview} width={64} height={64} fit="cover" />
            <button
              type="button"
              className="link-button"
              onClick={() => {
                URL.revokeObjectURL(image.preview);
                setImages((current) => current.filter((other) => other.id !== image.id));
              }}
            >
              {texts.remove}
            </button>
          </div>
        ))}
      </div>
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png,image/webp"
        hidden
        data-testid={`${testIdPrefix}-image-input`}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (!file) return;
          busy(true);
          upload(file)
            .then(
              ({ id }) => setImages((current) => [...current, { id, preview: URL.createObjectURL(file) }]),
              () => undefined,
            )
            .finally(() => busy(false));
        }}
      />
      {images.length < max && (
        <Button size="small" loading={uploading} onClick={() => input.current?.click()} data-testid={`${testIdPrefix}-add-image`}>
          {texts.add}
        </Button>
      )}
    </>
  );
}
