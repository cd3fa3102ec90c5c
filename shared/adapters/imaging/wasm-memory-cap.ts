const WASM_PAGE_BYTES = 65_536;

/**
 * Caps the WebAssembly memory of this process at `maxBytes`. Emscripten modules (pdf.js's JBIG2, JPEG 2000 and ICC decoders) grow their heap
 * through `WebAssembly.Memory.prototype.grow`; past the cap that call throws, which the module's allocator
 * reports as a failed malloc, so the library fails the one job cleanly instead of taking the heap to the
 * 2 GiB (wasm32) it would otherwise reach. Call it in a worker process before any job runs.
 */
/** The part of WebAssembly.Memory used here (the project's TypeScript libs declare no WebAssembly globals). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(delta: number): number;
}

export const capWasmMemory = (maxBytes: number): void => {
  const { prototype } = (globalThis as unknown as { WebAssembly: { Memory: { prototype: WasmMemory } } }).WebAssembly.Memory;
  const grow = prototype.grow;
  prototype.grow = function capped(this: WasmMemory, delta: number): number {
    if (this.buffer.byteLength + delta * WASM_PAGE_BYTES > maxBytes) {
      throw new RangeError(`WebAssembly memory would exceed ${Math.round(maxBytes / 2 ** 20)} MiB`);
    }
    return grow.call(this, delta);
  };
};

/** True when an engine error says an allocation failed: the job needed more memory than the cap allows. */
export const isAllocationFailure = (error: unknown): boolean =>
  /\b(malloc|calloc|realloc)\b.*failed|out of memory|memory would exceed|allocation failed/i.test(error instanceof Error ? error.message : String(error));
