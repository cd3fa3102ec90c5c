import {
  type Block,
  DetectDocumentTextCommand,
  DocumentTooLargeException,
  GetDocumentTextDetectionCommand,
  InvalidParameterException,
  InvalidS3ObjectException,
  LimitExceededException,
  ProvisionedThroughputExceededException,
  StartDocumentTextDetectionCommand,
  TextractClient,
  ThrottlingException,
  UnsupportedDocumentException,
  BadDocumentException,
} from '@aws-sdk/client-textract';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { TextractOcrEngine, type TextractOcrEngineOptions } from '../../../../../shared/adapters/aws/textract/ocr-engine';
import { OcrEngineBusy, OcrFailure, type OcrInput, type OcrPageProgress } from '../../../../../shared/domain/ocr/ports';
import { fileInput } from '../../../../support/ocr-input';
import { minimalPdf, PNG } from '../../../../support/minimal-files';

const textract = mockClient(TextractClient);
const BUCKET = 'documents-bucket';

/** A clock that only moves when the engine sleeps, so that waiting costs no time. */
const fakeTime = () => {
  const state = { now: 0, slept: [] as number[] };
  return {
    state,
    sleep: async (ms: number) => {
      state.slept.push(ms);
      state.now += ms;
    },
    now: () => state.now,
  };
};

const engine = (options: Partial<TextractOcrEngineOptions> = {}) => {
  const time = fakeTime();
  const instance = new TextractOcrEngine({
    client: new TextractClient({ region: 'eu-west-1' }),
    bucket: BUCKET,
    sleep: time.sleep,
    now: time.now,
    random: () => 0.5,
    ...options,
  });
  return { engine: instance, time };
};

/** An input for `bytes` (default a PNG), as the worker describes a stored file. */
const input = ({ bytes = PNG, ...overrides }: Partial<OcrInput> & { bytes?: Uint8Array } = {}): OcrInput => ({
  ...fileInput(bytes),
  mimeType: 'image/png',
  language: 'eng',
  objectKey: 'documents/doc-1/original',
  ...overrides,
});

let ids = 0;
/** One page of blocks: a PAGE listing its LINEs, each LINE listing its WORDs. */
const page = (pageNumber: number, lines: readonly (readonly [string, number][])[]): Block[] => {
  const lineBlocks: Block[] = [];
  const wordBlocks: Block[] = [];
  for (const words of lines) {
    const wordIds = words.map(() => `w${++ids}`);
    words.forEach(([text, confidence], index) =>
      wordBlocks.push({ BlockType: 'WORD', Id: wordIds[index], Text: text, Confidence: confidence, Page: pageNumber }),
    );
    lineBlocks.push({
      BlockType: 'LINE',
      Id: `l${++ids}`,
      Text: words.map(([text]) => text).join(' '),
      Confidence: 99,
      Page: pageNumber,
      Relationships: [{ Type: 'CHILD', Ids: wordIds }],
    });
  }
  return [
    {
      BlockType: 'PAGE',
      Id: `p${++ids}`,
      Page: pageNumber,
      Relationships: [{ Type: 'CHILD', Ids: lineBlocks.map((line) => line.Id ?? '') }],
    },
    ...lineBlocks,
    ...wordBlocks,
  ];
};

/** A DetectDocumentText answer, or a finished GetDocumentTextDetection answer when `status` is given. */
const answer = (blocks: Block[], pages = 1, status?: 'SUCCEEDED') => ({
  ...(status ? { JobStatus: status } : {}),
  DocumentMetadata: { Pages: pages },
  Blocks: blocks,
});

/** What the SDK attaches to every service exception; the mocks need no real one. */
const metadata = { $metadata: {} };
const UNSUPPORTED = 'Request has unsupported document format';

const failureOf = async (promise: Promise<unknown>): Promise<OcrFailure> => {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OcrFailure);
  return error as OcrFailure;
};

beforeEach(() => {
  textract.reset();
  ids = 0;
});

describe('TextractOcrEngine', () => {
  describe('synchronous reading', () => {
    it('sends a small image inline and returns its lines, one per line of text', async () => {
      textract.on(DetectDocumentTextCommand).resolves({
        DocumentMetadata: { Pages: 1 },
        Blocks: page(1, [[['Hello', 99], ['world', 97]], [['second', 95], ['line', 93]]]),
      });

      const result = await engine().engine.recognize(input());

      expect(textract.commandCalls(DetectDocumentTextCommand)[0]?.args[0].input).toEqual({ Document: { Bytes: PNG } });
      expect(result).toEqual({
        text: 'Hello world\nsecond line',
        confidence: 0.96,
        pages: 1,
        pageTexts: [{ text: 'Hello world\nsecond line', confidence: 0.96, words: 4, boxes: [] }],
      });
    });

    it('names an image above 10 MB by its S3 object instead of sending its bytes', async () => {
      textract.on(DetectDocumentTextCommand).resolves(answer(page(1, [[['big', 90]]]), 1));
      const bytes = new Uint8Array(10_000_001);
      bytes.set(PNG);

      await engine().engine.recognize(input({ bytes, mimeType: 'image/jpeg' }));

      expect(textract.commandCalls(DetectDocumentTextCommand)[0]?.args[0].input).toEqual({
        Document: { S3Object: { Bucket: BUCKET, Name: 'documents/doc-1/original' } },
      });
    });

    it('reads a one-page PDF with the synchronous API', async () => {
      textract.on(DetectDocumentTextCommand).resolves(answer(page(1, [[['one', 90]]]), 1));

      const result = await engine().engine.recognize(input({ bytes: minimalPdf(1), mimeType: 'application/pdf' }));

      expect(result.text).toBe('one');
      expect(textract.commandCalls(StartDocumentTextDetectionCommand)).toHaveLength(0);
    });

    it('orders lines as the PAGE block lists them, not as the response happens to', async () => {
      const blocks = page(1, [[['first', 90]], [['second', 90]]]);
      const [pageBlock, firstLine, secondLine, ...words] = blocks;
      textract.on(DetectDocumentTextCommand).resolves({
        DocumentMetadata: { Pages: 1 },
        Blocks: [pageBlock, secondLine, firstLine, ...words] as Block[],
      });

      const result = await engine().engine.recognize(input());

      expect(result.text).toBe('first\nsecond');
    });

    it('reports the single page as progress once the result is in', async () => {
      textract.on(DetectDocumentTextCommand).resolves(answer(page(1, [[['x', 90]]]), 1));
      const progress: OcrPageProgress[] = [];

      await engine().engine.recognize(input({ onProgress: (step) => void progress.push(step) }));

      expect(progress).toEqual([{ done: 1, total: 1 }]);
    });
  });

  describe('confidence', () => {
    it('is the mean of the word confidences as a fraction of 1', async () => {
      textract.on(DetectDocumentTextCommand).resolves({
        DocumentMetadata: { Pages: 1 },
        Blocks: page(1, [[['a', 80], ['b', 90], ['c', 100]]]),
      });

      const { confidence } = await engine().engine.recognize(input());

      expect(confidence).toBeCloseTo(0.9, 10);
    });

    it('is 0 when Textract found no words', async () => {
      textract.on(DetectDocumentTextCommand).resolves({ DocumentMetadata: { Pages: 1 }, Blocks: page(1, []) });

      const result = await engine().engine.recognize(input());

      expect(result).toMatchObject({ text: '', confidence: 0, pages: 1 });
    });

    it('stays within 0..1 whatever Textract reports', async () => {
      textract.on(DetectDocumentTextCommand).resolves(answer(page(1, [[['a', 140]]]), 1));

      const { confidence } = await engine().engine.recognize(input());

      expect(confidence).toBe(1);
    });
  });

  describe('asynchronous reading of multi-page documents', () => {
    it('starts a job on the S3 object and polls it until it succeeds, following NextToken', async () => {
      textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: 'job-1' });
      textract
        .on(GetDocumentTextDetectionCommand, { JobId: 'job-1', NextToken: undefined })
        .resolvesOnce({ JobStatus: 'IN_PROGRESS' })
        .resolves({ ...answer(page(1, [[['page', 95], ['one', 95]]]), 2, 'SUCCEEDED'), NextToken: 't1' })
        .on(GetDocumentTextDetectionCommand, { JobId: 'job-1', NextToken: 't1' })
        .resolves(answer(page(2, [[['page', 85], ['two', 85]]]), 2, 'SUCCEEDED'));
      const { engine: ocr, time } = engine({ pollIntervalMs: 1000 });

      const result = await ocr.recognize(input({ bytes: minimalPdf(2), mimeType: 'application/pdf' }));

      expect(textract.commandCalls(StartDocumentTextDetectionCommand)[0]?.args[0].input).toMatchObject({
        DocumentLocation: { S3Object: { Bucket: BUCKET, Name: 'documents/doc-1/original' } },
      });
      expect(textract.commandCalls(DetectDocumentTextCommand)).toHaveLength(0);
      expect(result).toMatchObject({ text: 'page one\n\npage two', confidence: 0.9, pages: 2 });
      expect(result.pageTexts?.map((read) => read.text)).toEqual(['page one', 'page two']);
      expect(time.state.slept).toEqual([1000, 2000]);
    });

    it('reports progress for every page once the job is done', async () => {
      textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: 'job-1' });
      textract.on(GetDocumentTextDetectionCommand).resolves({
        JobStatus: 'SUCCEEDED',
        DocumentMetadata: { Pages: 3 },
        Blocks: [...page(1, [[['a', 90]]]), ...page(2, [[['b', 90]]]), ...page(3, [[['c', 90]]])],
      });
      const progress: OcrPageProgress[] = [];

      await engine().engine.recognize(
        input({ bytes: minimalPdf(3), mimeType: 'application/pdf', onProgress: (step) => void progress.push(step) }),
      );

      expect(progress).toEqual([
        { done: 1, total: 3 },
        { done: 2, total: 3 },
        { done: 3, total: 3 },
      ]);
    });

    it('reads a one-page PDF above 10 MB asynchronously, since the synchronous API would refuse it', async () => {
      textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: 'job-1' });
      textract.on(GetDocumentTextDetectionCommand).resolves(answer(page(1, [[['big', 90]]]), 1, 'SUCCEEDED'));
      const bytes = new Uint8Array(10_000_001);
      bytes.set(minimalPdf(1));

      const result = await engine().engine.recognize(input({ bytes, mimeType: 'application/pdf' }));

      expect(result.text).toBe('big');
      expect(textract.commandCalls(DetectDocumentTextCommand)).toHaveLength(0);
    });

    it('never reads a file above 10 MB: Textract takes it from the bucket', async () => {
      textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: 'job-1' });
      textract.on(GetDocumentTextDetectionCommand).resolves(answer(page(1, [[['big', 90]]]), 1, 'SUCCEEDED'));
      let reads = 0;
      const large = { size: 400_000_000, sha256: 'a'.repeat(64), readBytes: () => (reads++, Promise.reject(new Error('read'))) };

      const result = await engine().engine.recognize(input({ ...large, mimeType: 'application/pdf' }));

      expect(result.text).toBe('big');
      expect(reads).toBe(0);
      expect(textract.commandCalls(StartDocumentTextDetectionCommand)[0]!.args[0].input.DocumentLocation).toEqual({
        S3Object: { Bucket: BUCKET, Name: 'documents/doc-1/original' },
      });
    });

    it('gives another content at the same key another request token, so a replaced file is read anew', async () => {
      textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: 'job-1' });
      textract.on(GetDocumentTextDetectionCommand).resolves(answer([], 2, 'SUCCEEDED'));

      await engine().engine.recognize(input({ bytes: minimalPdf(2), mimeType: 'application/pdf' }));
      await engine().engine.recognize(input({ bytes: minimalPdf(3), mimeType: 'application/pdf' }));

      const [first, second] = textract
        .commandCalls(StartDocumentTextDetectionCommand)
        .map((call) => call.args[0].input.ClientRequestToken);
      expect(second).not.toBe(first);
    });

    it('starts the same document with the same request token, so a redelivered job joins the running one', async () => {
      textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: 'job-1' });
      textract.on(GetDocumentTextDetectionCommand).resolves(answer([], 2, 'SUCCEEDED'));
      const document = input({ bytes: minimalPdf(2), mimeType: 'application/pdf' });

      await engine().engine.recognize(document);
      await engine().engine.recognize(document);

      const [first, second] = textract
        .commandCalls(StartDocumentTextDetectionCommand)
        .map((call) => call.args[0].input.ClientRequestToken);
      expect(first).toMatch(/^[a-f0-9]{64}$/);
      expect(second).toBe(first);
    });

    it('fails with unreadable_file and Textract\'s reason when the job fails', async () => {
      textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: 'job-1' });
      textract
        .on(GetDocumentTextDetectionCommand)
        .resolves({ JobStatus: 'FAILED', StatusMessage: 'INVALID_IMAGE_TYPE' });

      const failure = await failureOf(engine().engine.recognize(input({ bytes: minimalPdf(2), mimeType: 'application/pdf' })));

      expect(failure.reason).toBe('unreadable_file');
      expect(failure.message).toContain('INVALID_IMAGE_TYPE');
    });

    it('fails with timeout when the job runs longer than maxWaitMs', async () => {
      textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: 'job-1' });
      textract.on(GetDocumentTextDetectionCommand).resolves({ JobStatus: 'IN_PROGRESS' });
      const { engine: ocr, time } = engine({ pollIntervalMs: 1000, maxWaitMs: 10_000 });

      const failure = await failureOf(ocr.recognize(input({ bytes: minimalPdf(2), mimeType: 'application/pdf' })));

      expect(failure.reason).toBe('timeout');
      expect(time.state.now).toBe(10_000);
      expect(time.state.slept).toEqual([1000, 2000, 4000, 3000]);
    });
  });

  describe('throttling', () => {
    it.each([
      ['ThrottlingException', () => new ThrottlingException({ message: 'Slow down', ...metadata })],
      [
        'ProvisionedThroughputExceededException',
        () => new ProvisionedThroughputExceededException({ message: 'Too many', ...metadata }),
      ],
      ['LimitExceededException', () => new LimitExceededException({ message: 'Limit', ...metadata })],
    ])('retries a call refused with %s, backing off, until it succeeds', async (_name, error) => {
      textract
        .on(DetectDocumentTextCommand)
        .rejectsOnce(error())
        .rejectsOnce(error())
        .resolves(answer(page(1, [[['ok', 90]]]), 1));
      const { engine: ocr, time } = engine({ random: () => 0.5 });

      const result = await ocr.recognize(input());

      expect(result.text).toBe('ok');
      expect(textract.commandCalls(DetectDocumentTextCommand)).toHaveLength(3);
      expect(time.state.slept).toEqual([125, 250]);
    });

    it('sends a request Textract keeps throttling exactly five times by default, then answers OcrEngineBusy', async () => {
      textract.on(DetectDocumentTextCommand).rejects(new ThrottlingException({ message: 'Slow down', ...metadata }));

      const error = await engine().engine.recognize(input()).catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(OcrEngineBusy);
      expect(textract.commandCalls(DetectDocumentTextCommand)).toHaveLength(5);
    });

    it('gives up after maxAttempts with OcrEngineBusy, so that the queue delivers the job again later', async () => {
      textract.on(DetectDocumentTextCommand).rejects(new ThrottlingException({ message: 'Slow down', ...metadata }));

      const error = await engine({ maxAttempts: 3 }).engine.recognize(input()).catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(OcrEngineBusy);
      expect(error).not.toBeInstanceOf(OcrFailure);
      expect((error as Error).message).toMatch(/throttling/i);
      expect(textract.commandCalls(DetectDocumentTextCommand)).toHaveLength(3);
    });

    it('counts every throttled call in the TextractThrottles metric', async () => {
      textract.on(DetectDocumentTextCommand).rejects(new ThrottlingException({ message: 'Slow down', ...metadata }));
      const counted: string[] = [];
      const metrics = { count: (metric: string) => void counted.push(metric) };

      await engine({ maxAttempts: 3, metrics }).engine.recognize(input()).catch(() => undefined);

      expect(counted).toEqual(['TextractThrottles', 'TextractThrottles', 'TextractThrottles']);
    });

    it('retries a throttled poll of an asynchronous job', async () => {
      textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: 'job-1' });
      textract
        .on(GetDocumentTextDetectionCommand)
        .rejectsOnce(new ThrottlingException({ message: 'Slow down', ...metadata }))
        .resolves({ JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: 2 }, Blocks: page(1, [[['ok', 90]]]) });

      const result = await engine().engine.recognize(input({ bytes: minimalPdf(2), mimeType: 'application/pdf' }));

      expect(result.text).toBe('ok');
    });
  });

  describe('errors Textract answers', () => {
    it.each([
      { exception: UnsupportedDocumentException, message: UNSUPPORTED, reason: 'unreadable_file' },
      { exception: BadDocumentException, message: 'Request has invalid document', reason: 'unreadable_file' },
      { exception: DocumentTooLargeException, message: 'Request has invalid document size', reason: 'too_large' },
      { exception: InvalidParameterException, message: 'Request has invalid parameters', reason: 'unreadable_file' },
      { exception: InvalidS3ObjectException, message: 'Unable to get object metadata from S3', reason: 'unreadable_file' },
      { exception: BadDocumentException, message: 'The document is password protected', reason: 'encrypted' },
    ] as const)('maps $exception.name saying $message to $reason', async ({ exception, message, reason }) => {
      textract.on(DetectDocumentTextCommand).rejects(new exception({ message, ...metadata }));

      const failure = await failureOf(engine().engine.recognize(input()));

      expect(failure.reason).toBe(reason);
    });

    it('reports an encrypted PDF that Textract refuses as encrypted', async () => {
      const refusal = new UnsupportedDocumentException({ message: UNSUPPORTED, ...metadata });
      textract.on(DetectDocumentTextCommand).rejects(refusal);

      const failure = await failureOf(
        engine().engine.recognize(
          input({ bytes: minimalPdf(1, ' /Encrypt 9 0 R /ID [<01> <01>]'), mimeType: 'application/pdf' }),
        ),
      );

      expect(failure.reason).toBe('encrypted');
    });

    it('retries a transient server error up to maxAttempts, then leaves it as it is for the queue to retry', async () => {
      const outage = Object.assign(new Error('We encountered an internal error'), { name: 'InternalServerError' });
      textract.on(DetectDocumentTextCommand).rejects(outage);

      const error = await engine({ maxAttempts: 3 }).engine.recognize(input()).catch((caught: unknown) => caught);

      expect(error).toBe(outage);
      expect(textract.commandCalls(DetectDocumentTextCommand)).toHaveLength(3);
    });

    it('reads the document once a transient server error has passed', async () => {
      const outage = Object.assign(new Error('Service unavailable'), { name: 'ServiceUnavailable', $metadata: { httpStatusCode: 503 } });
      textract.on(DetectDocumentTextCommand).rejectsOnce(outage).resolves(answer(page(1, [[['ok', 90]]]), 1));

      const result = await engine().engine.recognize(input());

      expect(result.text).toBe('ok');
      expect(textract.commandCalls(DetectDocumentTextCommand)).toHaveLength(2);
    });

    it('does not count a transient server error as throttling', async () => {
      const outage = Object.assign(new Error('We encountered an internal error'), { name: 'InternalServerError' });
      textract.on(DetectDocumentTextCommand).rejects(outage);
      const counted: string[] = [];

      await engine({ metrics: { count: (metric: string) => void counted.push(metric) } }).engine.recognize(input()).catch(() => undefined);

      expect(counted).toEqual([]);
    });

    it('leaves any other error as it is after one call', async () => {
      const denied = Object.assign(new Error('User is not authorized'), { name: 'AccessDeniedException', $metadata: { httpStatusCode: 400 } });
      textract.on(DetectDocumentTextCommand).rejects(denied);

      const error = await engine().engine.recognize(input()).catch((caught: unknown) => caught);

      expect(error).toBe(denied);
      expect(textract.commandCalls(DetectDocumentTextCommand)).toHaveLength(1);
    });
  });

  describe('what is refused before calling Textract', () => {
    it('refuses WebP, which Textract does not read, as unsupported_type', async () => {
      const failure = await failureOf(engine().engine.recognize(input({ mimeType: 'image/webp' })));

      expect(failure.reason).toBe('unsupported_type');
      expect(textract.calls()).toHaveLength(0);
    });

    it('refuses a language Textract does not read, even joined with one it reads', async () => {
      const failure = await failureOf(engine().engine.recognize(input({ language: 'eng+jpn' })));

      expect(failure.reason).toBe('unsupported_language');
      expect(textract.calls()).toHaveLength(0);
    });

    it('accepts any combination of the languages it lists', async () => {
      textract.on(DetectDocumentTextCommand).resolves(answer(page(1, [[['Straße', 90]]]), 1));
      const ocr = engine().engine;

      const result = await ocr.recognize(input({ language: (await ocr.languages()).join('+') }));

      expect(result.text).toBe('Straße');
    });

    it('fails a PDF whose page tree is empty with no_pages', async () => {
      const failure = await failureOf(engine().engine.recognize(input({ bytes: minimalPdf(0), mimeType: 'application/pdf' })));

      expect(failure.reason).toBe('no_pages');
      expect(textract.calls()).toHaveLength(0);
    });
  });

  it('lists the six languages DetectDocumentText reads', async () => {
    const languages = await engine().engine.languages();

    expect(languages).toEqual(['eng', 'deu', 'fra', 'spa', 'ita', 'por']);
  });
});

describe('TextractOcrEngine: only some pages of a PDF (per page, issue 39)', () => {
  const pdf = minimalPdf(3);
  const onePage = (page: number) => new Uint8Array(Buffer.from(`%PDF-1.4 page ${page} alone`));

  it('sends each page asked for alone to DetectDocumentText and answers them in order', async () => {
    textract
      .on(DetectDocumentTextCommand)
      .resolvesOnce(answer(page(1, [[['second', 90]]])))
      .resolvesOnce(answer(page(1, [[['third', 70], ['page', 80]]])));
    const copied: number[] = [];
    const { engine: instance } = engine({ pagePdfs: async (_bytes, pages) => (copied.push(...pages), pages.map(onePage)) });
    const progress: OcrPageProgress[] = [];

    const output = await instance.recognize(input({ bytes: pdf, mimeType: 'application/pdf', pages: [2, 3], onProgress: (p) => void progress.push(p) }));

    expect(copied).toEqual([2, 3]);
    const sent = textract.commandCalls(DetectDocumentTextCommand).map((call) => Buffer.from(call.args[0].input.Document!.Bytes!).toString());
    expect(sent).toEqual(['%PDF-1.4 page 2 alone', '%PDF-1.4 page 3 alone']);
    expect(textract.commandCalls(StartDocumentTextDetectionCommand)).toHaveLength(0);
    expect(output.pageTexts).toEqual([
      { text: 'second', confidence: 0.9, words: 1, boxes: [] },
      { text: 'third page', confidence: 0.75, words: 2, boxes: [] },
    ]);
    expect(output).toMatchObject({ pages: 2 });
    expect(output.confidence).toBeCloseTo((0.9 + 0.7 + 0.8) / 3, 10);
    expect(progress).toEqual([{ done: 1, total: 2 }, { done: 2, total: 2 }]);
  });

  it('reads the document whole, once, and keeps the pages asked for when they are more than maxPagesOneByOne', async () => {
    textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: 'job-1' });
    textract
      .on(GetDocumentTextDetectionCommand)
      .resolves(answer([...page(1, [[['one', 99]]]), ...page(2, [[['two', 80]]]), ...page(3, [[['three', 60]]])], 3, 'SUCCEEDED'));
    const { engine: instance } = engine({ pagePdfs: async (_bytes, pages) => pages.map(onePage), maxPagesOneByOne: 1 });

    const output = await instance.recognize(input({ bytes: pdf, mimeType: 'application/pdf', pages: [1, 3] }));

    expect(textract.commandCalls(StartDocumentTextDetectionCommand)).toHaveLength(1);
    expect(textract.commandCalls(DetectDocumentTextCommand)).toHaveLength(0);
    expect(output.pageTexts?.map((read) => read.text)).toEqual(['one', 'three']);
  });

  it('reads the document whole when a page alone is above the synchronous limit', async () => {
    textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: 'job-2' });
    textract.on(GetDocumentTextDetectionCommand).resolves(answer([...page(1, [[['one', 99]]]), ...page(2, [[['two', 80]]])], 2, 'SUCCEEDED'));
    const { engine: instance } = engine({ pagePdfs: async (_bytes, pages) => pages.map(() => new Uint8Array(10_000_001)) });

    const output = await instance.recognize(input({ bytes: minimalPdf(2), mimeType: 'application/pdf', pages: [2] }));

    expect(textract.commandCalls(DetectDocumentTextCommand)).toHaveLength(0);
    expect(output.pageTexts?.map((read) => read.text)).toEqual(['two']);
  });
});
