import type { ContainerParts } from '../../shared/container/build-app-container';
import type { SourceStores } from '../../shared/container/app-container';
import { noAuthenticationEvents } from '../../shared/domain/audit/ports';
import { noBusinessMetrics } from '../../shared/domain/metrics/ports';

/** What a test or bench that was not given a part answers when the code under test reaches for it anyway. */
const absent = (what: string) => (): never => {
  throw new Error(`this test gave no ${what}`);
};

/** A part of which every method answers `absent(what)`. */
const absentPart = <T extends object>(what: string): T =>
  new Proxy({} as T, { get: (_target, key) => (key === 'then' ? undefined : absent(what)) });

/**
 * The container's parts a test does not exercise, each refusing use with an error that names it: the whole
 * container requires every part (a missing one is a compile error in the runtimes), a test gives only those its
 * behaviour reaches and spreads these first.
 */
export const absentParts = (): Omit<ContainerParts, 'db' | 'tableName' | 'env' | 'healthProbes'> => ({
  connectionSender: absentPart('WebSocket endpoint'),
  tokens: () => absentPart('token key'),
  connectionStore: () => absentPart('connection repository'),
  // Each workspace's view is made with its other stores: only a use of it is refused.
  search: new Proxy({} as ContainerParts['search'], {
    get: (_target, key) => (key === 'then' ? undefined : key === 'forWorkspace' ? () => absentPart('search index') : absent('search index')),
  }),
  files: absentPart('bucket'),
  ocrQueues: { forWorkspace: () => absentPart('OCR queue') },
  serving: () => ({ passwords: absentPart('password hasher'), limits: absent('rate limits'), loginAttempts: absentPart('failed-login guard'), host: absentPart('host probe') }),
  remoteFolders: () => absentPart('WebDAV client'),
  sourceStores: (): SourceStores => ({ forWorkspace: () => ({ sources: absentPart('source repository'), syncState: absentPart('sync state store') }), schedule: absentPart('source schedule') }),
  vault: absentPart('source credentials key'),
  syncQueue: absentPart('sync queue'),
  metrics: noBusinessMetrics,
  ruleJobs: absentPart('rule-jobs queue'),
  erasureQueue: absentPart('erasure queue'),
  // Logins are recorded nowhere; a read of the audit log is refused.
  audit: () => ({ audit: absentPart('audit table'), authEvents: noAuthenticationEvents }),
});
