import * as z from '../../shared/zod';
import { eraseWorkspace, type EraseWorkspaceDeps } from '../../shared/domain/erasure/erase-workspace';
import { logger } from '../../shared/observability/logger';
import { sqsJsonHandler } from '../../shared/queue/sqs-batch';

const erasureMessage = z.object({ workspace_id: z.uuid() });

/**
 * The eraser, fed by the erasure queue: each message erases one workspace whose deletion was requested, from
 * the first step its record has not marked done. A failure is reported, so SQS delivers the message again and
 * the erasure goes on from there; after five it waits in the dead-letter queue (alarmed), and a restart of the
 * local runtime queues every unfinished erasure again.
 */
export const createEraserHandler = (deps: EraseWorkspaceDeps) =>
  sqsJsonHandler('eraser', erasureMessage, async (message) => {
    const started = Date.now();
    const outcome = await eraseWorkspace(deps, message.workspace_id);
    logger.info('eraser: workspace done', { workspace_id: message.workspace_id, outcome, ms: Date.now() - started });
  });
