import { AppError } from '../../shared/domain/errors';
import { checkHealth } from '../../shared/domain/health/check-health';
import type { HealthProbe } from '../../shared/domain/health/ports';
import type { CorsOrigins } from '../../shared/http/cors';
import { httpHandler } from '../../shared/http/pipeline';
import { json } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { logger } from '../../shared/observability/logger';
import { version } from '../../package.json';
import { routes } from './schemas';

/** GET /api/health, public: 200 when every dependency answers, 503 naming the ones that do not. */
export const createHealthHandler = (deps: { healthProbes: HealthProbe[]; corsOrigins: CorsOrigins }) =>
  httpHandler({
    corsOrigins: deps.corsOrigins,
    routes: [
      route({
        ...routes.getHealth,
        handle: async () => {
          const report = await checkHealth(deps.healthProbes, {
            onSlow: (check) => logger.warn('slow health check', { ...check }),
          });
          if (report.status !== 'ok') {
            throw new AppError('SERVICE_UNAVAILABLE', 'Some dependencies are not available', {
              components: report.components,
            });
          }
          return json(200, { ...report, version, timestamp: new Date().toISOString() }, { 'cache-control': 'no-store' });
        },
      }),
    ],
  });
