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

type Resource = { Type: string; Properties: Record<string, unknown> };
const ofType = (type: string): [string, Resource][] => Object.entries(resources()).filter(([, resource]) => resource.Type === type);

/** The functions API Gateway may invoke through the HTTP API on any of its routes (`<api id>/*\/*\/*`), by logical id. */
function invokableThroughHttpApi(apiId: string): string[] {
  return ofType('AWS::Lambda::Permission')
    .map(([, resource]) => resource.Properties)
    .filter((properties) => {
      const arn = JSON.stringify(properties['SourceArn']);
      return arn.includes(`{"Ref":"${apiId}"}`) && arn.endsWith('"/*/*/*"]]}');
    })
    .map((properties) => (properties['FunctionName'] as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0]);
}

/** The function a route's integration invokes, by logical id. */
function functionOfRoute(route: { Target?: unknown }): string | undefined {
  const integrationId = (JSON.stringify(route.Target).match(/"Ref":"([^"]+)"/) ?? [])[1];
  const integration = integrationId ? resources()[integrationId] : undefined;
  return (integration?.Properties['IntegrationUri'] as { 'Fn::GetAtt'?: [string, string] } | undefined)?.['Fn::GetAtt']?.[0];
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

  it('lets API Gateway invoke the function of every route, v1 and v2, through the HTTP API', () => {
    // Arrange
    const apiId = logicalIdOf(stacks.api.httpApi);
    const routes = routesOf(apiId);
    const invokable = new Set(invokableThroughHttpApi(apiId));

    // Act
    const missing = [...V1_ROUTES, ...V1_ROUTES.map((key) => v2RouteKey(key))].filter((key) => {
      const fn = functionOfRoute(routes.get(key) ?? {});
      return !fn || !invokable.has(fn);
    });

    // Assert
    expect(missing).toEqual([]);
  });

  it('grants each group function one invoke permission for the HTTP API, not one per route', () => {
    // Arrange
    const apiId = logicalIdOf(stacks.api.httpApi);

    // Act
    const permissions = invokableThroughHttpApi(apiId);

    // Assert
    expect(permissions).toHaveLength(Object.keys(HTTP_ROUTES).length);
    expect(new Set(permissions).size).toBe(permissions.length);
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

    // Assert: each route is one resource (its invoke permission is its function's, one per function), so the
    // stack keeps room for new route groups.
    expect(count).toBeLessThan(450);
  });
});
