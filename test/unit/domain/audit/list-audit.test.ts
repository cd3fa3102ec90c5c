import { describe, expect, it } from 'vitest';
import { listAudit } from '../../../../shared/domain/audit/list-audit';
import type { AuditLog } from '../../../../shared/domain/audit/ports';
import { AppError } from '../../../../shared/domain/errors';
import { pageOf } from '../../../../shared/domain/pagination';
import type { Principal } from '../../../../shared/domain/principal';

const caller = (overrides: Partial<Principal> = {}) => ({ userId: 'u', username: 'u', email: 'u@e', role: 'admin', workspaceId: 'own', jti: 'j', tokenExpiresAt: new Date(), ...overrides }) as Principal;
const recording = () => {
  const asked: string[] = [];
  const audit: Pick<AuditLog, 'list'> = { list: async (workspaceId, _query, page) => (asked.push(workspaceId), pageOf([], page, 0)) };
  return { audit, asked };
};

describe('listAudit', () => {
  it("reads the caller's own workspace when none is named", async () => {
    const { audit, asked } = recording();

    await listAudit({ audit }, caller(), {}, { page: 1, perPage: 20 });

    expect(asked).toEqual(['own']);
  });

  it('reads the workspace the operator names', async () => {
    const { audit, asked } = recording();

    await listAudit({ audit }, caller({ operator: true }), { workspaceId: 'other' }, { page: 1, perPage: 20 });

    expect(asked).toEqual(['other']);
  });

  it('refuses an admin who names a workspace, even their own', async () => {
    const { audit } = recording();

    const refused = await listAudit({ audit }, caller(), { workspaceId: 'own' }, { page: 1, perPage: 20 }).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'FORBIDDEN' });
  });
});
