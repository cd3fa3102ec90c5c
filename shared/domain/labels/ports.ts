import type { Label, LabelChanges, AssignmentOutcome } from './label';
import type { Clock } from '../clock';

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

/**
 * Documents are found by their labels' names. Every label change that touches documents (rename, delete,
 * assignment) moves the version of each document it wrote, and the search index follows those documents'
 * changes on the table's stream.
 */
export interface LabelDeps {
  labels: LabelRepository;
  clock: Clock;
}
