import type { routes } from '../../../functions/ocr/schemas';
import type { GroupDocs } from '../operation-docs';
import { OcrCancellation, OcrJob, OcrJobPage, OcrMetrics, OcrQueueStatus, OcrRetryResult } from '../shapes/ocr';
import { SystemMetrics } from '../shapes/system';

const documentId = '3f2a9c4e-8b1d-4e6f-9a0b-1c2d3e4f5a6b';

const queuedJob = {
  id: documentId,
  document_id: documentId,
  status: 'queued',
  priority: 'normal',
  language: 'eng+deu',
  run: 1,
  attempts: 0,
  progress: 0,
  pages: null,
  cancel_requested: false,
  failure_reason: null,
  created_by: '0b7e3c52-9d1a-4f6e-8c2b-5a4d3e2f1a0b',
  queued_at: '2026-11-02T09:31:12.345Z',
  started_at: null,
  heartbeat_at: null,
  finished_at: null,
  processing_time: null,
};

const processingJob = {
  ...queuedJob,
  id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  document_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  status: 'processing',
  priority: 'high',
  language: 'eng',
  attempts: 1,
  progress: 40,
  pages: 5,
  queued_at: '2026-11-02T09:30:58.101Z',
  started_at: '2026-11-02T09:30:58.730Z',
  heartbeat_at: '2026-11-02T09:31:03.912Z',
};

const conflict = (when: string) => ({ code: 'DUPLICATE_RESOURCE' as const, when: `${when}; \`details.status\` is the job's status` });

export const ocrDocs: GroupDocs<typeof routes> = {
  retryOcr: {
    summary: "Run a document's OCR again",
    description: [
      'Starts a new OCR run of the document: after a failure or a cancel, to read it again in other languages, or to read a document uploaded without OCR (which then has OCR on). The document goes back to `pending`.',
      '',
      "`language` defaults to the caller's `ocr_default_language` setting (`eng` unless changed) and must be available to the OCR engine (Tesseract's installed data locally; Textract: `eng`, `deu`, `fra`, `spa`, `ita`, `por`), else 400 on `language`. `priority` defaults to `normal`.",
    ].join('\n'),
    requestExample: { language: 'eng+deu', priority: 'high' },
    responses: {
      200: {
        description: 'The new run, queued.',
        schema: OcrRetryResult,
        example: { id: documentId, status: 'pending', priority: 'high', language: 'eng+deu', message: 'OCR queued' },
      },
    },
    errors: [
      { code: 'VALIDATION_ERROR', when: '`language` is not available to the OCR engine: `details.reason` lists the available codes' },
      conflict('a run of the document is already queued or processing'),
    ],
  },
  getOcrQueueStatus: {
    summary: "The OCR queue's counters",
    description: [
      "The workspace's jobs waiting (`pending`) and running (`processing`), today's completions (UTC day), `failed` (documents whose last run failed or was cancelled), `average_processing_time` (seconds, the mean over every completed run) and `estimated_completion`: now plus the jobs left times the mean processing time, divided by the workers running side by side.",
      '',
      'All from counters kept in the same transactions as the jobs (no scans), so they are exact and cheap.',
    ].join('\n'),
    responses: {
      200: {
        description: 'The counters.',
        schema: OcrQueueStatus,
        example: {
          pending: 12,
          processing: 2,
          completed_today: 87,
          failed: 3,
          average_processing_time: 4.212,
          estimated_completion: '2026-11-02T09:31:42.000Z',
        },
      },
    },
  },
  listOcrQueue: {
    summary: 'List OCR jobs',
    description: [
      'One page of the workspace\'s OCR jobs. A document has one OCR job, addressed by the document\'s id; each retry is a new `run` of it.',
      '',
      'Without `status` it lists the queue proper: jobs processing, then queued, each high priority first, then oldest first. `status` lists the jobs of one status (`queued`, `processing`, `completed`, `failed`, `cancelled`) instead, in the same order; `priority` keeps one priority. A queued job the OCR engine was throttling carries `deferred_until`: it is not taken before then.',
    ].join('\n'),
    responses: {
      200: {
        description: 'The page of jobs.',
        schema: OcrJobPage,
        example: {
          data: [processingJob, queuedJob],
          pagination: { page: 1, per_page: 20, total: 2, total_pages: 1, has_next: false, has_prev: false },
        },
      },
    },
  },
  setOcrPriority: {
    summary: "Change a queued OCR job's priority",
    description:
      "Moves a queued job to the other priority's queue. High-priority jobs have their own queue and worker capacity, so they never wait behind normal ones. Only a queued job can change priority.",
    requestExample: { priority: 'high' },
    responses: { 200: { description: 'The job as changed.', schema: OcrJob, example: { ...queuedJob, priority: 'high' } } },
    errors: [conflict('the job has started or finished')],
  },
  cancelOcrJob: {
    summary: 'Cancel an OCR job',
    description: [
      "A queued job is cancelled at once (`status: \"cancelled\"`): its document ends `failed` with `failure_reason: \"cancelled\"`. A processing one answers `status: \"cancelling\"`: its worker stops at its next page and the document ends the same way.",
      '',
      'Cancelled runs do not count as failures in the OCR metrics. `POST /api/documents/{id}/retry-ocr` starts the document again.',
    ].join('\n'),
    responses: {
      200: { description: 'The job cancelled, or being cancelled.', schema: OcrCancellation, example: { id: documentId, status: 'cancelled' } },
    },
    errors: [conflict('the job has already finished')],
  },
  getOcrMetrics: {
    summary: "The workspace's OCR metrics",
    description:
      '`total_processed` counts finished runs (completed and failed; cancelled runs are left out), `success_rate` is the completed share of them (0..1), `average_processing_time` the mean seconds of a completed run. `languages_used` counts finished runs by language as requested (`eng+deu` is its own key). `daily_stats` covers the last 30 days (UTC), oldest first, leaving out days without runs. All from totals stored as runs finish: nothing is counted at request time.',
    responses: {
      200: {
        description: 'The metrics.',
        schema: OcrMetrics,
        example: {
          total_processed: 1520,
          success_rate: 0.987,
          average_processing_time: 4.212,
          languages_used: { eng: 1402, 'eng+deu': 118 },
          daily_stats: [
            { date: '2026-11-01', processed: 64, completed: 63, failed: 1, average_processing_time: 3.954 },
            { date: '2026-11-02', processed: 90, completed: 87, failed: 3, average_processing_time: 4.48 },
          ],
        },
      },
    },
  },
  getSystemMetrics: {
    summary: 'The system metrics',
    description: [
      'The percentages (0..100, one decimal) describe the instance that answered: locally the host\'s CPU over a 200 ms sample, the host\'s memory in use and the disk holding `DATA_DIR`; in the cloud the answering Lambda\'s CPU, its process memory against its configured memory size, and `/tmp`. `uptime_seconds` is that process\'s (locally the runtime\'s).',
      '',
      '`active_connections` is the deployment\'s authenticated WebSocket connections across every workspace, from the connection records, in both runtimes. Another workspace admin gets 403 with `details.required_role = "operator"`.',
    ].join('\n'),
    responses: {
      200: {
        description: 'The metrics.',
        schema: SystemMetrics,
        example: { cpu_usage: 12.5, memory_usage: 41.3, disk_usage: 63.8, active_connections: 7, uptime_seconds: 86_412 },
      },
    },
  },
};
