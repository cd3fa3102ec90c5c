import * as z from '../../shared/zod';
import { contract, type RouteContracts } from '../../shared/http/route';
import { MAX_IMPORT_ARCHIVE_BYTES } from '../../shared/domain/portability/jobs';

// Each route's schema is built when the route is first used (z.lazy): a cold start builds only its route's.

export const exportIdParams = z.lazy(() => z.strictObject({ id: z.uuid('must be an export id (UUID)') }));
export const importIdParams = z.lazy(() => z.strictObject({ id: z.uuid('must be an import id (UUID)') }));

/** An import announces its archive's size: the upload URL takes exactly that many bytes. */
export const createImportBody = z.lazy(() =>
  z.strictObject({
    size: z.number().check(z.int(), z.gte(1, 'must be at least 1 byte'), z.lte(MAX_IMPORT_ARCHIVE_BYTES, `must be at most ${MAX_IMPORT_ARCHIVE_BYTES} bytes`)),
  }),
);

/** The export and import routes' contracts, by operation id: a workspace's admins take its data away or bring it in. */
export const routes = {
  createWorkspaceExport: contract({ key: 'POST /api/workspace/exports', access: 'admin' }),
  getWorkspaceExport: contract({ key: 'GET /api/workspace/exports/{id}', access: 'admin', params: exportIdParams }),
  createWorkspaceImport: contract({ key: 'POST /api/workspace/imports', access: 'admin', body: createImportBody }),
  startWorkspaceImport: contract({ key: 'POST /api/workspace/imports/{id}/start', access: 'admin', params: importIdParams }),
  getWorkspaceImport: contract({ key: 'GET /api/workspace/imports/{id}', access: 'admin', params: importIdParams }),
} as const satisfies RouteContracts;
