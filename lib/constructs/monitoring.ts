import { Duration, Stack } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { BUSINESS_METRICS_NAMESPACE, CHANGE_CONSUMER_DELIVERY, MAX_RECEIVES, type BUSINESS_METRICS } from '../../shared/manifest';
import { CHANGE_MAX_ITERATOR_AGE_MINUTES } from '../stacks/limits';

/*
 * The thresholds, named: the README's "Deploying to AWS" quotes them and the infra tests read them.
 */
export const ALARM_PERIOD = Duration.minutes(5);
/** A function alarms when its longest run in 5 minutes passes this share of its timeout. */
export const DURATION_SHARE_OF_TIMEOUT = 0.8;
/** The functions one errors, throttles or duration alarm watches: CloudWatch's bound on an alarm's metrics. */
export const FUNCTIONS_PER_ALARM = 10;
/** HTTP 5xx, in percent of requests over 5 minutes, counted once at least 20 requests came. */
export const HTTP_5XX_PERCENT = 1;
export const HTTP_5XX_MIN_REQUESTS = 20;
/** p95 latency of the HTTP API over three 5-minute periods in a row. */
export const HTTP_P95_LATENCY_MS = 3000;
/** OpenSearch: JVM memory pressure (3 periods in a row) and free storage per node, in percent of its volume. */
export const SEARCH_JVM_PRESSURE_PERCENT = 80;
export const SEARCH_FREE_STORAGE_PERCENT = 20;
/**
 * A rate limiter that fails lets requests through and logs `rate limit: ... failed` (shared/container/kit/request-gate.ts):
 * the limits are then off without anyone seeing it (a missing grant, say). Counted from the logs,
 * the alarm fires when it happened in each of three 5-minute periods in a row, not on one blip.
 */
export const RATE_LIMITER_FAILURE_LOG = '"rate limit:"';
export const RATE_LIMITER_FAILURE_METRIC = { namespace: 'DocService', metricName: 'RateLimiterFailures' } as const;
/**
 * The limiter-failure metric of one stack: its namespace carries the stack's name, since a metric filter on a
 * plain-text pattern takes no dimension and two stages in one account must not set off each other's alarm.
 */
export function rateLimiterFailureMetric(stackName: string): { namespace: string; metricName: string } {
  return { namespace: `${RATE_LIMITER_FAILURE_METRIC.namespace}/${stackName}`, metricName: RATE_LIMITER_FAILURE_METRIC.metricName };
}

/**
 * OCR failures, in percent of the documents ingested in the same hour, counted once at least 20 came in: a
 * hostile or broken file fails on its own now and then, a broken engine, grant or quota fails most of them.
 * An hour, since a document fails minutes after it was ingested and at most once per run.
 */
export const OCR_FAILURE_PERCENT = 10;
export const OCR_FAILURE_MIN_DOCUMENTS = 20;
export const OCR_FAILURE_PERIOD = Duration.hours(1);


/** A queue whose oldest message must not wait longer than `maxAge`. */
export interface WatchedQueue {
  readonly queue: sqs.IQueue;
  readonly maxAge: Duration;
}

/** A function and the timeout it runs with. */
export interface WatchedFunction {
  readonly function: lambda.IFunction;
  readonly timeout: Duration;
}

/** A consumer of the table's stream and the queue its failed batches are described in. */
export interface WatchedChangeConsumer {
  readonly function: lambda.IFunction;
  readonly failureQueue: sqs.IQueue;
}

/** Props of {@link Monitoring}. */
export interface MonitoringProps {
  /** Where alarm notifications go (an email subscription); none when absent. */
  readonly alarmEmail?: string;
  readonly deadLetterQueues: Readonly<Record<string, sqs.IQueue>>;
  readonly workQueues: Readonly<Record<string, WatchedQueue>>;
  /** The consumers of the table's stream, by name: their failure queues and how far behind they are alarm. */
  readonly changeConsumers?: Readonly<Record<string, WatchedChangeConsumer>>;
  readonly functions: Readonly<Record<string, WatchedFunction>>;
  readonly httpApi: apigwv2.IHttpApi;
  readonly httpStageName: string;
  readonly webSocketApi: apigwv2.IWebSocketApi;
  readonly webSocketStageName: string;
  readonly searchDomain: opensearch.IDomain;
  /** Volume of each data node, for the free-storage threshold. */
  readonly searchVolumeGiB: number;
  /** Log groups of the functions that count requests, by function name: their limiter failures alarm. */
  readonly rateLimitedLogGroups?: Readonly<Record<string, logs.ILogGroup>>;
}

/**
 * One SNS topic, an alarm for every way the deployment can silently go wrong, and one dashboard. Every alarm
 * notifies the topic when it fires and when it clears; missing data (no traffic) is not a breach.
 */
export class Monitoring extends Construct {
  public readonly topic: sns.Topic;
  public readonly dashboard: cloudwatch.Dashboard;
  /** Every alarm, by a readable id such as `Dlq-ocr`; `Errors-search` names the grouped alarm that watches search's errors. */
  public readonly alarms: Readonly<Record<string, cloudwatch.Alarm>>;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.topic = new sns.Topic(this, 'AlarmTopic', { displayName: `${stack.stackName} alarms`, enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));

    const alarms: Record<string, cloudwatch.Alarm> = {};
    const alarm = (name: string, metric: cloudwatch.IMetric, options: Omit<cloudwatch.CreateAlarmOptions, 'evaluationPeriods'> & { evaluationPeriods?: number }) => {
      const created = new cloudwatch.Alarm(this, name, {
        metric,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        ...options,
      });
      created.addAlarmAction(new actions.SnsAction(this.topic));
      created.addOkAction(new actions.SnsAction(this.topic));
      alarms[name] = created;
      return created;
    };

    for (const [name, queue] of Object.entries(props.deadLetterQueues)) {
      alarm(`Dlq-${name}`, queue.metricApproximateNumberOfMessagesVisible({ period: ALARM_PERIOD, statistic: 'Maximum' }), {
        alarmDescription: `A message reached the ${name} dead-letter queue: it failed ${MAX_RECEIVES} times. Read it, fix the cause, redrive it.`,
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      });
    }
    const changeConsumers = Object.entries(props.changeConsumers ?? {});
    for (const [name, { function: fn, failureQueue }] of changeConsumers) {
      alarm(`Dlq-${name}`, failureQueue.metricApproximateNumberOfMessagesVisible({ period: ALARM_PERIOD, statistic: 'Maximum' }), {
        alarmDescription:
          `The ${name} consumer of the table's stream gave up on a change after ${CHANGE_CONSUMER_DELIVERY.retryAttempts} retries and moved on: ` +
          'the message names the shard and sequence numbers (the stream keeps the records 24 hours). Read its logs, fix the cause, ' +
          'then repair (npm run reindex for the index).',
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      });
      alarm(`IteratorAge-${name}`, fn.metric('IteratorAge', { period: ALARM_PERIOD, statistic: 'Maximum' }), {
        alarmDescription: `The ${name} consumer is more than ${CHANGE_MAX_ITERATOR_AGE_MINUTES} minutes behind the table's changes: it is failing, throttled or too slow.`,
        threshold: Duration.minutes(CHANGE_MAX_ITERATOR_AGE_MINUTES).toMilliseconds(),
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      });
    }
    for (const [name, { queue, maxAge }] of Object.entries(props.workQueues)) {
      alarm(`OldestMessage-${name}`, queue.metricApproximateAgeOfOldestMessage({ period: ALARM_PERIOD, statistic: 'Maximum' }), {
        alarmDescription: `The oldest ${name} message waits longer than ${maxAge.toHumanString()}: the worker is failing, throttled or too few.`,
        threshold: maxAge.toSeconds(),
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      });
    }
    // Errors, throttles and runs near the timeout: one alarm of each per group of up to ten functions (an alarm's
    // metric math takes at most ten metrics), so the stack's resources do not grow by three with every function.
    // Each function's key (`Errors-<name>`) names its group's alarm; its metric id there is `f<i>`.
    const functionEntries = Object.entries(props.functions);
    for (let start = 0, group = 1; start < functionEntries.length; start += FUNCTIONS_PER_ALARM, group++) {
      const members = functionEntries.slice(start, start + FUNCTIONS_PER_ALARM);
      const names = members.map(([name]) => name).join(', ');
      const metricsOf = (metricOf: (fn: lambda.IFunction) => cloudwatch.IMetric) =>
        Object.fromEntries(members.map(([, { function: fn }], i) => [`f${i}`, metricOf(fn)]));
      const filled = (map: (id: string, i: number) => string) => members.map((_, i) => map(`FILL(f${i}, 0)`, i)).join(', ');
      const grouped = (metric: string, expression: string, usingMetrics: Record<string, cloudwatch.IMetric>, options: Parameters<typeof alarm>[2]) => {
        const created = alarm(`${metric}-group${group}`, new cloudwatch.MathExpression({ expression, usingMetrics, period: ALARM_PERIOD, label: `${metric}: ${names}` }), options);
        for (const [name] of members) alarms[`${metric}-${name}`] = created;
      };
      grouped('Errors', `SUM([${filled((id) => id)}])`, metricsOf((fn) => fn.metricErrors({ period: ALARM_PERIOD, statistic: 'Sum' })), {
        alarmDescription: `A function failed (an error its handler did not turn into a response): one of ${names}. The dashboard shows which.`,
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      });
      grouped('Throttles', `SUM([${filled((id) => id)}])`, metricsOf((fn) => fn.metricThrottles({ period: ALARM_PERIOD, statistic: 'Sum' })), {
        alarmDescription: `A function was throttled (the account's or its own concurrency limit was reached): one of ${names}.`,
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      });
      grouped(
        'Duration',
        `MAX([${filled((id, i) => `${id} / ${members[i]![1].timeout.toMilliseconds()}`)}])`,
        metricsOf((fn) => fn.metricDuration({ period: ALARM_PERIOD, statistic: 'Maximum' })),
        {
          alarmDescription: `A run came within ${Math.round((1 - DURATION_SHARE_OF_TIMEOUT) * 100)} % of its function's timeout: one of ${names}.`,
          threshold: DURATION_SHARE_OF_TIMEOUT,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        },
      );
    }

    const httpDimensions = { ApiId: props.httpApi.apiId, Stage: props.httpStageName };
    const httpMetric = (metricName: string, statistic: string) =>
      new cloudwatch.Metric({ namespace: 'AWS/ApiGateway', metricName, dimensionsMap: httpDimensions, statistic, period: ALARM_PERIOD });
    const requests = httpMetric('Count', 'Sum');
    const serverErrors = httpMetric('5xx', 'Sum');
    const latency = httpMetric('Latency', 'p95');
    alarm(
      'Http5xxRate',
      new cloudwatch.MathExpression({
        expression: `IF(requests >= ${HTTP_5XX_MIN_REQUESTS}, 100 * errors / requests, 0)`,
        usingMetrics: { requests, errors: serverErrors },
        period: ALARM_PERIOD,
        label: 'HTTP 5xx %',
      }),
      {
        alarmDescription: `More than ${HTTP_5XX_PERCENT} % of HTTP requests answered 5xx in 5 minutes.`,
        threshold: HTTP_5XX_PERCENT,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      },
    );
    alarm('HttpLatency', latency, {
      alarmDescription: `HTTP p95 latency above ${HTTP_P95_LATENCY_MS} ms for 15 minutes.`,
      threshold: HTTP_P95_LATENCY_MS,
      evaluationPeriods: 3,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    });
    const wsDimensions = { ApiId: props.webSocketApi.apiId, Stage: props.webSocketStageName };
    const wsMetric = (metricName: string) =>
      new cloudwatch.Metric({ namespace: 'AWS/ApiGateway', metricName, dimensionsMap: wsDimensions, statistic: 'Sum', period: ALARM_PERIOD });
    alarm('WebSocketIntegrationErrors', wsMetric('IntegrationError'), {
      alarmDescription: 'The realtime function failed to answer a WebSocket connect, message or disconnect.',
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    });

    const domain = props.searchDomain;
    alarm('SearchClusterRed', domain.metricClusterStatusRed({ period: Duration.minutes(1) }), {
      alarmDescription: 'The search cluster is red: a primary shard is unassigned, searches and writes fail.',
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    alarm('SearchClusterYellow', domain.metricClusterStatusYellow({ period: ALARM_PERIOD }), {
      alarmDescription: 'The search cluster is yellow: a replica shard is unassigned (a node or zone is missing).',
      threshold: 1,
      evaluationPeriods: 3,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    alarm('SearchWritesBlocked', domain.metricClusterIndexWritesBlocked({ period: ALARM_PERIOD }), {
      alarmDescription: 'The search cluster blocks writes (storage or memory): the index falls behind the table.',
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    alarm('SearchFreeStorage', domain.metricFreeStorageSpace({ period: ALARM_PERIOD }), {
      alarmDescription: `A search node has less than ${SEARCH_FREE_STORAGE_PERCENT} % of its ${props.searchVolumeGiB} GiB free.`,
      // FreeStorageSpace is in MiB.
      threshold: Math.round((props.searchVolumeGiB * 1024 * SEARCH_FREE_STORAGE_PERCENT) / 100),
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
    });
    alarm('SearchJvmPressure', domain.metricJVMMemoryPressure({ period: ALARM_PERIOD }), {
      alarmDescription: `Search JVM memory pressure above ${SEARCH_JVM_PRESSURE_PERCENT} % for 15 minutes: queries will be refused.`,
      threshold: SEARCH_JVM_PRESSURE_PERCENT,
      evaluationPeriods: 3,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    });
    // The functions' embedded metrics: one dimension, the service, which is the stack (lib/constructs/app-function.ts).
    const business = (metricName: (typeof BUSINESS_METRICS)[number], period = ALARM_PERIOD) =>
      new cloudwatch.Metric({
        namespace: BUSINESS_METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { service: stack.stackName },
        statistic: 'Sum',
        period,
      });
    alarm(
      'OcrFailureRate',
      new cloudwatch.MathExpression({
        expression: `IF(documents >= ${OCR_FAILURE_MIN_DOCUMENTS}, 100 * failures / documents, 0)`,
        usingMetrics: { documents: business('DocumentsIngested', OCR_FAILURE_PERIOD), failures: business('OcrFailures', OCR_FAILURE_PERIOD) },
        period: OCR_FAILURE_PERIOD,
        label: 'OCR failures, % of documents ingested',
      }),
      {
        alarmDescription: `More than ${OCR_FAILURE_PERCENT} % of the documents ingested in an hour failed OCR: check the OCR worker's logs (Textract, its grants and quota).`,
        threshold: OCR_FAILURE_PERCENT,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      },
    );
    const limiterFailures = Object.entries(props.rateLimitedLogGroups ?? {});
    const limiterMetric = rateLimiterFailureMetric(stack.stackName);
    for (const [name, logGroup] of limiterFailures) {
      new logs.MetricFilter(this, `LimiterFailures-${name}`, {
        logGroup,
        metricNamespace: limiterMetric.namespace,
        metricName: limiterMetric.metricName,
        filterPattern: logs.FilterPattern.literal(RATE_LIMITER_FAILURE_LOG),
        metricValue: '1',
      });
    }
    if (limiterFailures.length > 0) {
      alarm('RateLimiterFailures', new cloudwatch.Metric({ ...limiterMetric, statistic: 'Sum', period: ALARM_PERIOD }), {
        alarmDescription: 'The rate limiter failed in each of the last three 5-minute periods and let requests through uncounted: check the table and the functions\' grants.',
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 3,
      });
    }
    this.alarms = alarms;

    const functionMetrics = (pick: (fn: lambda.IFunction) => cloudwatch.IMetric) =>
      Object.entries(props.functions).map(([name, watched]) =>
        (pick(watched.function) as cloudwatch.Metric).with({ label: name, period: ALARM_PERIOD }),
      );
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `${stack.stackName}`,
      defaultInterval: Duration.hours(3),
      widgets: [
        [new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: Object.values(alarms), width: 24, height: 4 })],
        [
          new cloudwatch.GraphWidget({ title: 'HTTP requests and 5xx', left: [requests, serverErrors, httpMetric('4xx', 'Sum')], width: 8 }),
          new cloudwatch.GraphWidget({ title: 'HTTP latency p95 (ms)', left: [latency], width: 8 }),
          new cloudwatch.GraphWidget({
            title: 'WebSocket messages and errors',
            left: [wsMetric('ConnectCount'), wsMetric('MessageCount'), wsMetric('IntegrationError'), wsMetric('ClientError')],
            width: 8,
          }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'Queues: oldest message (s)',
            left: Object.entries(props.workQueues).map(([name, { queue }]) =>
              queue.metricApproximateAgeOfOldestMessage({ label: name, period: ALARM_PERIOD, statistic: 'Maximum' }),
            ),
            width: 12,
          }),
          new cloudwatch.GraphWidget({
            title: 'Dead letters',
            left: [...Object.entries(props.deadLetterQueues), ...changeConsumers.map(([name, { failureQueue }]) => [name, failureQueue] as const)].map(([name, queue]) =>
              queue.metricApproximateNumberOfMessagesVisible({ label: name, period: ALARM_PERIOD, statistic: 'Maximum' }),
            ),
            width: 12,
          }),
        ],
        [
          new cloudwatch.GraphWidget({ title: 'Documents ingested and pages OCRed', left: [business('DocumentsIngested')], right: [business('PagesOcred')], width: 12 }),
          new cloudwatch.GraphWidget({ title: 'OCR failures and Textract throttles', left: [business('OcrFailures'), business('TextractThrottles')], width: 12 }),
        ],
        [
          new cloudwatch.GraphWidget({ title: 'Function errors', left: functionMetrics((fn) => fn.metricErrors({ statistic: 'Sum' })), width: 8 }),
          new cloudwatch.GraphWidget({ title: 'Function throttles', left: functionMetrics((fn) => fn.metricThrottles({ statistic: 'Sum' })), width: 8 }),
          new cloudwatch.GraphWidget({ title: 'Function duration, max (ms)', left: functionMetrics((fn) => fn.metricDuration({ statistic: 'Maximum' })), width: 8 }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'Search cluster health',
            left: [domain.metricClusterStatusRed(), domain.metricClusterStatusYellow(), domain.metricClusterIndexWritesBlocked()],
            width: 8,
          }),
          new cloudwatch.GraphWidget({ title: 'Search free storage, min node (MiB)', left: [domain.metricFreeStorageSpace()], width: 8 }),
          new cloudwatch.GraphWidget({ title: 'Search JVM memory pressure (%)', left: [domain.metricJVMMemoryPressure()], width: 8 }),
        ],
      ],
    });
  }
}
