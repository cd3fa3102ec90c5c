import { DOCUMENT_STATUSES, MAX_DOCUMENT_BYTES, UUID, type DocumentRecord } from '../documents/document';
import type { Label } from '../labels/label';
import { ROLES } from '../principal';
import { MATCH_ALGORITHMS, RULE_FIELDS, type Rule } from '../rules/rule';
import { SOURCE_TYPES, type SourceRecord } from '../sources/source';
import type { PublicUser } from '../users/user';
import type { UsageCounters } from '../usage/usage';
import { ArchiveRejectedError, type Collection } from './archive-format';

/*
 * The records of the archive's JSON-lines collections as written, and the checks a record must pass before an
 * import writes anything. Secrets never appear: a source without its sealed password, a user without a password
 * hash, a webhook without its signing secrets.
 */

/**
 * Which fields of a document's record an archive carries (true) and which it leaves out (false): what the document
 * is, its labels and its OCR run's outcome, never what the service keeps beside it at runtime (its version, and
 * its searchable PDF's state: the PDF is not in the archive, an OCR retry writes it again). A field added to
 * {@link DocumentRecord} must be decided here.
 */
const DOCUMENT_FIELDS = {
  id: true,
  title: true,
  filename: true,
  mime_type: true,
  size: true,
  sha256: true,
  status: true,
  ocr_enabled: true,
  language: true,
  ocr_confidence: true,
  labels: true,
  metadata: true,
  source_id: true,
  failure_reason: true,
  pages_ocred_by_engine: true,
  created_by: true,
  created_at: true,
  updated_at: true,
  searchable_pdf_size: false,
  searchable_pdf_reason: false,
  searchable_pdf_message: false,
  version: false,
} as const satisfies Record<keyof DocumentRecord, boolean>;

type CarriedField = { [K in keyof typeof DOCUMENT_FIELDS]: (typeof DOCUMENT_FIELDS)[K] extends true ? K : never }[keyof typeof DOCUMENT_FIELDS];
const CARRIED = (Object.keys(DOCUMENT_FIELDS) as (keyof typeof DOCUMENT_FIELDS)[]).filter((field) => DOCUMENT_FIELDS[field]) as CarriedField[];

/** A document's record as an archive carries it. */
export type PortableDocumentRecord = Pick<DocumentRecord, CarriedField>;
/** A document's line: its record, with its extracted text (OCR or text layer) beside the confidence. */
export type PortableDocument = PortableDocumentRecord & { text: string };

/**
 * The carried fields of a record, and nothing else: what an export writes, and what an import takes of an archive's
 * line (whose other fields, from an older export or written by hand, are dropped, never stored).
 */
export const documentFields = (record: Partial<Record<string, unknown>>): PortableDocumentRecord =>
  Object.fromEntries(CARRIED.filter((field) => record[field] !== undefined).map((field) => [field, record[field]])) as unknown as PortableDocumentRecord;
export type PortableLabel = Label;
export type PortableSource = Omit<SourceRecord, 'password_sealed' | 'current_job_id' | 'last_job_id'>;
export type PortableUser = PublicUser;
export type PortableRule = Omit<Rule, 'apply'>;
/** A webhook's record without its signing secrets (typed structurally: the webhooks area sits above the change stream's). */
export type PortableWebhook = Record<string, unknown>;
export type PortableUsage = UsageCounters & { month: string };

export const portableSource = ({ password_sealed: _p, current_job_id: _c, last_job_id: _l, ...source }: SourceRecord): PortableSource => source;
export const portableRule = ({ apply: _apply, ...rule }: Rule): PortableRule => rule;
export const portableWebhook = ({ secrets: _secrets, ...webhook }: { secrets: unknown }): PortableWebhook => webhook;
export const portableDocument = (record: DocumentRecord, text: string): PortableDocument => ({ ...documentFields(record as unknown as Record<string, unknown>), text });

type Check = (value: unknown) => boolean;
const str: Check = (v) => typeof v === 'string';
const nullable = (check: Check): Check => (v) => v === null || check(v);
const optional = (check: Check): Check => (v) => v === undefined || check(v);
const bool: Check = (v) => typeof v === 'boolean';
const count: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 0;
const uuid: Check = (v) => typeof v === 'string' && UUID.test(v);
const oneOf = (values: readonly string[]): Check => (v) => typeof v === 'string' && values.includes(v);
const strings: Check = (v) => Array.isArray(v) && v.every(str);
const object: Check = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const flatMap: Check = (v) => object(v) && Object.values(v as object).every((x) => x === null || ['string', 'number', 'boolean'].includes(typeof x));
const fraction: Check = (v) => typeof v === 'number' && v >= 0 && v <= 1;
const sha256: Check = (v) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);
const month: Check = (v) => typeof v === 'string' && /^\d{4}-\d{2}$/.test(v);

/** The fields each collection's records must have, and what each must hold (other fields are allowed and kept out). */
const SHAPES: Partial<Record<Collection, Record<string, Check>>> = {
  documents: {
    id: uuid,
    title: str,
    filename: str,
    mime_type: str,
    size: (v) => count(v) && (v as number) <= MAX_DOCUMENT_BYTES,
    sha256,
    status: oneOf(DOCUMENT_STATUSES),
    ocr_enabled: bool,
    language: str,
    ocr_confidence: optional(nullable(fraction)),
    labels: (v) => strings(v) && (v as string[]).every((id) => UUID.test(id)),
    metadata: flatMap,
    source_id: optional(nullable(uuid)),
    failure_reason: optional(nullable(str)),
    pages_ocred_by_engine: optional((v) => object(v) && Object.values(v as object).every(count)),
    created_by: str,
    created_at: str,
    updated_at: str,
    text: str,
  },
  labels: { id: uuid, name: str, color: str, description: nullable(str), created_by: str, created_at: str, updated_at: str },
  sources: {
    id: uuid,
    name: str,
    type: oneOf(SOURCE_TYPES),
    url: str,
    username: str,
    sync_interval: count,
    recursive: bool,
    file_patterns: strings,
    enabled: bool,
    created_by: str,
    created_at: str,
    updated_at: str,
  },
  users: { id: str, username: str, email: str, role: oneOf(ROLES) },
  rules: {
    id: uuid,
    name: str,
    match: (v) => object(v) && oneOf(RULE_FIELDS)((v as Rule['match']).field) && oneOf(MATCH_ALGORITHMS)((v as Rule['match']).algorithm) && str((v as Rule['match']).pattern) && bool((v as Rule['match']).case_sensitive),
    when: object,
    add_labels: (v) => strings(v) && (v as string[]).every((id) => UUID.test(id)),
    order: (v) => typeof v === 'number' && Number.isFinite(v),
    created_by: str,
    created_at: str,
    updated_at: str,
  },
  usage: { month },
};

/**
 * Parses one line of a collection and checks its shape: the record, or an {@link ArchiveRejectedError}
 * (`invalid_record`) naming the entry, line and field.
 */
export function parseRecord(collection: Collection, line: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new ArchiveRejectedError('invalid_record', `${where}: not JSON`);
  }
  if (!object(value)) throw new ArchiveRejectedError('invalid_record', `${where}: not an object`);
  const record = value as Record<string, unknown>;
  for (const [field, check] of Object.entries(SHAPES[collection] ?? {})) {
    if (!check(record[field])) throw new ArchiveRejectedError('invalid_record', `${where}: field ${field}`);
  }
  return record;
}

/** The lines of a JSON-lines part (a final newline is optional; blank lines are not records). */
export const linesOf = (bytes: Uint8Array): string[] =>
  new TextDecoder('utf-8', { fatal: false })
    .decode(bytes)
    .split('\n')
    .filter((line) => line.trim() !== '');
