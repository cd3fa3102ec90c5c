/**
 * Plans: what a workspace may hold and use, as the operator configures them (PLANS and DEFAULT_PLAN locally, CDK
 * context `plans` and `defaultPlan` in the cloud). This module imports nothing, so that lib/ may check the
 * context at synth with the same parser the runtime uses at start.
 */

/** The limits a plan sets, as `GET /api/workspace` names them. */
export const QUOTAS = ['documents_stored', 'bytes_stored', 'ocr_pages_per_month', 'sources', 'members', 'api_tokens'] as const;
export type QuotaName = (typeof QUOTAS)[number];

/** A limit: a whole number of at least 0, or no limit. */
export type Limit = number | 'unlimited';

export type Plan = Readonly<Record<QuotaName, Limit>>;

/** Every plan by name, and the one a workspace without its own gets. */
export interface PlanCatalog {
  plans: Readonly<Record<string, Plan>>;
  defaultPlan: string;
}

export const UNLIMITED_PLAN: Plan = Object.fromEntries(QUOTAS.map((quota) => [quota, 'unlimited'])) as Record<QuotaName, Limit>;

/** Without configuration: one plan, `default`, with no limit. */
export const UNLIMITED_CATALOG: PlanCatalog = { plans: { default: UNLIMITED_PLAN }, defaultPlan: 'default' };

const PLAN_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/u;

/** Whether `used + adding` stays within `limit`. */
export const withinLimit = (limit: Limit, used: number, adding: number): boolean => limit === 'unlimited' || used + adding <= limit;

/**
 * Parses the plans (JSON: `{"<name>": {"documents_stored": 1000, "bytes_stored": "unlimited", ...}}`, every quota
 * named; `unlimited` is a value) and the default plan's name. Throws an Error whose message is one line naming the
 * problem's place (`free.members: ...`); the caller prefixes the variable or context key.
 */
export function parsePlans(json: string | undefined, defaultPlan: string | undefined): PlanCatalog {
  if (json === undefined || json.trim() === '') {
    if (defaultPlan !== undefined && defaultPlan !== 'default') throw new Error(`default plan "${defaultPlan}" is not a plan (no plans are configured)`);
    return UNLIMITED_CATALOG;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new Error('is not JSON');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('must be a JSON object of plans by name');
  const entries = Object.entries(raw as Record<string, unknown>);
  if (!entries.length) throw new Error('must name at least one plan');
  const plans: Record<string, Plan> = {};
  for (const [name, value] of entries) {
    if (!PLAN_NAME.test(name)) throw new Error(`"${name}": a plan's name is lower-case letters, digits, - and _ (at most 64)`);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${name}: must be an object of limits`);
    const limits = value as Record<string, unknown>;
    const unknown = Object.keys(limits).find((key) => !(QUOTAS as readonly string[]).includes(key));
    if (unknown) throw new Error(`${name}.${unknown}: is not a quota (${QUOTAS.join(', ')})`);
    const plan: Partial<Record<QuotaName, Limit>> = {};
    for (const quota of QUOTAS) {
      const limit = limits[quota];
      if (limit === 'unlimited') plan[quota] = limit;
      else if (typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 0) plan[quota] = limit;
      else throw new Error(`${name}.${quota}: must be a whole number of at least 0 or "unlimited", got ${JSON.stringify(limit)}`);
    }
    plans[name] = plan as Plan;
  }
  const chosen = defaultPlan ?? entries[0]![0];
  if (!(chosen in plans)) throw new Error(`default plan "${chosen}" is not one of the plans (${Object.keys(plans).join(', ')})`);
  return { plans, defaultPlan: chosen };
}

/** The plan of a workspace; one whose plan was removed from the configuration is held to the default plan. */
export const planOf = (catalog: PlanCatalog, name: string): Plan => catalog.plans[name] ?? catalog.plans[catalog.defaultPlan]!;
