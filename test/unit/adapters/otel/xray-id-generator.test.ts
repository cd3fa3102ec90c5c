import { describe, expect, it } from 'vitest';
import { xrayIdGenerator } from '../../../../shared/adapters/otel/xray-id-generator';

describe('X-Ray-compatible ids', () => {
  it('starts a trace id with the current time in epoch seconds, as X-Ray requires', () => {
    // Arrange
    const before = Math.floor(Date.now() / 1000);

    // Act
    const id = xrayIdGenerator.generateTraceId();

    // Assert
    const seconds = parseInt(id.slice(0, 8), 16);
    expect(id).toMatch(/^[0-9a-f]{32}$/u);
    expect(seconds).toBeGreaterThanOrEqual(before);
    expect(seconds).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it('makes the rest of a trace id and every span id random', () => {
    // Act
    const traces = new Set(Array.from({ length: 100 }, () => xrayIdGenerator.generateTraceId().slice(8)));
    const spans = new Set(Array.from({ length: 100 }, () => xrayIdGenerator.generateSpanId()));

    // Assert
    expect([traces.size, spans.size]).toEqual([100, 100]);
    expect([...spans].every((id) => /^[0-9a-f]{16}$/u.test(id))).toBe(true);
  });
});
