import { describe, expect, it } from 'vitest';
import { loginBody } from '../../../functions/auth/schemas';
import { AppError } from '../../../shared/domain/errors';
import { parseWith } from '../../../shared/http/validation';

/** The VALIDATION_ERROR that parsing `value` throws. */
function refusal(value: unknown): AppError {
  try {
    parseWith(loginBody, value, 'body');
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the value was accepted');
}

describe('validation details', () => {
  it('explain a rule that has no message of its own in English, with its bound', () => {
    // Act
    const error = refusal({ username: 'u'.repeat(257), password: 'secret-enough' });

    // Assert
    expect(error.details).toMatchObject({ field: 'username', reason: 'Too big: expected string to have <=256 characters' });
  });

  it('name a missing field and the type it expects', () => {
    // Act
    const error = refusal({ username: 'someone' });

    // Assert
    expect(error.details).toMatchObject({ field: 'password', reason: 'Invalid input: expected string, received undefined' });
  });

  it('name each unknown field', () => {
    // Act
    const error = refusal({ username: 'someone', password: 'secret-enough', admin: true });

    // Assert
    expect(error.details).toMatchObject({ issues: [{ field: 'admin', reason: 'is not a known field' }] });
  });
});
