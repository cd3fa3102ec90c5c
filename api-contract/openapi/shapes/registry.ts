import * as z from '../../../shared/zod';

/** What a response shape is registered with: its component name and what it is. */
export interface ShapeMeta {
  id: string;
  description: string;
}

/**
 * Every response shape of the document, each a named component (`#/components/schemas/<id>`): operations refer
 * to them by reference, so a generated client names them as the document does.
 */
export const shapes = z.registry<ShapeMeta>();

/** Each shape's description, by component name: zod writes a registry's ids but not their descriptions. */
export const shapeDescriptions = new Map<string, string>();

/** Registers a response shape under its component name. */
export const shape = <S extends z.ZodMiniType>(id: string, description: string, schema: S): S => {
  shapes.add(schema, { id, description });
  shapeDescriptions.set(id, description);
  return schema;
};

/** An ISO 8601 timestamp as the service writes it (`Date.prototype.toISOString`). */
export const timestamp = () => z.iso.datetime({ offset: true });

/** A UUID, as every P id is. */
export const id = () => z.uuid();
