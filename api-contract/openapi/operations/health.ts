import type { routes } from '../../../functions/health/schemas';
import type { GroupDocs } from '../operation-docs';
import { Health } from '../shapes/health';

export const healthDocs: GroupDocs<typeof routes> = {
  getHealth: {
    summary: 'Check the service',
    description: [
      'Probes every dependency at once, each bounded to 2 s: the table, the bucket and the OCR queue (`dynamodb`, `s3`, `sqs`) and, in the local runtime, the SQLite search index (`search`) and Tesseract\'s language data (`ocr`). Not counted against any rate limit.',
      'A check slower than 500 ms logs one warn line `slow health check` with `duration_ms` and `probes.<name>.{duration_ms,state,error}`: one long probe names the dependency that stalled, every probe long means the service itself was busy.',
    ].join('\n\n'),
    responses: {
      200: {
        description: 'Every dependency answered.',
        schema: Health,
        headers: { 'Cache-Control': '`no-store`.' },
        example: {
          status: 'ok',
          components: { dynamodb: 'ok', s3: 'ok', sqs: 'ok' },
          version: '0.1.0',
          timestamp: '2026-11-02T09:30:00.000Z',
        },
      },
    },
    errors: [
      {
        code: 'SERVICE_UNAVAILABLE',
        when: 'a dependency did not answer in time; `details.components` gives each component\'s state (`ok` or `unavailable`)',
      },
    ],
  },
};
