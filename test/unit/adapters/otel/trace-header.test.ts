import { trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { contextOfTraceHeader, invocationTraceHeader, traceHeaderOf } from '../../../../shared/adapters/otel/trace-header';

const ROOT = '1-5759e988-bd862e3fe1be46a994272793';
const PARENT = '53995c3f42cd8ad8';

afterEach(() => {
  delete (globalThis as { awslambda?: unknown }).awslambda;
});

describe('the X-Ray trace header', () => {
  it('names the trace, its remote parent and the sampling decision', () => {
    // Act
    const span = trace.getSpanContext(contextOfTraceHeader(`Root=${ROOT};Parent=${PARENT};Sampled=1`));

    // Assert
    expect(span).toMatchObject({ traceId: '5759e988bd862e3fe1be46a994272793', spanId: PARENT, traceFlags: 1, isRemote: true });
  });

  it('carries a decision not to sample', () => {
    // Act
    const span = trace.getSpanContext(contextOfTraceHeader(`Root=${ROOT};Parent=${PARENT};Sampled=0`));

    // Assert
    expect(span?.traceFlags).toBe(0);
  });

  it.each([undefined, '', 'Root=not-a-root;Parent=53995c3f42cd8ad8;Sampled=1', `Root=${ROOT};Sampled=1`])('names no trace to join in %o', (header) => {
    // Act
    const span = trace.getSpanContext(contextOfTraceHeader(header));

    // Assert
    expect(span).toBeUndefined();
  });

  it('writes back the header it read', () => {
    // Arrange
    const header = `Root=${ROOT};Parent=${PARENT};Sampled=1`;

    // Act
    const written = traceHeaderOf(contextOfTraceHeader(header));

    // Assert
    expect(written).toBe(header);
  });

  it('writes no header for a context without a span', () => {
    // Act
    const written = traceHeaderOf(contextOfTraceHeader(undefined));

    // Assert
    expect(written).toBeUndefined();
  });

  it("takes the invocation's header from the runtime's invoke store when it keeps one", () => {
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
