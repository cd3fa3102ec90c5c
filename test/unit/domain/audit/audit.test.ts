import { describe, expect, it } from 'vitest';
import { matchesAudit, SYSTEM_ACTOR, type AuditEntry } from '../../../../shared/domain/audit/audit';

const anEntry = (overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id: 'e1',
  workspace_id: 'w1',
  at: '2026-11-29T10:00:00.000Z',
  action: 'document.deleted',
  actor: { ...SYSTEM_ACTOR, user_id: 'alice' },
  target: { type: 'document', id: 'd1', name: 'invoice.pdf' },
  ...overrides,
});

describe('matchesAudit', () => {
  it('matches every entry with no filter', () => {
    // Arrange
    const entry = anEntry();

    // Act
    const matched = matchesAudit(entry, {});

    // Assert
    expect(matched).toBe(true);
  });

  it('matches an action by its full name or by its target type alone', () => {
    // Arrange
    const entry = anEntry({ action: 'document.deleted' });

    // Act
    const matched = [matchesAudit(entry, { action: 'document.deleted' }), matchesAudit(entry, { action: 'document' })];

    // Assert
    expect(matched).toEqual([true, true]);
  });

  it('does not take a prefix of a type name for the type', () => {
    // Arrange
    const entry = anEntry({ action: 'document.deleted' });

    // Act
    const matched = [matchesAudit(entry, { action: 'doc' }), matchesAudit(entry, { action: 'document.created' })];

    // Assert
    expect(matched).toEqual([false, false]);
  });

  it("matches the acting user, never a change the service made itself", () => {
    // Arrange
    const [byAlice, bySystem] = [anEntry(), anEntry({ actor: SYSTEM_ACTOR })];

    // Act
    const matched = [matchesAudit(byAlice, { actor: 'alice' }), matchesAudit(bySystem, { actor: 'alice' })];

    // Assert
    expect(matched).toEqual([true, false]);
  });

  it('matches the target by id, and needs every filter given to hold', () => {
    // Arrange
    const entry = anEntry();

    // Act
    const matched = [matchesAudit(entry, { target: 'd1', actor: 'alice' }), matchesAudit(entry, { target: 'd1', actor: 'bob' }), matchesAudit(entry, { target: 'd2' })];

    // Assert
    expect(matched).toEqual([true, false, false]);
  });
});
