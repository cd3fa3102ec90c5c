import { describe, expect, it } from 'vitest';
import { HTTP_ROUTES, type HttpGroup } from '../../../shared/manifest';
import type { HttpHandler } from '../../../shared/http/pipeline';
import { RouteTable } from '../../../shared/local/route-table';
import { httpEvent, lambdaTestContext } from '../../support/http-events';
import { probeHandlers } from '../../support/probe-handlers';

const handler = (async () => ({ statusCode: 200, headers: {} })) as HttpHandler;

describe('RouteTable', () => {
  it('matches method and path to the route key', () => {
    const table = new RouteTable([{ routeKey: 'GET /api/settings', handler }, { routeKey: 'PUT /api/settings', handler }]);

    expect(table.match('PUT', '/api/settings')?.routeKey).toBe('PUT /api/settings');
    expect(table.match('DELETE', '/api/settings')).toBeNull();
    expect(table.match('GET', '/api/settings/extra')).toBeNull();
  });

  it('extracts and decodes path parameters', () => {
    const table = new RouteTable([{ routeKey: 'GET /api/documents/{id}/thumbnail', handler }]);

    expect(table.match('GET', '/api/documents/a%20b/thumbnail')?.pathParameters).toEqual({ id: 'a b' });
  });

  it('passes a parameter with a bad percent escape on as it came, for the route schema to refuse', () => {
    const table = new RouteTable([{ routeKey: 'GET /api/documents/{id}/thumbnail', handler }]);

    expect(table.match('GET', '/api/documents/%zz/thumbnail')?.pathParameters).toEqual({ id: '%zz' });
    expect(table.match('GET', '/api/documents/%E2%82/thumbnail')?.pathParameters).toEqual({ id: '%E2%82' });
  });

  it('prefers a literal segment over a parameter, whatever the declaration order', () => {
    const table = new RouteTable([{ routeKey: 'GET /api/users/{id}', handler }, { routeKey: 'GET /api/users/profile', handler }]);

    expect(table.match('GET', '/api/users/profile')?.routeKey).toBe('GET /api/users/profile');
    expect(table.match('GET', '/api/users/42')?.routeKey).toBe('GET /api/users/{id}');
  });

  it('serves every route key of the manifest exactly once', () => {
    const keys = (Object.keys(HTTP_ROUTES) as HttpGroup[]).flatMap((group) => [...HTTP_ROUTES[group]]);
    const table = new RouteTable(keys.map((routeKey) => ({ routeKey, handler })));

    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) {
      const [method, path] = key.split(' ') as [string, string];
      expect(table.match(method, path)?.routeKey).toBe(key);
    }
  });

  it('needs a token on exactly the routes whose handlers authenticate the caller', async () => {
    // Arrange: the handlers over a container whose token check refuses every token and records that it ran.
    const probe = probeHandlers();
    const { handlers } = probe;
    const keys = (Object.keys(HTTP_ROUTES) as HttpGroup[]).flatMap((group) => HTTP_ROUTES[group].map((key) => ({ group, key })));
    const table = new RouteTable(keys.map(({ group, key }) => ({ routeKey: key, handler: handlers[group] })));

    // Act
    const disagreements: string[] = [];
    for (const { group, key } of keys) {
      probe.reset();
      await handlers[group](httpEvent(key, { headers: { authorization: 'Bearer probe' } }), lambdaTestContext);
      const [method, path] = key.split(' ') as [string, string];
      const gatewaySays = table.match(method, path.replace(/\{\w+\}/g, 'x'))?.authenticated;
      if (gatewaySays !== probe.authenticated()) disagreements.push(`${key}: handler ${probe.authenticated()}, gateway ${gatewaySays}`);
    }

    // Assert
    expect(disagreements).toEqual([]);
  });

  it('takes the word of a binding that says whether its route needs a token', () => {
    const table = new RouteTable([{ routeKey: 'POST /api/auth/login', handler, authenticated: true }]);

    expect(table.match('POST', '/api/auth/login')?.authenticated).toBe(true);
  });
});
