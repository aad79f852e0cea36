// A form field's constraints read from its zod schema in src/shared, so a limit and its message are
// written once: the same schema validates the form (zodResolver) and the API (the server).
import type { FieldValues, Path, RegisterOptions, UseFormReturn } from 'react-hook-form';
import { globalRegistry, type z } from 'zod';

export interface FieldConstraints {
  /** 'text' for strings (dates and ids included), 'number' for numbers. */
  kind: 'text' | 'number' | 'other';
  /** Not optional, nullable or defaulted: the form must give a value. */
  required: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  /** 1 for whole numbers; else the schema's `meta({ step })`. */
  step?: number;
  messages: {
    /** The message for an empty value, e.g. 'Name is required'. */
    required?: string;
    /** The message for a value longer than maxLength. */
    tooLong?: string;
    /** The message for a number outside min..max. */
    range?: string;
  };
}

/** The parts of zod 4's internals this reads (stable since 4.0: `_zod.def`, each check's `_zod.def`). */
interface Def {
  type: string;
  checks?: Array<{ _zod: { def: CheckDef } }>;
  error?: (issue?: unknown) => unknown;
  innerType?: Schema;
  in?: Schema;
  out?: Schema;
}
interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  error?: (issue?: unknown) => unknown;
}
type Schema = z.ZodType & { _zod: { def: Def } };

const messageOf = (error: ((issue?: unknown) => unknown) | undefined): string | undefined => {
  try {
    const message = error?.();
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
};

/** The constraints of the field `name` of an object schema (refined or not). */
export function fieldConstraints(schema: z.ZodType, name: string): FieldConstraints {
  const shape = (schema as unknown as { shape?: Record<string, Schema> }).shape;
  const field = shape?.[name];
  if (!field) throw new Error(`The schema has no field "${name}"`);
  const result: FieldConstraints = { kind: 'other', required: true, messages: {} };
  collect(field, result);
  return result;
}

function collect(schema: Schema, into: FieldConstraints): void {
  const def = schema._zod.def;
  const step = globalRegistry.get(schema)?.step;
  if (typeof step === 'number') into.step ??= step;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
      into.required = false;
      if (def.innerType) collect(def.innerType, into);
      return;
    case 'pipe':
      // what is typed goes in at `in`; what comes out of a transform is checked by `out`: both apply.
      if (def.in) collect(def.in, into);
      if (def.out) collect(def.out, into);
      return;
    case 'string':
      if (into.kind === 'other') into.kind = 'text';
      break;
    case 'number':
      into.kind = 'number';
      break;
    default:
      return;
  }
  into.messages.required ??= messageOf(def.error);
  for (const { _zod } of def.checks ?? []) readCheck(_zod.def, into);
}

function readCheck(check: CheckDef, into: FieldConstraints): void {
  const message = messageOf(check.error);
  switch (check.check) {
    case 'min_length':
      if (check.minimum === undefined) return;
      // a minimum of 1 is "required"; a larger one is a length the browser may also know.
      if (check.minimum <= 1) into.messages.required = message ?? into.messages.required;
      else into.minLength = Math.max(into.minLength ?? 0, check.minimum);
      return;
    case 'max_length':
      if (check.maximum === undefined) return;
      into.maxLength = Math.min(into.maxLength ?? Number.POSITIVE_INFINITY, check.maximum);
      into.messages.tooLong ??= message;
      return;
    case 'greater_than':
      if (check.inclusive && check.value !== undefined) into.min = check.value;
      into.messages.range ??= message;
      return;
    case 'less_than':
      if (check.inclusive && check.value !== undefined) into.max = check.value;
      into.messages.range ??= message;
      return;
    case 'number_format':
      if (check.format === 'safeint' || check.format === 'int32') into.step = 1;
      return;
  }
}

/** The constraints as an input's attributes (only those that apply). */
export function constraintAttributes(constraints: FieldConstraints) {
  const { required, minLength, maxLength, min, max, step } = constraints;
  return {
    required: required || undefined,
    ...(minLength !== undefined && { minLength }),
    ...(maxLength !== undefined && { maxLength }),
    ...(min !== undefined && { min }),
    ...(max !== undefined && { max }),
    ...(step !== undefined && { step }),
  };
}

/**
 * `field('name')`: everything a form control needs for one field of `schema` — its constraint
 * attributes, its inline error and react-hook-form's registration (numbers read as numbers).
 */
export function schemaFields<T extends FieldValues, Out>(
  schema: z.ZodType,
  form: UseFormReturn<T, unknown, Out>,
) {
  const errors = form.formState.errors as Record<string, { message?: unknown } | undefined>;
  return (name: Path<T>, options?: RegisterOptions<T, Path<T>>) => {
    const constraints = fieldConstraints(schema, name);
    const message = errors[name]?.message;
    return {
      ...constraintAttributes(constraints),
      error: typeof message === 'string' ? message : undefined,
      ...form.register(name, {
        ...(constraints.kind === 'number' && { valueAsNumber: true }),
        ...options,
      } as RegisterOptions<T, Path<T>>),
    };
  };
}
