import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OcrDailyTotals, OcrTotals } from '../../../domain/ocr/jobs';
import type { WorkspaceTable } from './keys';
import type { TransactItem } from './label-membership';
import { queryAll } from './queries';

type Item = Record<string, unknown>;

/** Language totals are top-level attributes (`lang_<code>`): ADD cannot create a key inside a missing map. */
const LANGUAGE_PREFIX = 'lang_';

/** What one finished run adds to the totals. */
export interface RunCounts {
  completed?: number;
  failed?: number;
  processing_seconds?: number;
}

/**
 * The OCR run totals of a workspace, overall (`COUNTERS / OCRTOTALS`) and per day (`OCRSTATS / <date>`): the
 * job repository adds to them in the transaction that finishes a run ({@link DynamoOcrStatistics.moves}).
 */
export class DynamoOcrStatistics {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: WorkspaceTable,
  ) {}

  async totals(): Promise<OcrTotals> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table.tableName, Key: this.table.keys.ocrTotals }));
    return toTotals(Item);
  }

  async daily(fromDate: string, toDate: string): Promise<OcrDailyTotals[]> {
    const items = await queryAll(this.db, {
      TableName: this.table.tableName,
      KeyConditionExpression: 'pk = :stats AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':stats': this.table.keys.ocrDay('').pk, ':from': fromDate, ':to': toDate },
    });
    return items.map((item) => ({ date: String(item['sk']), ...toTotals(item) }));
  }

  /** The updates that add a run in `language`, finished at `now`, to the totals and to its day's. */
  moves(now: string, language: string, counts: RunCounts): TransactItem[] {
    const fields = Object.entries({ ...counts, [`${LANGUAGE_PREFIX}${language}`]: 1 });
    const update = (key: { pk: string; sk: string }): TransactItem => ({
      Update: {
        TableName: this.table.tableName,
        Key: key,
        UpdateExpression: `ADD ${fields.map((_, i) => `#t${i} :t${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#t${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(fields.map(([, value], i) => [`:t${i}`, value])),
      },
    });
    return [update(this.table.keys.ocrTotals), update(this.table.keys.ocrDay(now.slice(0, 10)))];
  }
}

function toTotals(item: Item | undefined): OcrTotals {
  const languages = Object.fromEntries(
    Object.entries(item ?? {})
      .filter(([name]) => name.startsWith(LANGUAGE_PREFIX))
      .map(([name, value]) => [name.slice(LANGUAGE_PREFIX.length), Number(value)]),
  );
  return {
    completed: Number(item?.['completed'] ?? 0),
    failed: Number(item?.['failed'] ?? 0),
    processing_seconds: Number(item?.['processing_seconds'] ?? 0),
    languages,
  };
}
