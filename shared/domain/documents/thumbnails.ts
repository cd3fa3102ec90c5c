/** A rendered preview image. */
export interface Thumbnail {
  bytes: Uint8Array;
  mimeType: 'image/png' | 'image/jpeg' | 'image/webp';
  width: number;
  height: number;
}

/** How one render relates to others. */
export interface RenderOptions {
  /**
   * Identifies the file's content (e.g. document id and sha256): renders of one file run one at a time, so one
   * document cannot hold all render capacity, and a file refused once is refused at once for every later size.
   */
  fileKey?: string;
}

/**
 * Renders the first page of a document as an image that fits in width x height (aspect kept, never upscaled
 * beyond the box). Throws an AppError VALIDATION_ERROR on field `file` when the file cannot be rendered
 * (corrupt, hostile, too large or too slow to render within bounds), and SERVICE_UNAVAILABLE (details
 * `retry_after_seconds`) when no render capacity frees up in time; it finishes within bounded time and memory
 * whatever the input.
 */
export interface ThumbnailRenderer {
  render(file: Uint8Array, mimeType: string, box: { width: number; height: number }, options?: RenderOptions): Promise<Thumbnail>;
}
