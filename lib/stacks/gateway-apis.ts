import { type RemovalPolicy, type Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration, WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import { HTTP_ROUTES, v2RouteKey, WS_ROUTES, type HttpGroup } from '../../shared/manifest';
import type { AppFunction } from '../constructs/app-function';
import { HTTP_ROUTE_THROTTLES, HTTP_STAGE_THROTTLE, WEBSOCKET_STAGE_THROTTLE } from './limits';

/** Name of the WebSocket API stage; part of the `@connections` callback URL. */
export const WEBSOCKET_STAGE_NAME = 'prod';

/**
 * The HTTP API: every route of the manifest, v1 (`/api/...`) and its v2 twin (`/api/v2/...`), on its group's
 * function, anything else on the fallback, and the `$default` stage with the throttles of limits.ts and a JSON
 * access log. Made in the stack's own scope, so its resources keep the stack's logical ids.
 */
export function createHttpApi(
  stack: Stack,
  props: { functions: Readonly<Record<HttpGroup, AppFunction>>; fallback: AppFunction; logRemovalPolicy: RemovalPolicy },
): { httpApi: apigwv2.HttpApi; httpStage: apigwv2.HttpStage } {
  const httpApi = new apigwv2.HttpApi(stack, 'HttpApi', {
    apiName: `${stack.stackName}-http`,
    defaultIntegration: new HttpLambdaIntegration('FallbackIntegration', props.fallback.function),
    // The stage is made below, with throttles and access logs.
    createDefaultStage: false,
  });
  const httpRoutes: apigwv2.HttpRoute[] = [];
  for (const group of Object.keys(HTTP_ROUTES) as HttpGroup[]) {
    // One invoke permission per function, for this API only (`<api id>/*/*/*`), rather than one per route: a
    // function is integrated with its own group's routes alone, and a permission per route (100 of them, v1 and
    // v2) would spend a fifth of CloudFormation's 500 resources per stack.
    const integration = new HttpLambdaIntegration(`${pascalCase(group)}Integration`, props.functions[group].function, {
      scopePermissionToRoute: false,
    });
    for (const routeKey of HTTP_ROUTES[group]) {
      const { method, path } = parseRouteKey(routeKey);
      httpRoutes.push(...httpApi.addRoutes({ path, methods: [method], integration }));
    }
  }
  const httpStage = new apigwv2.HttpStage(stack, 'HttpStage', {
    httpApi,
    stageName: '$default',
    autoDeploy: true,
    throttle: HTTP_STAGE_THROTTLE,
    accessLogSettings: {
      destination: new apigwv2.LogGroupLogDestination(accessLogGroup(stack, 'HttpAccessLogs', props.logRemovalPolicy)),
      format: apigateway.AccessLogFormat.custom(
        JSON.stringify({
          requestId: '$context.requestId',
          ip: '$context.identity.sourceIp',
          requestTime: '$context.requestTime',
          routeKey: '$context.routeKey',
          status: '$context.status',
          responseLength: '$context.responseLength',
          responseLatency: '$context.responseLatency',
          integrationLatency: '$context.integrationLatency',
          integrationError: '$context.integrationErrorMessage',
          userAgent: '$context.identity.userAgent',
        }),
      ),
    },
  });
  // RouteSettings is a free-form map in CloudFormation's schema: CDK passes its keys through as written.
  const httpStageResource = httpStage.node.defaultChild as apigwv2.CfnStage;
  // A v2 route costs what its v1 twin costs, so it gets the same throttle.
  httpStageResource.routeSettings = Object.fromEntries(
    Object.entries(HTTP_ROUTE_THROTTLES).flatMap(([routeKey, limit]) =>
      [routeKey, v2RouteKey(routeKey)].map((key) => [key, { ThrottlingRateLimit: limit.rateLimit, ThrottlingBurstLimit: limit.burstLimit }]),
    ),
  );
  // Route settings name route keys, which must exist before the stage is created.
  for (const route of httpRoutes) httpStage.node.addDependency(route);
  return { httpApi, httpStage };
}

/**
 * The WebSocket API: every route on the `realtime` function (`$default` answers each client message through
 * the route response), and its stage with throttles and an access log, which WebSocket APIs write with the
 * account's API Gateway CloudWatch role (HTTP APIs need none). Made in the stack's own scope.
 */
export function createWebSocketApi(
  stack: Stack,
  props: { realtime: AppFunction; logRemovalPolicy: RemovalPolicy },
): { webSocketApi: apigwv2.WebSocketApi; webSocketStage: apigwv2.WebSocketStage } {
  const realtimeIntegration = new WebSocketLambdaIntegration('RealtimeIntegration', props.realtime.function);
  const webSocketApi = new apigwv2.WebSocketApi(stack, 'WebSocketApi', {
    apiName: `${stack.stackName}-ws`,
  });
  for (const routeKey of WS_ROUTES) {
    webSocketApi.addRoute(routeKey, { integration: realtimeIntegration, returnResponse: routeKey === '$default' });
  }
  const apiGatewayLogsRole = new iam.Role(stack, 'ApiGatewayCloudWatchRole', {
    assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com'),
    managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs')],
  });
  const apiGatewayAccount = new apigateway.CfnAccount(stack, 'ApiGatewayAccount', { cloudWatchRoleArn: apiGatewayLogsRole.roleArn });
  const webSocketStage = new apigwv2.WebSocketStage(stack, 'WebSocketStage', {
    webSocketApi,
    stageName: WEBSOCKET_STAGE_NAME,
    autoDeploy: true,
    throttle: WEBSOCKET_STAGE_THROTTLE,
    accessLogSettings: {
      destination: new apigwv2.LogGroupLogDestination(accessLogGroup(stack, 'WebSocketAccessLogs', props.logRemovalPolicy)),
      format: apigateway.AccessLogFormat.custom(
        JSON.stringify({
          requestId: '$context.requestId',
          ip: '$context.identity.sourceIp',
          requestTime: '$context.requestTime',
          eventType: '$context.eventType',
          routeKey: '$context.routeKey',
          connectionId: '$context.connectionId',
          status: '$context.status',
          integrationLatency: '$context.integrationLatency',
          integrationError: '$context.integrationErrorMessage',
        }),
      ),
    },
  });
  webSocketStage.node.addDependency(apiGatewayAccount);
  return { webSocketApi, webSocketStage };
}

function accessLogGroup(stack: Stack, id: string, removalPolicy: RemovalPolicy): logs.LogGroup {
  return new logs.LogGroup(stack, id, { retention: logs.RetentionDays.ONE_MONTH, removalPolicy });
}

/** Splits a route key such as `GET /api/users` into the pieces `HttpApi.addRoutes` takes. */
function parseRouteKey(routeKey: string): { method: apigwv2.HttpMethod; path: string } {
  const [method, path, ...rest] = routeKey.split(' ');
  const httpMethod = Object.values(apigwv2.HttpMethod).find((m) => m === method);
  if (!httpMethod || !path?.startsWith('/') || rest.length > 0) {
    throw new Error(`Invalid route key "${routeKey}": expected "METHOD /path"`);
  }
  return { method: httpMethod, path };
}

/** `ocr-worker` -> `Ocr-worker`: the construct ids of the functions and their integrations. */
export function pascalCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
