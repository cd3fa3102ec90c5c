import type { Page } from '../pagination';
import type { OcrJob, OcrJobFilter } from './jobs';
import type { OcrJobRepository } from './ports';

export const listOcrQueue = (deps: { ocrJobs: OcrJobRepository }, filter: OcrJobFilter): Promise<Page<OcrJob>> => deps.ocrJobs.list(filter);
