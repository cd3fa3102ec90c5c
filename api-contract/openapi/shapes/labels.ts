import * as z from '../../../shared/zod';
import { id, shape, timestamp } from './registry';

export const Label = shape(
  'Label',
  'A named colour that documents carry.',
  z.strictObject({
    id: id(),
    name: z.string(),
    color: z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/)),
    description: z.nullable(z.string()),
    document_count: z.int().check(z.gte(0)),
    created_by: z.string(),
    created_at: timestamp(),
    updated_at: timestamp(),
  }),
);

export const LabelList = shape('LabelList', "The workspace's labels.", z.strictObject({ labels: z.array(Label) }));

export const LabelAssignment = shape(
  'LabelAssignment',
  'What assigning a label did to each document named.',
  z.strictObject({ assigned: z.array(id()), already_assigned: z.array(id()), not_found: z.array(id()) }),
);
