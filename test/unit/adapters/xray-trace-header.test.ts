import { afterEach, describe, expect, it } from 'vitest';
import { downstreamTraceHeader, invocationTraceHeader, parseTraceHeader } from '../../../shared/adapters/xray/trace-header';

const ROOT = '1-6745a1b2-0123456789abcdef01234567';
const PARENT = '53995c3f42cd8ad8';

describe('the X-Ray trace header', () => {
  afterEach(() => {
    delete (globalThis as { awslambda?: unknown }).awslambda;
  });

  it('reads the root, the parent and a sampled decision', () => {
    // Arrange
    const header = `Root=${ROOT};Parent=${PARENT};Sampled=1`;

    // Act
    const trace = parseTraceHeader(header);

    // Assert
    expect(trace).toEqual({ root: ROOT, parent: PARENT, sampled: true });
  });

  it('reads an unsampled trace as not sampled', () => {
    // Arrange
    const header = `Root=${ROOT};Parent=${PARENT};Sampled=0`;

    // Act
    const trace = parseTraceHeader(header);

    // Assert
    expect(trace?.sampled).toBe(false);
  });

  it('takes the fields in any order and case, with a lineage it does not use', () => {
    // Arrange
    const header = `sampled=1; Lineage=a87bd80c:1|68fd508a:5; parent=${PARENT}; root=${ROOT}`;

    // Act
    const trace = parseTraceHeader(header);

    // Assert
    expect(trace).toEqual({ root: ROOT, parent: PARENT, sampled: true });
  });

  it.each([undefined, '', 'Root=2-abc;Sampled=1', `Parent=${PARENT};Sampled=1`, 'Root=1-zzzzzzzz-0123456789abcdef01234567'])(
    'finds no trace to join in %j',
    (header) => {
      // Act
      const trace = parseTraceHeader(header);

      // Assert
      expect(trace).toBeUndefined();
    },
  );

  it('drops a parent that is not a segment id', () => {
    // Arrange
    const header = `Root=${ROOT};Parent=not-an-id;Sampled=1`;

    // Act
    const trace = parseTraceHeader(header);

    // Assert
    expect(trace).toEqual({ root: ROOT, parent: undefined, sampled: true });
  });

  it('names the subsegment as the parent of a downstream call', () => {
    // Act
    const header = downstreamTraceHeader(ROOT, PARENT);

    // Assert
    expect(parseTraceHeader(header)).toEqual({ root: ROOT, parent: PARENT, sampled: true });
  });

  it("takes the invocation's header from the runtime's invoke store before the environment", () => {
    // Arrange
    const fromStore = `Root=${ROOT};Parent=${PARENT};Sampled=1`;
    (globalThis as { awslambda?: unknown }).awslambda = { InvokeStore: { getXRayTraceId: () => fromStore } };

    // Act
    const header = invocationTraceHeader({ _X_AMZN_TRACE_ID: `Root=${ROOT};Parent=1111111111111111;Sampled=1` });

    // Assert
    expect(header).toBe(fromStore);
  });

  it("takes the invocation's header from _X_AMZN_TRACE_ID when the runtime keeps no invoke store", () => {
    // Arrange
    const fromEnv = `Root=${ROOT};Parent=${PARENT};Sampled=0`;

    // Act
    const header = invocationTraceHeader({ _X_AMZN_TRACE_ID: fromEnv });

    // Assert
    expect(header).toBe(fromEnv);
  });
});
