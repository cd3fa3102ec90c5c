import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsHttp } from '../../shared/container/kit/aws-http';
import { awsSearchIndex } from '../../shared/container/kit/aws-search-index';
import { workspaceUsageMeter } from '../../shared/container/kit/workspace-stores';
import { createSearchHandler } from './handler';

const { gate } = awsHttp();
const index = awsSearchIndex();

export const handler = lambdaEntry(
  createSearchHandler({
    ...gate,
    forWorkspace: (workspaceId) => ({ workspaceId, searchIndex: index.forWorkspace(workspaceId), usageMeter: workspaceUsageMeter(gate.meter, workspaceId) }),
  }),
);
