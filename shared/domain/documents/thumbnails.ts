/** A rendered preview image. */
export interface Thumbnail {
  bytes: Uint8Array;
  mimeType: 'image/png' | 'image/jpeg' | 'image/webp';
  width: number;
  height: number;
}

/**
 * Renders the first page of a document as an image that fits in width x height (aspect kept, never upscaled
 * beyond the box). Throws an AppError VALIDATION_ERROR when the file cannot be rendered (corrupt, hostile,
 * too large to decode within bounds); it must finish within bounded time and memory whatever the input.
 */
export interface ThumbnailRenderer {
  render(file: Uint8Array, mimeType: string, box: { width: number; height: number }): Promise<Thumbnail>;
}
