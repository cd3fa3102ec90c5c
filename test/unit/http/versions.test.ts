import { describe, expect, it } from 'vitest';
import * as z from '../../../shared/zod';
import { DEPRECATIONS, HTTP_ROUTES, v1RouteKey, type DeprecationTable, type HttpGroup } from '../../../shared/manifest';
import type { Principal } from '../../../shared/domain/principal';
import { unauthorized } from '../../../shared/domain/errors';
import { httpHandler } from '../../../shared/http/pipeline';
import { json } from '../../../shared/http/responses';
import { route } from '../../../shared/http/route';
import { deprecationHeaders, deprecationProblems } from '../../../shared/http/versions';
import { httpEvent, lambdaTestContext } from '../../support/http-events';

const SERVED = (Object.keys(HTTP_ROUTES) as HttpGroup[]).flatMap((group) => [...HTTP_ROUTES[group]] as string[]);
const V1 = SERVED.filter((key) => !key.includes(' /api/v2/'));

const viewer = {
  userId: 'u-1',
  username: 'vera',
  email: 'vera@example.com',
  role: 'viewer',
  jti: 'j-1',
  tokenExpiresAt: new Date(Date.now() + 60_000),
} as Principal;

/** A table as a later release might have it: one v1 route retired in favour of its v2 twin, one renamed. */
const TABLE: DeprecationTable = {
  'GET /api/documents/{id}': { since: '2026-11-23', sunset: '2027-06-01' },
  'GET /api/v2/ocr/queue': { since: '2026-11-23', sunset: '2027-06-01', successor: 'GET /api/v2/ocr/queue/status' },
  'GET /api/v2/health': { since: '2026-11-23', sunset: '2027-06-01' },
};

const handlerWith = (deprecations?: DeprecationTable) =>
  httpHandler({
    corsOrigins: '*',
    deprecations,
    authenticate: async (token) => {
      if (token === 'viewer-token') return viewer;
      throw unauthorized('The token is not valid');
    },
    routes: [
      route({
        key: 'GET /api/documents/{id}',
        access: 'viewer',
        params: z.strictObject({ id: z.string() }),
        handle: async ({ params, event }) => json(200, { id: params.id, served: event.routeKey }),
      }),
    ],
  });

const call = async (routeKey: string, options: { path: string; token?: string; deprecations?: DeprecationTable }) => {
  const event = {
    ...httpEvent(routeKey, { path: options.path, headers: options.token ? { authorization: `Bearer ${options.token}` } : {} }),
    pathParameters: { id: options.path.split('/').at(-1)! },
  };
  const response = await handlerWith(options.deprecations)(event, lambdaTestContext);
  return { response, body: response.body ? JSON.parse(response.body) : undefined };
};

describe('versions in the manifest', () => {
  it('serves every v1 route under /api/v2/ too, from the same group', () => {
    for (const group of Object.keys(HTTP_ROUTES) as HttpGroup[]) {
      const keys = [...HTTP_ROUTES[group]] as string[];
      const v1 = keys.filter((key) => !key.includes(' /api/v2/'));
      const v2 = keys.filter((key) => key.includes(' /api/v2/'));

      expect(v2.map(v1RouteKey).sort()).toEqual([...v1].sort());
    }
  });

  it('lists each route key once', () => {
    expect(new Set(SERVED).size).toBe(SERVED.length);
    expect(SERVED.length).toBe(2 * V1.length);
  });

  it('maps a v2 key to its v1 twin and leaves other keys as they are', () => {
    expect(v1RouteKey('PUT /api/v2/documents/{id}')).toBe('PUT /api/documents/{id}');
    expect(v1RouteKey('PUT /api/documents/{id}')).toBe('PUT /api/documents/{id}');
    expect(v1RouteKey('$default')).toBe('$default');
  });

  it('ships a deprecation table that keeps the policy', () => {
    expect(deprecationProblems(DEPRECATIONS, SERVED)).toEqual([]);
  });
});

describe('deprecation policy check', () => {
  it('accepts a table whose routes, days and successors hold', () => {
    expect(deprecationProblems(TABLE, SERVED)).toEqual([]);
  });

  it('refuses less than 180 days of notice', () => {
    const problems = deprecationProblems({ 'GET /api/labels': { since: '2026-11-23', sunset: '2027-05-21' } }, SERVED);

    expect(problems).toEqual(['GET /api/labels: the sunset must be at least 180 days after 2026-11-23']);
  });

  it('refuses a route or successor that is not served, and a successor needing a parameter the route lacks', () => {
    const problems = deprecationProblems(
      {
        'GET /api/nothing': { since: '2026-11-23', sunset: '2027-06-01', successor: 'GET /api/v2/labels' },
        'GET /api/labels': { since: '2026-11-23', sunset: '2027-06-01', successor: 'GET /api/v2/documents/{id}' },
      } as DeprecationTable,
      SERVED,
    );

    expect(problems).toEqual([
      'GET /api/nothing is not a served route',
      'GET /api/labels: its successor GET /api/v2/documents/{id} needs id',
    ]);
  });

  it('refuses a successor that is deprecated itself, and days that are not YYYY-MM-DD', () => {
    const problems = deprecationProblems(
      {
        'GET /api/labels': { since: '2026-11-23', sunset: '2027-06-01' },
        'GET /api/v2/labels': { since: '23.11.2026', sunset: '2027-06-01' },
      },
      SERVED,
    );

    expect(problems).toEqual([
      'GET /api/labels: its successor GET /api/v2/labels is deprecated too',
      'GET /api/v2/labels: since and sunset must be YYYY-MM-DD days',
    ]);
  });
});

describe('deprecation headers', () => {
  it('give a deprecated v1 route the sunset as HTTP dates and a link to its v2 twin with the path filled in', () => {
    const headers = deprecationHeaders('GET /api/documents/{id}', { id: 'a b' }, TABLE);

    expect(headers).toEqual({
      deprecation: 'Tue, 01 Jun 2027 00:00:00 GMT',
      sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
      link: '</api/v2/documents/a%20b>; rel="successor-version"',
    });
  });

  it('link a route to the successor its entry names', () => {
    expect(deprecationHeaders('GET /api/v2/ocr/queue', {}, TABLE).link).toBe('</api/v2/ocr/queue/status>; rel="successor-version"');
  });

  it('leave out the link for a v2 route without a successor', () => {
    const headers = deprecationHeaders('GET /api/v2/health', {}, TABLE);

    expect(headers).toEqual({ deprecation: 'Tue, 01 Jun 2027 00:00:00 GMT', sunset: 'Tue, 01 Jun 2027 00:00:00 GMT' });
  });

  it('are absent on a route that is not deprecated', () => {
    expect(deprecationHeaders('GET /api/v2/documents/{id}', { id: 'x' }, TABLE)).toEqual({});
  });
});

describe('pipeline with versions', () => {
  it('dispatches a v2 route key to the v1 route and answers as v1 does', async () => {
    const v1 = await call('GET /api/documents/{id}', { path: '/api/documents/d-1', token: 'viewer-token' });
    const v2 = await call('GET /api/v2/documents/{id}', { path: '/api/v2/documents/d-1', token: 'viewer-token' });

    expect(v2.response.statusCode).toBe(200);
    expect(v2.body.id).toBe(v1.body.id);
    expect(v2.body.served).toBe('GET /api/v2/documents/{id}');
  });

  it('adds the deprecation headers of the table it is given to a deprecated route', async () => {
    const { response } = await call('GET /api/documents/{id}', { path: '/api/documents/d-1', token: 'viewer-token', deprecations: TABLE });

    expect(response.headers).toMatchObject({
      deprecation: 'Tue, 01 Jun 2027 00:00:00 GMT',
      sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
      link: '</api/v2/documents/d-1>; rel="successor-version"',
    });
  });

  it('adds them to an error answer of a deprecated route too', async () => {
    const { response } = await call('GET /api/documents/{id}', { path: '/api/documents/d-1', deprecations: TABLE });

    expect(response.statusCode).toBe(401);
    expect(response.headers.deprecation).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
  });

  it('leaves the twin of a deprecated route without them', async () => {
    const { response } = await call('GET /api/v2/documents/{id}', { path: '/api/v2/documents/d-1', token: 'viewer-token', deprecations: TABLE });

    expect(response.statusCode).toBe(200);
    expect(response.headers).not.toHaveProperty('deprecation');
    expect(response.headers).not.toHaveProperty('sunset');
    expect(response.headers).not.toHaveProperty('link');
  });
});
