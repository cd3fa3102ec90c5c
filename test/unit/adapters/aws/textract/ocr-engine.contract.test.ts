import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type DetectDocumentTextCommandOutput,
  DetectDocumentTextCommand,
  type GetDocumentTextDetectionCommandOutput,
  GetDocumentTextDetectionCommand,
  StartDocumentTextDetectionCommand,
  TextractClient,
  UnsupportedDocumentException,
} from '@aws-sdk/client-textract';
import { mockClient } from 'aws-sdk-client-mock';
import { TextractOcrEngine } from '../../../../../shared/adapters/aws/textract/ocr-engine';
import { describeOcrEngineContract } from '../../../../contracts/ocr-engine.contract';

/**
 * The OCR contract against Textract's recorded answers: every request is answered with the response recorded for
 * the file it is about (test/fixtures/textract, built by build.ts), recognised by its S3 key (`contract/<file>`)
 * or by its bytes, and files Textract cannot read get the error Textract answers for them.
 */
const corpus = path.resolve(import.meta.dirname, '../../../../..', '../shared/corpus/ocrmypdf');
const fixtures = path.resolve(import.meta.dirname, '../../../../fixtures/textract');

interface Recording {
  DetectDocumentText?: DetectDocumentTextCommandOutput;
  StartDocumentTextDetection?: { JobId: string };
  GetDocumentTextDetection?: GetDocumentTextDetectionCommandOutput[];
}

const recordings = new Map(
  readdirSync(fixtures)
    .filter((name) => name.endsWith('.json'))
    .map((name) => [
      name.slice(0, -'.json'.length),
      JSON.parse(readFileSync(path.join(fixtures, name), 'utf8')) as Recording,
    ]),
);

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const corpusFileByHash = new Map(
  readdirSync(corpus).map((name) => [sha256(readFileSync(path.join(corpus, name))), name] as const),
);

/** What Textract answers for a document it cannot read: the same exception for corrupt and encrypted files. */
const unsupported = () =>
  new UnsupportedDocumentException({
    message: 'Request has unsupported document format',
    $metadata: { httpStatusCode: 400 },
  });

/**
 * Corpus files Textract refuses. invalid.pdf is not a PDF. hugemono.pdf holds a 35000 x 35000 px image on a
 * 116-inch page, past Textract's set limits (10000 px a side, 40 inches); which exception Textract picks for it
 * is not documented, and the common answer for a document it cannot process is recorded here.
 */
const REFUSED = new Set(['invalid.pdf', 'hugemono.pdf']);

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** How Textract treats bytes that no recording is about: the broken files the contract generates. */
const refusedInline = (bytes: Uint8Array): boolean => {
  const text = latin1(bytes);
  // Textract reads no password-protected PDF, and no PNG cut short (no IEND chunk).
  if (text.startsWith('%PDF') && /\/Encrypt\b/.test(text)) return true;
  if (text.startsWith('\x89PNG') && !text.includes('IEND')) return true;
  return false;
};

const textract = mockClient(TextractClient);

const fileOfKey = (key: string | undefined) =>
  key?.startsWith('contract/') ? key.slice('contract/'.length) : undefined;

const noRecording = (what: string) =>
  new Error(`No Textract recording for ${what}; add it to test/fixtures/textract/build.ts.`);

const installRecordings = () => {
  textract.reset();
  const jobs = new Map<string, { file: string; polls: number }>();

  textract.on(DetectDocumentTextCommand).callsFake(({ Document }: DetectDocumentTextCommand['input']) => {
    const bytes = Document?.Bytes;
    const file = bytes ? corpusFileByHash.get(sha256(bytes)) : fileOfKey(Document?.S3Object?.Name);
    if (file && REFUSED.has(file)) throw unsupported();
    if (!file && bytes && refusedInline(bytes)) throw unsupported();
    const response = file ? recordings.get(file)?.DetectDocumentText : undefined;
    if (!response) throw noRecording(file ?? 'the bytes sent');
    return structuredClone(response);
  });

  textract.on(StartDocumentTextDetectionCommand).callsFake((request: StartDocumentTextDetectionCommand['input']) => {
    const { DocumentLocation } = request;
    const file = fileOfKey(DocumentLocation?.S3Object?.Name);
    if (file && REFUSED.has(file)) throw unsupported();
    const started = file ? recordings.get(file)?.StartDocumentTextDetection : undefined;
    if (!file || !started) throw noRecording(file ?? 'the S3 object');
    jobs.set(started.JobId, { file, polls: 0 });
    return { ...started };
  });

  textract.on(GetDocumentTextDetectionCommand).callsFake((request: GetDocumentTextDetectionCommand['input']) => {
    const { JobId, NextToken } = request;
    const job = JobId ? jobs.get(JobId) : undefined;
    if (!job) throw Object.assign(new Error('Request has invalid Job Id'), { name: 'InvalidJobIdException' });
    const answers = recordings.get(job.file)?.GetDocumentTextDetection ?? [];
    // The recorded polls in order (IN_PROGRESS first), then the result pages, each found by its NextToken.
    const pending = answers.filter((answer) => answer.JobStatus === 'IN_PROGRESS');
    const results = answers.filter((answer) => answer.JobStatus !== 'IN_PROGRESS');
    if (!NextToken && job.polls < pending.length) return structuredClone(pending[job.polls++]);
    const index = NextToken ? results.findIndex((_answer, i) => results[i - 1]?.NextToken === NextToken) : 0;
    const answer = results[index];
    if (!answer) throw noRecording(`${job.file} with NextToken ${NextToken}`);
    return structuredClone(answer);
  });
};

describeOcrEngineContract('Textract (recorded responses)', () => {
  installRecordings();
  return new TextractOcrEngine({
    client: new TextractClient({ region: 'eu-west-1' }),
    bucket: 'contract-bucket',
    pollIntervalMs: 1,
    sleep: () => Promise.resolve(),
  });
});
