/**
 * Where a field's description lives. Authors write `.describe()` (or `.meta({description})`) either on
 * the wrapper or on the schema it wraps (`z.string().describe('x').optional()` and
 * `z.string().optional().describe('x')`); both must count, so the lookup walks down the wrapper chain.
 */
import {z} from 'zod';

/** Wrappers that change presence or nullability but not what the field is, so a description may sit inside. */
const transparentWrappers = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'readonly',
  'nonoptional',
  'catch',
]);

/** The description registered for this very schema (or inherited from the schema it was cloned from). */
export function ownDescription(schema: z.core.$ZodType): string | undefined {
  const description: unknown = z.globalRegistry.get(schema)?.description;
  return typeof description === 'string' ? description : undefined;
}

/**
 * The description of a field schema: its own, else the first one found on the schemas it wraps.
 * Returns `undefined` when none is declared; the empty string is a declared description.
 */
export function findDescription(schema: z.core.$ZodType): string | undefined {
  const seen = new Set<z.core.$ZodType>();
  let current: z.core.$ZodType | undefined = schema;
  while (current !== undefined && !seen.has(current)) {
    seen.add(current);
    const description = ownDescription(current);
    if (description !== undefined) return description;
    current = unwrapOnce(current);
  }
  return undefined;
}

function unwrapOnce(schema: z.core.$ZodType): z.core.$ZodType | undefined {
  const def = (schema as z.core.$ZodTypes)._zod.def;
  if (transparentWrappers.has(def.type) && 'innerType' in def) return def.innerType;
  if (def.type === 'lazy') {
    try {
      return (schema as z.core.$ZodLazy)._zod.innerType;
    } catch {
      // The contract walk reports a getter that throws; here it only means "no description found".
      return undefined;
    }
  }
  return undefined;
}
