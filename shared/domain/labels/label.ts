import { AppError } from '../errors';

/** A P Label: a named colour that documents carry; document_count is how many do. */
export interface Label {
  id: string;
  name: string;
  color: string;
  description: string | null;
  document_count: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface LabelChanges {
  name?: string | undefined;
  color?: string | undefined;
  description?: string | null | undefined;
}

/** What assigning a label to a list of documents did to each of them. */
export interface AssignmentOutcome {
  assigned: string[];
  already_assigned: string[];
  not_found: string[];
}

/** The P error for label ids that name no label: the same body whether caught before or during a write. */
export const unknownLabelsError = (ids: string[]): AppError =>
  new AppError('VALIDATION_ERROR', 'Some labels do not exist', {
    field: 'labels',
    reason: 'unknown label ids',
    unknown_label_ids: [...new Set(ids)],
  });
