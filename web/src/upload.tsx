/** Upload by drag and drop or the file picker: many files, two at a time, each with its own progress. */
import { useRef, useState } from 'preact/hooks';
import { ApiError, uploadFile } from './api';

interface Item {
  key: number;
  name: string;
  size: number;
  progress: number;
  state: 'waiting' | 'uploading' | 'done' | 'failed';
  message?: string;
}

const PARALLEL = 2;
let nextKey = 0;

export function Uploader({ onUploaded }: { onUploaded: () => void }) {
  const [items, setItems] = useState<Item[]>([]);
  const [over, setOver] = useState(false);
  const picker = useRef<HTMLInputElement>(null);

  const update = (key: number, change: Partial<Item>) => setItems((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item)));

  const start = async (files: File[]) => {
    const queued = files.map((file) => ({ file, item: { key: nextKey++, name: file.name, size: file.size, progress: 0, state: 'waiting' as const } }));
    setItems((list) => [...queued.map((entry) => entry.item), ...list]);
    let next = 0;
    const worker = async () => {
      while (next < queued.length) {
        const { file, item } = queued[next++]!;
        update(item.key, { state: 'uploading' });
        try {
          await uploadFile(file, { onProgress: (fraction) => update(item.key, { progress: fraction }) });
          update(item.key, { state: 'done', progress: 1, message: 'Uploaded' });
          onUploaded();
        } catch (error) {
          update(item.key, { state: 'failed', message: error instanceof ApiError ? error.message : 'The upload failed.' });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, queued.length) }, worker));
  };

  return (
    <section aria-labelledby="upload-title" class="upload">
      <h2 id="upload-title">Upload</h2>
      <div
        class={`dropzone${over ? ' over' : ''}`}
        onDragOver={(event) => (event.preventDefault(), setOver(true))}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          const files = [...(event.dataTransfer?.files ?? [])];
          if (files.length) void start(files);
        }}
      >
        <p>Drop PDF or image files here, or</p>
        <label class="button" for="upload-files">
          Choose files
        </label>
        <input
          ref={picker}
          id="upload-files"
          class="visually-hidden"
          type="file"
          multiple
          accept="application/pdf,image/png,image/jpeg,image/tiff,image/webp"
          onChange={(event) => {
            const input = event.currentTarget;
            const files = [...(input.files ?? [])];
            input.value = '';
            if (files.length) void start(files);
          }}
        />
      </div>
      {items.length ? (
        <ul class="uploads" aria-label="Uploads">
          {items.map((item) => (
            <li key={item.key} class={`upload-${item.state}`}>
              <span class="name">{item.name}</span>
              <progress max={1} value={item.progress} aria-label={`Upload of ${item.name}`} />
              <span class="state" role={item.state === 'failed' ? 'alert' : 'status'}>
                {item.state === 'uploading' ? `${Math.round(item.progress * 100)} %` : (item.message ?? item.state)}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
