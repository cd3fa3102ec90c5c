import { validationError, type AppError } from '../errors';
import { SourceAccessError, type RemoteFolderConfig, type RemoteFolders, type SourceAccessFailure } from './remote-folder';

/** What a user reads when their source cannot be read, by failure: the field to fix and why. */
const REASONS: Record<SourceAccessFailure, { field: 'url' | 'password'; reason: string }> = {
  unreachable: { field: 'url', reason: 'could not be reached' },
  untrusted_certificate: { field: 'url', reason: "the server's TLS certificate is not trusted (self-signed, unknown authority, expired or for another name)" },
  timeout: { field: 'url', reason: 'did not answer in time' },
  unauthorized: { field: 'password', reason: 'the server refused the username or password (401)' },
  forbidden: { field: 'url', reason: 'the server refused access to this folder (403)' },
  not_found: { field: 'url', reason: 'does not exist on the server (404)' },
  not_a_collection: { field: 'url', reason: 'is a file, not a WebDAV folder' },
  address_not_allowed: { field: 'url', reason: 'points to a private, loopback or link-local address, which sources may not reach' },
  listing_too_large: { field: 'url', reason: 'lists more entries or bytes in one folder than a source may hold' },
  protocol: { field: 'url', reason: 'did not answer as a WebDAV server' },
};

/** The reason shown for a source that failed as a whole (its status_reason). */
export const accessFailureReason = (error: SourceAccessError): string => `${REASONS[error.failure].field === 'password' ? 'password' : 'url'}: ${REASONS[error.failure].reason}`;

/**
 * Lists the source's root once (one PROPFIND, `Depth: 1`) with the credentials given: a source is only saved
 * when it can be read. Any failure is a 400 naming the field to fix; nothing of the password is in it.
 */
export async function checkSourceAccess(remote: RemoteFolders, config: RemoteFolderConfig): Promise<void> {
  try {
    await remote.open(config).list('');
  } catch (error) {
    throw accessError(error);
  }
}

function accessError(error: unknown): AppError {
  if (!(error instanceof SourceAccessError)) throw error;
  const { field, reason } = REASONS[error.failure];
  return validationError('The source could not be read', [{ field, reason }]);
}
