import { describe, expect, it } from 'vitest';
import { unknownLabelsError } from '../../../../shared/domain/labels/label';

describe('unknownLabelsError', () => {
  it('is a 400 on labels naming every unknown id once', () => {
    // Act
    const error = unknownLabelsError(['a', 'b', 'a']);

    // Assert
    expect({ code: error.code, status: error.status, details: error.details }).toEqual({
      code: 'VALIDATION_ERROR',
      status: 400,
      details: { field: 'labels', reason: 'unknown label ids', unknown_label_ids: ['a', 'b'] },
    });
  });
});
