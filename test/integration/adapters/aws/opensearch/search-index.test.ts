import { Client } from '@opensearch-project/opensearch';
import { describe, expect, it } from 'vitest';
import { OpenSearchSearchIndex } from '../../../../../shared/adapters/aws/opensearch/search-index';
import { describeSearchIndexContract } from '../../../../contracts/search-index.contract';

const url = process.env['OPENSEARCH_URL'];

if (url) {
  // A throw-away alias per run, so the contract never touches an index someone uses.
  const alias = `contract-${process.pid}-${Date.now()}`;
  const client = new Client({ node: url });

  describeSearchIndexContract(`OpenSearch at ${url}`, async () => {
    const index = new OpenSearchSearchIndex(client, { alias });
    await index.migrate();
    return {
      store: index,
      refresh: () => index.refresh(),
      dispose: async () => {
        await client.indices.delete({ index: `${alias}-v*` });
      },
    };
  });
} else {
  describe('OpenSearch contract', () => {
    it('runs against a real OpenSearch only when OPENSEARCH_URL is set (its DSL is unit-tested instead)', () => {
      // Arrange
      const configured = process.env['OPENSEARCH_URL'];

      // Act
      const runsContract = Boolean(configured);

      // Assert
      expect(runsContract).toBe(false);
    });
  });
}
