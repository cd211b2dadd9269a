/** Argument checks shared by the bridge's functions: what JavaScript lets through but the
 * core's C signatures cannot tell apart (a fractional handle truncated to an integer, a
 * string cut at a NUL, an object JSON cannot encode). Each failure is a LimberError that
 * names the function and the field; nothing reaches the core. */
import { LimberError } from './errors.js';

/** A short description of a wrong argument for error messages: its type, and the value
 * when that is short. */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return `string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v)}`;
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v} ${String(v)}`;
  if (typeof v === 'bigint') return `bigint ${v > 10n ** 12n ? '(large)' : String(v)}`;
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'object') return `an object (${(v as object).constructor?.name ?? 'no prototype'})`;
  return typeof v;
}

export function badArgument(fn: string, field: string, why: string, code = 'LB_ERR_INVALID_ARGUMENT', entity?: number): LimberError {
  return new LimberError(code, `${code}: ${fn}: field '${field}' ${why}`, { field, entity });
}

/** True for a value that can be an entity or asset handle: a whole number in [0, 2^32). */
export function isHandle(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
}

/** An entity or asset handle (not checked for liveness here). */
export function handleArg(v: unknown, fn: string, field: string, kind = 'an entity handle'): number {
  if (!isHandle(v)) throw badArgument(fn, field, `must be ${kind} (a whole number), got ${describe(v)}`);
  return v;
}

/** Longest name the bridge passes as a C string (joint paths, pose and parameter names). */
export const NAME_MAX_BYTES = 1024;

/** A name passed to the core as a NUL-terminated string: a string without NUL. */
export function nameArg(v: unknown, fn: string, field: string): string {
  if (typeof v !== 'string') throw badArgument(fn, field, `must be a string, got ${describe(v)}`);
  if (v.includes('\0')) throw badArgument(fn, field, 'must not contain a NUL character');
  if (v.length > NAME_MAX_BYTES && new TextEncoder().encode(v).length > NAME_MAX_BYTES) {
    throw badArgument(fn, field, `is longer than ${NAME_MAX_BYTES} bytes`, 'LB_ERR_OUT_OF_RANGE');
  }
  return v;
}

/** JSON text of a document given as text or as an object (a cyclic or otherwise
 * unencodable object is a LimberError, not JSON.stringify's TypeError). */
export function jsonArg(v: unknown, fn: string, field: string, what = 'an object or its JSON text'): string {
  if (typeof v === 'string') return v;
  if (v === null || typeof v !== 'object') throw badArgument(fn, field, `must be ${what}, got ${describe(v)}`);
  let text: string | undefined;
  try {
    text = JSON.stringify(v);
  } catch (err) {
    throw badArgument(fn, field, `cannot be written as JSON (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
  }
  if (typeof text !== 'string') throw badArgument(fn, field, `cannot be written as JSON, got ${describe(v)}`);
  return text;
}

/** The component names of a vector of n (3 or 4) given as an object. */
const AXES = ['x', 'y', 'z', 'w'] as const;

/** What a vector of n numbers may be: the words for error messages. */
export function vectorForms(n: number): string {
  const keys = AXES.slice(0, n).join(', ');
  return `an array of ${n} numbers [${keys}], a typed array of ${n} or an object {${keys}}`;
}

/** The one parser of vector inputs (vecArg, Vec3/Quat component fields, the nav queries):
 * exactly n numbers as an array, a typed array (not a DataView) or an object with numeric x, y,
 * z (and w for n = 4), e.g. a THREE.Vector3 or THREE.Quaternion. Returns the numbers, or why
 * not: `at` is the element or key that is wrong ('' for the value as a whole). Finiteness is
 * the caller's (or the core's) check. */
export function readVector(v: unknown, n: number): { values: number[] } | { at: string; why: string } {
  if (Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView))) {
    const arr = v as ArrayLike<unknown>;
    if (arr.length !== n) return { at: '', why: `must be ${vectorForms(n)}, got ${describe(v)}` };
    const values: number[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const x = arr[i];
      if (typeof x !== 'number') return { at: `[${i}]`, why: `must be a number, got ${describe(x)}` };
      values[i] = x;
    }
    return { values };
  }
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const values: number[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const k = AXES[i]!;
      const x = o[k];
      if (typeof x !== 'number') return { at: `.${k}`, why: `must be a number, got ${x === undefined ? 'nothing' : describe(x)} (a vector here is ${vectorForms(n)})` };
      values[i] = x;
    }
    return { values };
  }
  return { at: '', why: `must be ${vectorForms(n)}, got ${describe(v)}` };
}

/** Exactly n numbers (see readVector: an array, a typed array or {x, y, z[, w]}); the
 * LimberError otherwise names `field` (and the element or key). Finiteness is the core's
 * check. */
export function vecArg(v: unknown, n: number, fn: string, field: string, entity?: number): number[] {
  const r = readVector(v, n);
  if ('values' in r) return r.values;
  throw badArgument(fn, `${field}${r.at}`, r.why, 'LB_ERR_INVALID_ARGUMENT', entity);
}

const warnedDeprecated = new Set<string>();

/** Runs a deprecated call's replacement, warning once per process per name (CHANGELOG.md
 * lists the renames; the old names go in 0.3). */
export function deprecated<T>(old: string, now: string, call: () => T): T {
  if (!warnedDeprecated.has(old)) {
    warnedDeprecated.add(old);
    console.warn(`limber: ${old} is deprecated and will be removed in 0.3; use ${now} (see CHANGELOG.md)`);
  }
  return call();
}
