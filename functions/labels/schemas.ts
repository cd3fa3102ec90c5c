import * as z from 'zod';

export const labelIdParams = z.strictObject({ id: z.uuid('must be a label id (UUID)') });

const name = z.string().trim().min(1, 'must not be empty').max(100);
const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour of the form #RRGGBB');
const description = z.string().trim().max(1000).nullable();

export const createLabelBody = z.strictObject({ name, color, description: description.optional() });

export const updateLabelBody = z
  .strictObject({ name, color, description })
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'give at least one of name, color, description' });

export const assignLabelBody = z.strictObject({
  document_ids: z.array(z.uuid('must be a document id (UUID)')).min(1).max(100),
});
