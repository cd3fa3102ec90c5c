import { describe, expect, it } from 'vitest';
import { tracingConfig } from '../../../../shared/adapters/otel/tracing-config';

const LAMBDA = { AWS_LAMBDA_FUNCTION_NAME: 'docservice-documents' };

describe('the tracing configuration', () => {
  it('exports nothing outside Lambda by default', () => {
    // Act
    const config = tracingConfig({});

    // Assert
    expect(config).toMatchObject({ exporter: 'none', sampleRoots: true });
  });

  it('exports over OTLP/HTTP to the collector on the loopback in Lambda, following the sampling of Lambda', () => {
    // Act
    const config = tracingConfig(LAMBDA);

    // Assert
    expect(config).toMatchObject({ exporter: 'otlp', otlpTracesUrl: 'http://localhost:4318/v1/traces', sampleRoots: false });
  });

  it('prints the spans on the console locally with OTEL_TRACES_EXPORTER=console', () => {
    // Act
    const config = tracingConfig({ OTEL_TRACES_EXPORTER: 'console' });

    // Assert
    expect(config.exporter).toBe('console');
  });

  it('takes the traces URL from OTEL_EXPORTER_OTLP_ENDPOINT, or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is', () => {
    // Act
    const fromBase = tracingConfig({ ...LAMBDA, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' });
    const exact = tracingConfig({ ...LAMBDA, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://other:9000/traces' });

    // Assert
    expect([fromBase.otlpTracesUrl, exact.otlpTracesUrl]).toEqual(['http://collector:4318/v1/traces', 'http://other:9000/traces']);
  });

  it.each([{ OTEL_SDK_DISABLED: 'true' }, { POWERTOOLS_TRACE_ENABLED: 'false' }])('turns tracing off in Lambda with %o', (off) => {
    // Act
    const config = tracingConfig({ ...LAMBDA, OTEL_TRACES_EXPORTER: 'otlp', ...off });

    // Assert
    expect(config.exporter).toBe('none');
  });

  it('names the service after POWERTOOLS_SERVICE_NAME, docservice without it', () => {
    // Act
    const names = [tracingConfig({ POWERTOOLS_SERVICE_NAME: 'DocService-Prod-Api' }).serviceName, tracingConfig({}).serviceName];

    // Assert
    expect(names).toEqual(['DocService-Prod-Api', 'docservice']);
  });

  it.each([
    [{ OTEL_TRACES_EXPORTER: 'jaeger' }, 'OTEL_TRACES_EXPORTER'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'ftp://collector/v1/traces' }, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'],
  ])('refuses %o in one line naming the variable', (env, name) => {
    // Act
    const parse = () => tracingConfig(env);

    // Assert
    expect(parse).toThrow(new RegExp(`^Invalid tracing configuration: ${name}: [^\\n]+$`, 'u'));
  });
});
