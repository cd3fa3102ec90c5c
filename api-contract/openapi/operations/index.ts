import type { HttpGroup } from '../../../shared/manifest';
import type { OperationDoc } from '../operation-docs';
import { authDocs } from './auth';
import { documentsDocs } from './documents';
import { healthDocs } from './health';
import { labelsDocs } from './labels';
import { notificationsDocs } from './notifications';
import { ocrDocs } from './ocr';
import { searchDocs } from './search';
import { settingsDocs } from './settings';
import { sourcesDocs } from './sources';
import { usersDocs } from './users';
import { webhooksDocs } from './webhooks';
import { workspacesDocs } from './workspaces';
import { portabilityDocs } from './portability';
import { auditDocs } from './audit';

/** Every group's operation docs (api-contract/openapi/operations/<group>.ts). */
export const OPERATION_DOCS: Record<HttpGroup, Readonly<Record<string, OperationDoc>>> = {
  auth: authDocs,
  users: usersDocs,
  settings: settingsDocs,
  documents: documentsDocs,
  labels: labelsDocs,
  ocr: ocrDocs,
  search: searchDocs,
  sources: sourcesDocs,
  notifications: notificationsDocs,
  webhooks: webhooksDocs,
  workspaces: workspacesDocs,
  portability: portabilityDocs,
  audit: auditDocs,
  health: healthDocs,
};
