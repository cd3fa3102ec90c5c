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

/**
 * Labels and their memberships. Names are unique case-insensitively (DUPLICATE_RESOURCE on name); every
 * change of membership updates document_count in the same transaction, so the count stays exact under
 * concurrent assigns, document deletes and label deletes.
 */
export interface LabelRepository {
  create(label: Label): Promise<void>;
  get(id: string): Promise<Label | null>;
  /** All labels, by name. */
  list(): Promise<Label[]>;
  /** The ids among `ids` that name no label. */
  missing(ids: string[]): Promise<string[]>;
  /**
   * Changes the label; null when there is no such label. A rename also moves the version of every document
   * carrying the label (after the rename is stored), so that the index, which orders a document's states by
   * version, takes the new name over any copy read before (the index follows those documents' changes).
   */
  update(id: string, changes: LabelChanges, updatedAt: string): Promise<Label | null>;
  /**
   * Deletes the label, then takes it off every document that carries it (each such document's version moves);
   * false when there was no such label. Once the label is gone no write can add it to a document, so the
   * documents it is taken off are all that carried it.
   */
  delete(id: string): Promise<boolean>;
  /** Puts the label on each document; null when the label does not exist. */
  assign(id: string, documentIds: string[], updatedAt: string): Promise<AssignmentOutcome | null>;
}
