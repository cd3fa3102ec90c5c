import type { ExportJob, ExportState, ImportJob, ImportState } from './jobs';

/**
 * Ports of workspace export and import. The use cases stream: an archive is read and written as chunks, one
 * entry at a time, so memory stays bounded whatever the workspace's size (see docs/export-and-import.md).
 */

/** One workspace's exports and imports. */
export interface PortabilityJobRepository {
  createExport(job: ExportJob): Promise<void>;
  getExport(id: string): Promise<ExportJob | null>;
  /** Sets the given fields; with `from`, only while the job is in one of those states (false otherwise). */
  updateExport(id: string, changes: Partial<Omit<ExportJob, 'id'>>, from?: readonly ExportState[]): Promise<boolean>;
  createImport(job: ImportJob): Promise<void>;
  getImport(id: string): Promise<ImportJob | null>;
  updateImport(id: string, changes: Partial<Omit<ImportJob, 'id'>>, from?: readonly ImportState[]): Promise<boolean>;
  /**
   * Takes the workspace's one import slot for this import (or confirms it holds it already: a redelivery); false
   * while another import holds it. Two imports writing the same archive's ids at once would undo each other.
   */
  holdImportSlot(importId: string): Promise<boolean>;
  /** Lets the slot go, if this import holds it. */
  releaseImportSlot(importId: string): Promise<void>;
}

/** A job for the portability worker. */
export interface PortabilityMessage {
  kind: 'export' | 'import';
  workspace_id: string;
  job_id: string;
}

/** Hands exports and imports to the portability worker (SQS). */
export interface PortabilityQueue {
  enqueue(message: PortabilityMessage): Promise<void>;
}

/** Unfinished jobs of every workspace: queued again when the local runtime starts (its queue lives in memory). */
export interface UnfinishedPortabilityJobs {
  list(): Promise<PortabilityMessage[]>;
}

/** Objects of one workspace's part of the bucket, streamed. */
export interface ArchiveStore {
  /** The object's size and its bytes as they arrive; null when there is no such object. */
  read(key: string): Promise<{ size: number; body: AsyncIterable<Uint8Array> } | null>;
  /** The object's size; null when there is no such object. */
  size(key: string): Promise<number | null>;
  /** Stores the chunks as they come (a part of a few MB held at a time); the bytes' count and SHA-256. */
  write(key: string, chunks: AsyncIterable<Uint8Array>, contentType: string): Promise<{ size: number; sha256: string }>;
  /** A URL that downloads the object as `filename`, working for `expiresInSeconds`. */
  downloadUrl(key: string, filename: string, expiresInSeconds: number): Promise<string>;
  /** A URL that stores one PUT of exactly `contentLength` bytes at `key`, working for `expiresInSeconds`. */
  uploadUrl(key: string, expiresInSeconds: number, contentLength: number): Promise<string>;
  delete(key: string): Promise<void>;
}

/** One entry of an archive being read: its body must be read to its end (or drained) before the next entry. */
export interface ArchiveEntry {
  name: string;
  size: number;
  body: AsyncIterable<Uint8Array>;
}

/** Where a writer adds entries, in order; a body must hold exactly `size` bytes. */
export interface ArchiveSink {
  add(name: string, size: number, body: Uint8Array | AsyncIterable<Uint8Array>): Promise<void>;
}

/** The archive's container format (a gzip'd tar), streamed both ways. */
export interface ArchiveCodec {
  /** The archive's bytes, as `build` adds its entries; an error thrown by `build` ends the stream with it. */
  write(build: (sink: ArchiveSink) => Promise<void>): AsyncIterable<Uint8Array>;
  /**
   * The archive's entries in order. Bytes that are no archive of this format end the iteration with an
   * ArchiveRejectedError (`invalid_format`).
   */
  read(bytes: AsyncIterable<Uint8Array>): AsyncIterable<ArchiveEntry>;
}

/**
 * The workspace's audit log as an export reads it, oldest first. An extension point: the audit area provides it
 * where it exists; without it the archive's `audit` collection is empty.
 */
export interface AuditTrailReader {
  records(): AsyncIterable<Record<string, unknown>>;
}

/** Writes a document's extracted text as an import brings it (inline, or the key of the object holding it). */
export interface ImportedTexts {
  put(documentId: string, content: { text: string } | { text_object: string }): Promise<void>;
}
