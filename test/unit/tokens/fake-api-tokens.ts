import type { ApiTokenRecord, ApiTokenRepository } from '../../../shared/domain/tokens/ports';

/** API tokens in memory, as the DynamoDB repository keeps them (its own contract: test/integration/api-token-repository.test.ts). */
export class MemoryApiTokens implements ApiTokenRepository {
  readonly byHash = new Map<string, ApiTokenRecord>();
  touches = 0;

  async create(token: ApiTokenRecord, limit: number): Promise<'created' | 'limit'> {
    if ([...this.byHash.values()].filter((t) => t.user_id === token.user_id).length >= limit) return 'limit';
    this.byHash.set(token.hash, { ...token });
    return 'created';
  }

  async findByHash(hash: string) {
    const token = this.byHash.get(hash);
    return token ? { ...token } : null;
  }

  async listForUser(workspaceId: string, userId: string) {
    return [...this.byHash.values()].filter((t) => t.workspace_id === workspaceId && t.user_id === userId);
  }

  async listForWorkspace(workspaceId: string) {
    return [...this.byHash.values()].filter((t) => t.workspace_id === workspaceId);
  }

  async findById(workspaceId: string, id: string, userId?: string) {
    return (
      [...this.byHash.values()].find((t) => t.workspace_id === workspaceId && t.id === id && (userId === undefined || t.user_id === userId)) ?? null
    );
  }

  async delete(token: ApiTokenRecord) {
    return this.byHash.delete(token.hash);
  }

  async touch(hash: string, now: string, notBefore: string) {
    const token = this.byHash.get(hash);
    if (!token || (token.last_used_at !== null && token.last_used_at >= notBefore)) return;
    this.touches += 1;
    token.last_used_at = now;
  }
}
