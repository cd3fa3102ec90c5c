import { expect } from 'vitest';

/**
 * What `promise` was rejected with, checked to be an instance of `type`: for tests whose subject is the failure.
 * A promise that resolves fails the test (the resolved value is no error of that type).
 */
export async function rejectionOf<E>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  const outcome = await promise.then(
    (value: unknown) => ({ resolved: value }),
    (caught: unknown) => ({ rejected: caught }),
  );
  expect(outcome, 'the promise resolved instead of failing').toHaveProperty('rejected');
  const error = (outcome as { rejected: unknown }).rejected;
  expect(error).toBeInstanceOf(type);
  return error as E;
}
