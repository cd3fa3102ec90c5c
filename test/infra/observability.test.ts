import { describe, expect, it } from 'vitest';
import { OCR_FAILURE_MIN_DOCUMENTS, OCR_FAILURE_PERCENT, OCR_FAILURE_PERIOD } from '../../lib/constructs/monitoring';
import type { ApiFunctionName } from '../../lib/stacks/api-stack';
import { BUSINESS_METRICS, BUSINESS_METRICS_NAMESPACE } from '../../shared/manifest';
import { buildStacks, environmentOf, functionIdOf, logicalIdOf, statementsOf } from './build-stacks';

const stacks = buildStacks();
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- template JSON, read by the assertions
type Json = any;
const resources = () => stacks.apiTemplate.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, Json> }>;
const FUNCTION_NAMES = Object.keys(stacks.api.functions) as ApiFunctionName[];
const SERVICE = stacks.api.stackName;

/** The dashboard's widgets, from its body (a Fn::Join of strings and tokens; the tokens become placeholders). */
function dashboardWidgets(): Json[] {
  const [dashboard] = Object.values(resources()).filter((resource) => resource.Type === 'AWS::CloudWatch::Dashboard');
  const body = dashboard!.Properties.DashboardBody;
  const text = typeof body === 'string' ? body : (body['Fn::Join'][1] as unknown[]).map((part) => (typeof part === 'string' ? part : 'TOKEN')).join('');
  return JSON.parse(text).widgets;
}

describe('logs, metrics and traces of the functions', () => {
  it.each(FUNCTION_NAMES)('names the stack as the service of the %s function, and the business metrics namespace', (name) => {
    // Act
    const environment = environmentOf(stacks, name);

    // Assert
    expect(environment).toMatchObject({ POWERTOOLS_SERVICE_NAME: SERVICE, POWERTOOLS_METRICS_NAMESPACE: BUSINESS_METRICS_NAMESPACE });
  });

  it.each(FUNCTION_NAMES)('traces the %s function actively and lets it write its segments to X-Ray', (name) => {
    // Arrange
    const fn = resources()[functionIdOf(stacks, name)]!;

    // Act
    const actions = statementsOf(stacks, name).flatMap((statement) => [statement.Action].flat());

    // Assert
    expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
    expect(actions).toEqual(expect.arrayContaining(['xray:PutTraceSegments', 'xray:PutTelemetryRecords']));
  });
});

describe('business metrics on the dashboard and in alarms', () => {
  it.each(BUSINESS_METRICS)('graphs %s, summed, in the namespace and for the service of the stack', (metricName) => {
    // Act
    const metrics = dashboardWidgets().flatMap((widget) => (widget.properties.metrics ?? []) as Json[][]);

    // Assert
    const graphed = metrics.find((metric) => metric[0] === BUSINESS_METRICS_NAMESPACE && metric[1] === metricName);
    expect(graphed).toBeDefined();
    expect(graphed!.slice(2, 4)).toEqual(['service', SERVICE]);
    expect(graphed!.at(-1)).toMatchObject({ stat: 'Sum' });
  });

  it('alarms when the OCR failures pass their share of the documents ingested in an hour', () => {
    // Arrange
    const alarm = resources()[logicalIdOf(stacks.api.monitoring.alarms['OcrFailureRate']!)]!.Properties;

    // Act
    const queries = alarm.Metrics as Json[];
    const expression = queries.find((query) => query.Expression)?.Expression;
    const inputs = queries.filter((query) => query.MetricStat).map((query) => query.MetricStat);

    // Assert
    expect(OCR_FAILURE_PERIOD.toSeconds()).toBe(3600);
    expect(alarm).toMatchObject({ Threshold: OCR_FAILURE_PERCENT, ComparisonOperator: 'GreaterThanThreshold', TreatMissingData: 'notBreaching' });
    expect(expression).toBe(`IF(documents >= ${OCR_FAILURE_MIN_DOCUMENTS}, 100 * failures / documents, 0)`);
    expect(inputs.map((stat: Json) => [stat.Metric.MetricName, stat.Metric.Namespace, stat.Metric.Dimensions, stat.Period, stat.Stat])).toEqual(
      expect.arrayContaining([
        ['DocumentsIngested', BUSINESS_METRICS_NAMESPACE, [{ Name: 'service', Value: SERVICE }], 3600, 'Sum'],
        ['OcrFailures', BUSINESS_METRICS_NAMESPACE, [{ Name: 'service', Value: SERVICE }], 3600, 'Sum'],
      ]),
    );
    expect(alarm.AlarmActions).toHaveLength(1);
  });
});
