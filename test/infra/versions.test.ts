import { describe, expect, it } from 'vitest';
import { HTTP_ROUTES, v2RouteKey, WS_ROUTES, type HttpGroup } from '../../shared/manifest';
import { HTTP_ROUTE_THROTTLES } from '../../lib/stacks/limits';
import { buildStacks, logicalIdOf } from './build-stacks';

const stacks = buildStacks();
const V1_ROUTES = (Object.keys(HTTP_ROUTES) as HttpGroup[]).flatMap((group) =>
  (HTTP_ROUTES[group] as readonly string[]).filter((key) => !key.includes(' /api/v2/')),
);

const resources = () => stacks.apiTemplate.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, unknown> }>;

/** The routes of one API, by route key. */
function routesOf(apiId: string): Map<string, { Target?: unknown }> {
  return new Map(
    Object.values(resources())
      .filter((resource) => resource.Type === 'AWS::ApiGatewayV2::Route' && (resource.Properties.ApiId as { Ref: string }).Ref === apiId)
      .map((resource) => [resource.Properties.RouteKey as string, resource.Properties]),
  );
}

/** The resource path of each Lambda permission API Gateway holds on the HTTP API (`/api/...` after `/*\/*`). */
function invokablePaths(): string[] {
  return Object.values(resources())
    .filter((resource) => resource.Type === 'AWS::Lambda::Permission')
    .map((resource) => JSON.stringify(resource.Properties.SourceArn))
    .map((arn) => /"\/\*\/\*([^"]*)"/.exec(arn)?.[1] ?? '');
}

describe('API versions in the Api stack', () => {
  it('has a v2 route for each v1 route, on the same integration', () => {
    // Arrange
    const routes = routesOf(logicalIdOf(stacks.api.httpApi));

    // Act
    const pairs = V1_ROUTES.map((key) => [routes.get(key)?.Target, routes.get(v2RouteKey(key))?.Target]);

    // Assert
    expect(V1_ROUTES.length).toBeGreaterThan(30);
    for (const [v1, v2] of pairs) {
      expect(v1).toBeDefined();
      expect(v2).toEqual(v1);
    }
  });

  it('lets API Gateway invoke each function for the v2 path of its routes', () => {
    // Arrange
    const paths = new Set(invokablePaths());

    // Act
    const missing = V1_ROUTES.map((key) => v2RouteKey(key).split(' ')[1]!).filter((path) => !paths.has(path));

    // Assert
    expect(missing).toEqual([]);
  });

  it.each(Object.entries(HTTP_ROUTE_THROTTLES))('throttles the v2 twin of %s as tight as the route itself', (routeKey, limit) => {
    // Arrange
    const stage = resources()[logicalIdOf(stacks.api.httpStage)]!.Properties as { RouteSettings: Record<string, unknown> };

    // Act
    const settings = stage.RouteSettings[v2RouteKey(routeKey)];

    // Assert
    expect(settings).toEqual({ ThrottlingRateLimit: limit.rateLimit, ThrottlingBurstLimit: limit.burstLimit });
  });

  it('leaves the WebSocket API with its own routes only', () => {
    // Arrange
    const apiId = logicalIdOf(stacks.api.webSocketApi);

    // Act
    const routeKeys = [...routesOf(apiId).keys()];

    // Assert
    expect(routeKeys.sort()).toEqual([...WS_ROUTES].sort());
  });

  it('stays well inside CloudFormation\'s 500 resources per stack with both versions', () => {
    // Act
    const count = Object.keys(resources()).length;

    // Assert: 454 since the edge serves the API contract and Swagger UI from S3 (10 resources: bucket and
    // policy, origin access control, deployment with its handler, role, policy and CLI layer, function, headers).
    expect(count).toBeLessThan(460);
  });
});
