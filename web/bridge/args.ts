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

/** Exactly n numbers (an array or typed array); finiteness is the core's check. */
export function vecArg(v: unknown, n: number, fn: string, field: string, entity?: number): ArrayLike<number> {
  const ok = Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
  const arr = v as ArrayLike<unknown>;
  if (!ok || arr.length !== n) throw badArgument(fn, field, `must be an array of ${n} numbers, got ${describe(v)}`, 'LB_ERR_INVALID_ARGUMENT', entity);
  for (let i = 0; i < n; i++) {
    if (typeof arr[i] !== 'number') throw badArgument(fn, `${field}[${i}]`, `must be a number, got ${describe(arr[i])}`, 'LB_ERR_INVALID_ARGUMENT', entity);
  }
  return arr as ArrayLike<number>;
}
