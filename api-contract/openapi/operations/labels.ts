import type { routes } from '../../../functions/labels/schemas';
import type { GroupDocs } from '../operation-docs';
import { Label, LabelAssignment, LabelList } from '../shapes/labels';

const label = {
  id: '6f1c2b1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b',
  name: 'Invoices',
  color: '#1e88e5',
  description: 'Bills to pay',
  document_count: 12,
  created_by: '0b7e3c52-9d1a-4f6e-8c2b-5a4d3e2f1a0b',
  created_at: '2026-11-02T09:30:00.000Z',
  updated_at: '2026-11-02T09:30:00.000Z',
};

export const labelsDocs: GroupDocs<typeof routes> = {
  listLabels: {
    summary: "List the workspace's labels",
    description: "Every label of the caller's workspace, ordered by name, with how many documents carry each (`document_count`, exact: it moves in the same write as each assignment). Not paginated.",
    responses: { 200: { description: 'The labels.', schema: LabelList, example: { labels: [label] } } },
  },
  createLabel: {
    summary: 'Create a label',
    description: 'Names are unique in a workspace, compared without regard to case (a name another label has in any case is 409). The colour is `#RRGGBB` and is stored in lower case; `description` is optional.',
    requestExample: { name: 'Invoices', color: '#1e88e5', description: 'Bills to pay' },
    responses: { 201: { description: 'The label created.', schema: Label, example: { ...label, document_count: 0 } } },
    errors: [{ code: 'DUPLICATE_RESOURCE', when: 'a label of the workspace already has this name' }],
  },
  updateLabel: {
    summary: 'Change a label',
    description: 'Give at least one of name, color, description; `description: null` clears it. After a rename, searches and filtered listings find its documents by the new name once the search index has followed the change (a moment later).',
    requestExample: { color: '#e53935' },
    responses: { 200: { description: 'The label as changed.', schema: Label, example: { ...label, color: '#e53935' } } },
    errors: [{ code: 'DUPLICATE_RESOURCE', when: 'another label of the workspace has the new name' }],
  },
  deleteLabel: {
    summary: 'Delete a label',
    description: 'The label is taken off every document that carried it; searches and filtered listings follow a moment later.',
    responses: { 204: { description: 'Deleted.' } },
  },
  assignLabel: {
    summary: 'Put a label on documents',
    description:
      'Assigns the label to up to 100 documents at once and says, per document, whether it was assigned, already carried it, or is not a document of the workspace. Ids are deduplicated.',
    requestExample: { document_ids: ['9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'] },
    responses: {
      200: {
        description: 'What happened to each document.',
        schema: LabelAssignment,
        example: { assigned: ['9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'], already_assigned: [], not_found: [] },
      },
    },
  },
};
