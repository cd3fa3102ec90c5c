import type { Principal } from '../principal';
import type { Label } from './label';
import type { LabelDeps } from './ports';

/** Creates a label with no documents yet; a name another label has (in any case) is refused. */
export async function createLabel(
  deps: LabelDeps,
  caller: Principal,
  input: { name: string; color: string; description?: string | null | undefined },
): Promise<Label> {
  const now = deps.clock.now().toISOString();
  const label: Label = {
    id: crypto.randomUUID(),
    name: input.name,
    color: input.color.toLowerCase(),
    description: input.description ?? null,
    document_count: 0,
    created_by: caller.username,
    created_at: now,
    updated_at: now,
  };
  await deps.labels.create(label);
  return label;
}
