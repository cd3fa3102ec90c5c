import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { auditLog } from '../../shared/container/kit/audit';
import { auditTableName } from '../../shared/container/kit/aws-env';
import { awsHttp } from '../../shared/container/kit/aws-http';
import { createAuditHandler } from './handler';

const { gate, table } = awsHttp();

export const handler = lambdaEntry(createAuditHandler({ ...gate, audit: auditLog(table.db, auditTableName(process.env)) }));
