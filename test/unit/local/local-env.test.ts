import { describe, expect, it } from 'vitest';
import { parseEnv } from '../../../shared/container/kit/config';
import { localEnvSchema } from '../../../shared/local/local-env';

describe('the local runtime configuration', () => {
  it('serves PORT 8080 from ./.data and delivers events in process when nothing is set', () => {
    const config = parseEnv(localEnvSchema, {});

    expect(config).toMatchObject({ PORT: 8080, DATA_DIR: './.data', ADMIN_USERNAME: 'admin', LOCAL_EVENT_DELIVERY: 'direct' });
  });

  it('delivers events through the SDK client when LOCAL_EVENT_DELIVERY says sdk', () => {
    const config = parseEnv(localEnvSchema, { LOCAL_EVENT_DELIVERY: 'sdk' });

    expect(config.LOCAL_EVENT_DELIVERY).toBe('sdk');
  });

  it('fails at once naming LOCAL_EVENT_DELIVERY when it is neither sdk nor direct', () => {
    const parse = () => parseEnv(localEnvSchema, { LOCAL_EVENT_DELIVERY: 'fast' });

    expect(parse).toThrow(/^Invalid configuration: LOCAL_EVENT_DELIVERY: /);
  });

  it('cuts off a request body after 30 s without a byte unless REQUEST_BODY_IDLE_TIMEOUT_SECONDS says otherwise', () => {
    expect(parseEnv(localEnvSchema, {}).REQUEST_BODY_IDLE_TIMEOUT_SECONDS).toBe(30);
    expect(parseEnv(localEnvSchema, { REQUEST_BODY_IDLE_TIMEOUT_SECONDS: '5' }).REQUEST_BODY_IDLE_TIMEOUT_SECONDS).toBe(5);
  });

  it('fails at once naming REQUEST_BODY_IDLE_TIMEOUT_SECONDS when it is not a whole number of seconds from 1', () => {
    for (const value of ['0', '1.5', 'soon']) {
      expect(() => parseEnv(localEnvSchema, { REQUEST_BODY_IDLE_TIMEOUT_SECONDS: value })).toThrow(/^Invalid configuration: REQUEST_BODY_IDLE_TIMEOUT_SECONDS: /);
    }
  });
});

describe('MAX_REQUEST_SIZE_MB', () => {
  it('is 100 MiB when unset, as P\'s limits table says', () => {
    expect(parseEnv(localEnvSchema, {}).MAX_REQUEST_SIZE_MB).toBe(100);
  });

  it('takes another whole number of MiB', () => {
    expect(parseEnv(localEnvSchema, { MAX_REQUEST_SIZE_MB: '250' }).MAX_REQUEST_SIZE_MB).toBe(250);
  });

  it.each(['0', '1.5', 'lots', '2048'])('stops the start naming the variable for %s', (value) => {
    expect(() => parseEnv(localEnvSchema, { MAX_REQUEST_SIZE_MB: value })).toThrow(/^Invalid configuration: MAX_REQUEST_SIZE_MB: /);
  });
});
