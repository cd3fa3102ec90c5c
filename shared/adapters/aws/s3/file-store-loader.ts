/**
 * What {@link lazyS3FileStore} imports on first use, and nothing imports statically: esbuild keeps a module that
 * is both imported statically (even by code the function never runs) and through import() in what its cold start
 * loads, so the import() targets are these loaders, not the adapters other roots import.
 */
export { s3FileStore } from './file-store';
