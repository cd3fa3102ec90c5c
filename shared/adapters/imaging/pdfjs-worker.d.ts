/**
 * Types of the single-file builds the imaging worker loads (fewer and smaller files parse faster at every worker
 * start): pdf.js's minified legacy build has the API of its unminified one, its worker module ships without
 * types (the worker only hands it to pdf.js, see pdf-engine.ts).
 */
declare module 'pdfjs-dist/legacy/build/pdf.min.mjs' {
  export * from 'pdfjs-dist/legacy/build/pdf.mjs';
}
declare module 'pdfjs-dist/legacy/build/pdf.worker.min.mjs' {
  export const WorkerMessageHandler: unknown;
}
