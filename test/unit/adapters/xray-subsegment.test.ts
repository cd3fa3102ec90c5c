import { describe, expect, it } from 'vitest';
import { parseDaemonAddress } from '../../../shared/adapters/xray/daemon-client';
import { markStatus, recordException, type SubsegmentDocument } from '../../../shared/adapters/xray/subsegment';

const subsegment = (): SubsegmentDocument => ({ type: 'subsegment', name: 'S3', id: '0123456789abcdef', trace_id: 't', parent_id: 'p', start_time: 1 });

const outcome = (document: SubsegmentDocument) => ({ error: document.error, throttle: document.throttle, fault: document.fault });

describe('the outcome of a subsegment', () => {
  it.each([
    [200, { error: undefined, throttle: undefined, fault: undefined }],
    [404, { error: true, throttle: undefined, fault: undefined }],
    [429, { error: true, throttle: true, fault: undefined }],
    [503, { error: undefined, throttle: undefined, fault: true }],
    [undefined, { error: undefined, throttle: undefined, fault: true }],
  ])('marks a call answered with %s as X-Ray classifies it', (status, expected) => {
    // Arrange
    const document = subsegment();

    // Act
    markStatus(document, status);

    // Assert
    expect(outcome(document)).toEqual(expected);
  });

  it("records an error's type and message as the cause, cut to fit a datagram", () => {
    // Arrange
    const document = subsegment();
    const error = Object.assign(new Error('x'.repeat(5000)), { name: 'NoSuchKey' });

    // Act
    recordException(document, error, true);

    // Assert
    expect(document.cause?.exceptions).toEqual([{ id: expect.stringMatching(/^[0-9a-f]{16}$/u), type: 'NoSuchKey', message: 'x'.repeat(1024), remote: true }]);
  });
});

describe('the X-Ray daemon address', () => {
  it.each([
    ['169.254.79.129:2000', { host: '169.254.79.129', port: 2000 }],
    ['tcp:127.0.0.1:2000 udp:127.0.0.2:2001', { host: '127.0.0.2', port: 2001 }],
    ['[::1]:2000', { host: '::1', port: 2000 }],
  ])('reads %j', (value, expected) => {
    // Act
    const address = parseDaemonAddress(value);

    // Assert
    expect(address).toEqual(expected);
  });

  it.each([undefined, '', 'localhost', 'host:99999', 'tcp:127.0.0.1:2000'])('falls back to 127.0.0.1:2000 for %j', (value) => {
    // Act
    const address = parseDaemonAddress(value);

    // Assert
    expect(address).toEqual({ host: '127.0.0.1', port: 2000 });
  });
});
