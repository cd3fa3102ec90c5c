import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { AppFunction } from '../../lib/constructs/app-function';
import { ADOT_COLLECTOR_LAYER, TRACING_LAYER_CONTEXT } from '../../lib/constructs/tracing';
import type { ApiFunctionName } from '../../lib/stacks/api-stack';
import { buildStacks, environmentOf, functionIdOf, testApp } from './build-stacks';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- template JSON, read by the assertions
type Json = any;


/** One function in a stack of its own, synthesized with `context`. */
function oneFunction(context: Record<string, unknown>): { layers: Json; environment: Record<string, string> } {
  const app = testApp({ 'aws:cdk:bundling-stacks': [], ...context });
  const stack = new Stack(app, 'Tracing', { env: { account: '123456789012', region: 'eu-west-1' } });
  new AppFunction(stack, 'Health', { group: 'health' });
  const [fn] = Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function')) as { Properties: Record<string, Json> }[];
  return { layers: fn!.Properties['Layers'], environment: fn!.Properties['Environment'].Variables };
}

describe('the OpenTelemetry collector beside each function', () => {
  it("gives every function of the API stack the ADOT collector layer of the stack's region and OTLP export to it", () => {
    // Arrange
    const stacks = buildStacks();
    const resources = stacks.apiTemplate.toJSON().Resources as Record<string, { Properties: Record<string, Json> }>;
    const layer = `:${ADOT_COLLECTOR_LAYER.account}:layer:${ADOT_COLLECTOR_LAYER.name}:${ADOT_COLLECTOR_LAYER.version}`;

    // Act
    const untraced = (Object.keys(stacks.api.functions) as ApiFunctionName[]).filter(
      (name) => !JSON.stringify(resources[functionIdOf(stacks, name)]!.Properties['Layers']).includes(layer) || environmentOf(stacks, name)['OTEL_TRACES_EXPORTER'] !== 'otlp',
    );

    // Assert
    expect(Object.keys(stacks.api.functions).length).toBeGreaterThan(10);
    expect(untraced).toEqual([]);
  });

  it("names the layer in the function's region", () => {
    // Act
    const { layers } = oneFunction({});

    // Assert
    expect(layers).toEqual([`arn:aws:lambda:eu-west-1:${ADOT_COLLECTOR_LAYER.account}:layer:${ADOT_COLLECTOR_LAYER.name}:${ADOT_COLLECTOR_LAYER.version}`]);
  });

  it('takes the layer a stage picks instead', () => {
    // Arrange
    const own = 'arn:aws:lambda:eu-west-1:123456789012:layer:otel-collector:7';

    // Act
    const { layers, environment } = oneFunction({ [TRACING_LAYER_CONTEXT]: own });

    // Assert
    expect(layers).toEqual([own]);
    expect(environment['OTEL_TRACES_EXPORTER']).toBe('otlp');
  });

  it('leaves the layer out and the spans unexported with none', () => {
    // Act
    const { layers, environment } = oneFunction({ [TRACING_LAYER_CONTEXT]: 'none' });

    // Assert
    expect(layers).toBeUndefined();
    expect(environment['OTEL_TRACES_EXPORTER']).toBe('none');
  });

  it('refuses at synth a value that is not a layer version ARN, naming the key', () => {
    // Act
    const synth = () => oneFunction({ [TRACING_LAYER_CONTEXT]: 'arn:aws:lambda:eu-west-1:123456789012:function:otel' });

    // Assert
    expect(synth).toThrow(/^tracingCollectorLayerArn: a Lambda layer version ARN/u);
  });
});
