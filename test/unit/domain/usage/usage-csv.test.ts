import { describe, expect, it } from 'vitest';
import { noUsage, type WorkspaceUsage } from '../../../../shared/domain/usage/usage';
import { usageCsv } from '../../../../shared/domain/usage/usage-csv';

const aRow = (overrides: Partial<WorkspaceUsage> = {}): WorkspaceUsage => ({
  workspace_id: '11111111-1111-4111-8111-111111111111',
  name: 'Acme',
  month: '2026-01',
  ...noUsage(),
  ...overrides,
});

const HEADER =
  'workspace_id,name,month,documents_stored,bytes_stored,documents_uploaded,documents_deleted,bytes_uploaded,bytes_deleted,' +
  'pages_ocred,pages_tesseract,pages_textract,pages_text_layer,search_requests,api_requests';

describe('usage CSV', () => {
  it('writes a header and one row per workspace with every counter, CRLF-terminated', () => {
    // Arrange
    const row = aRow({
      documents_stored: 4,
      bytes_stored: 4096,
      documents_uploaded: 5,
      documents_deleted: 1,
      bytes_uploaded: 5000,
      bytes_deleted: 904,
      pages_ocred: 12,
      pages_ocred_by_engine: { tesseract: 10, text_layer: 2 },
      search_requests: 7,
      api_requests: 99,
    });

    // Act
    const csv = usageCsv([row]);

    // Assert
    expect(csv).toBe(`${HEADER}\r\n11111111-1111-4111-8111-111111111111,Acme,2026-01,4,4096,5,1,5000,904,12,10,0,2,7,99\r\n`);
  });

  it('writes only the header when there is no workspace', () => {
    // Act
    const csv = usageCsv([]);

    // Assert
    expect(csv).toBe(`${HEADER}\r\n`);
  });

  it('quotes a name with a comma, a quote or a line break, doubling its quotes', () => {
    // Arrange
    const row = aRow({ name: 'Smith, "Jones"\nand sons' });

    // Act
    const fields = usageCsv([row]).split('\r\n')[1];

    // Assert
    expect(fields).toContain(',"Smith, ""Jones""\nand sons",2026-01,');
  });

  it('adds a column for an engine beyond the known ones, after them, zero where a workspace has none', () => {
    // Arrange
    const rows = [aRow({ pages_ocred: 3, pages_ocred_by_engine: { ocr: 3 } }), aRow({ workspace_id: 'w2' })];

    // Act
    const [header, first, second] = usageCsv(rows).split('\r\n');

    // Assert
    expect(header).toContain(',pages_text_layer,pages_ocr,search_requests,');
    expect(first).toMatch(/,3,0,0,0,3,0,0$/);
    expect(second).toMatch(/,0,0,0,0,0,0,0$/);
  });
});
