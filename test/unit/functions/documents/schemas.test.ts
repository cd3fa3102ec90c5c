import { describe, expect, it } from 'vitest';
import { updateDocumentBody } from '../../../../functions/documents/schemas';

describe('document metadata', () => {
  it.each([0, -0, 42, -1.5, 1e-130, Number.MAX_SAFE_INTEGER])('accepts the number %d, which DynamoDB stores as sent', (value) => {
    // Act
    const result = updateDocumentBody.safeParse({ metadata: { k: value } });

    // Assert
    expect(result.success).toBe(true);
  });

  it.each([1e308, -1e20, 2 ** 53 + 2, 1e-321, -1e-200])('refuses the number %d, naming the key', (value) => {
    // Act
    const result = updateDocumentBody.safeParse({ metadata: { k: value } });

    // Assert
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['metadata', 'k'], message: expect.stringMatching(/magnitude/) });
  });
});
