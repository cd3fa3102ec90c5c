import { DynamoErasureRepository } from '../adapters/aws/dynamodb/erasure-repository';
import { DynamoWorkspaceTableEraser } from '../adapters/aws/dynamodb/workspace-table-eraser';
import { workspaceConnectionCloser } from '../domain/erasure/close-workspace-connections';
import type { EraseWorkspaceDeps } from '../domain/erasure/erase-workspace';
import type { WorkspaceIndexEraser, WorkspaceObjectEraser } from '../domain/erasure/ports';
import type { AppContainer } from './app-container';
import type { ContainerParts } from './build-app-container';

/** What the eraser takes from a container and the stores both runtimes give it: the same use case in each. */
export const eraserDepsOf = (
  c: Pick<AppContainer, 'clock' | 'connections' | 'connectionSender'>,
  parts: { db: ContainerParts['db']; tableName: string; objects: WorkspaceObjectEraser; index: WorkspaceIndexEraser },
): EraseWorkspaceDeps => ({
  clock: c.clock,
  erasures: new DynamoErasureRepository(parts.db, parts.tableName),
  table: new DynamoWorkspaceTableEraser(parts.db, parts.tableName),
  objects: parts.objects,
  index: parts.index,
  connections: workspaceConnectionCloser(c.connections, c.connectionSender),
});
