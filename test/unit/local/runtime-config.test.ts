import { describe, expect, it } from 'vitest';
import { parseEnv } from '../../../shared/container/config';
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
});
