import type * as z from '../../shared/zod';
import type { ErrorCode } from '../../shared/domain/errors';
import type { RouteContracts } from '../../shared/http/route';

/**
 * A success answer of an operation. `schema` is a response shape registered as a component (see
 * shapes/registry.ts), so that the document and a generated client name it; omitted for a body-less status
 * (201/202/204 without a body, a redirect).
 */
export interface SuccessResponseDoc {
  description: string;
  /** A registered response shape; absent when the status has no body. */
  schema?: z.ZodMiniType;
  /** `application/json` unless given (a file download, an image). */
  contentType?: string;
  /** A binary body (download, thumbnail): documented as `format: binary`, with no schema. */
  binary?: boolean;
  /** Extra response headers, by name, with their description (Location of a redirect, Content-Disposition). */
  headers?: Readonly<Record<string, string>>;
  /** An example body; required for JSON bodies (the contract test checks it against the schema). */
  example?: unknown;
}

/** An error status an operation may answer beyond those every operation of its kind answers (see errors.ts). */
export interface ErrorResponseDoc {
  code: ErrorCode;
  /** When it happens, for this operation. */
  when: string;
}

/**
 * How one operation is documented: what it does, its success answers by status and the error answers that
 * are its own. The request side (parameters, body, access) comes from the route's contract, never from here.
 */
export interface OperationDoc {
  summary: string;
  /** Markdown: the operation's behaviour where SPEC.md is silent (the choices made). */
  description?: string;
  responses: Readonly<Partial<Record<200 | 201 | 202 | 204 | 302, SuccessResponseDoc>>>;
  /** Errors this operation gives beyond the common ones (validation, auth, role, not found, rate, 5xx). */
  errors?: readonly ErrorResponseDoc[];
  /** An example request body, required when the contract has a JSON body. */
  requestExample?: unknown;
}

/** A group's operation docs: exactly one per contract, by the same operation id (a compile error otherwise). */
export type GroupDocs<R extends RouteContracts> = { readonly [K in keyof R]: OperationDoc };
