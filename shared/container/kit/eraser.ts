import { DynamoErasureRepository } from '../../adapters/aws/dynamodb/erasure-repository';
import { DynamoWorkspaceTableEraser } from '../../adapters/aws/dynamodb/workspace-table-eraser';
import { workspaceConnectionCloser } from '../../domain/erasure/close-workspace-connections';
import type { EraseWorkspaceDeps } from '../../domain/erasure/erase-workspace';
import type { WorkspaceIndexEraser, WorkspaceObjectEraser } from '../../domain/erasure/ports';
import type { Clock } from '../../domain/clock';
import type { ConnectionRepository, ConnectionSender } from '../../domain/connections/ports';
import type { Table } from './table';

/** What the eraser takes: the connections to close, and the stores both runtimes give it (the same use case in each). */
export const eraserDepsOf = (
  c: { clock: Clock; connections: ConnectionRepository; connectionSender: ConnectionSender },
  parts: { db: Table['db']; tableName: string; objects: WorkspaceObjectEraser; index: WorkspaceIndexEraser },
): EraseWorkspaceDeps => ({
  clock: c.clock,
  erasures: new DynamoErasureRepository(parts.db, parts.tableName),
  table: new DynamoWorkspaceTableEraser(parts.db, parts.tableName),
  objects: parts.objects,
  index: parts.index,
  connections: workspaceConnectionCloser(c.connections, c.connectionSender),
});
