/** The component schema, read from the core at start-up: field names, types,
 * offsets, defaults and ranges are defined once, in C. */
import { describe, readVector } from './args.js';
import { LimberError } from './errors.js';
import { decodeUtf8, type Heap } from './wasm.js';

/** lb_field_type. `Name` is a per-world interned string id in the core; on the TypeScript
 * side it reads and writes as a string, like `String`. */
export const enum FieldType { F32 = 0, U32 = 1, Bool = 2, Entity = 3, Vec3 = 4, Quat = 5, String = 6, Enum = 7, Asset = 8, Name = 9 }
const READONLY = 1;

export interface FieldInfo {
  name: string;
  type: FieldType;
  offset: number;
  size: number;
  min: number;
  max: number;
  enumNames: string[];
  readonly: boolean;
  doc: string;
  /** default text of a String or Name field ('' for other types) */
  defaultString: string;
}

export interface ComponentInfo {
  id: number;
  name: string;
  size: number;
  fields: FieldInfo[];
  byName: Map<string, FieldInfo>;
  defaults: Uint8Array;
}

export type FieldValue = number | boolean | string | number[];

/** A world's name table: Name fields hold ids of strings (lb_world_intern). */
export interface NameTable {
  text(id: number): string;
  intern(text: string): number;
}

export function readSchema(heap: Heap): ComponentInfo[] {
  const ex = heap.ex;
  const out: ComponentInfo[] = [];
  for (let t = 0; t < ex.lbw_component_count(); t++) {
    const fields: FieldInfo[] = [];
    for (let f = 0; f < ex.lbw_field_count(t); f++) {
      const p = ex.lbw_field(t, f);
      const dv = heap.dv;
      const enumPtr = dv.getUint32(p + 40, true);
      fields.push({
        name: heap.cstring(dv.getUint32(p, true)),
        type: dv.getUint32(p + 4, true) as FieldType,
        offset: dv.getUint32(p + 8, true),
        size: dv.getUint32(p + 12, true),
        min: dv.getFloat32(p + 32, true),
        max: dv.getFloat32(p + 36, true),
        enumNames: enumPtr ? heap.cstring(enumPtr).split('|') : [],
        readonly: (dv.getUint32(p + 48, true) & READONLY) !== 0,
        doc: heap.cstring(dv.getUint32(p + 52, true)),
        defaultString: heap.cstring(dv.getUint32(p + 44, true)),
      });
    }
    const size = ex.lbw_component_size(t);
    const defaults = heap.scratch(size, (ptr) => {
      ex.lbw_component_defaults(t, ptr);
      return heap.u8.slice(ptr, ptr + size);
    });
    out.push({ id: t, name: heap.cstring(ex.lbw_component_name(t)), size, fields, byName: new Map(fields.map((f) => [f.name, f])), defaults });
  }
  return out;
}

type Reader = (dv: DataView, bytes: Uint8Array, names?: NameTable) => FieldValue;
const utf8Encoder = new TextEncoder();

/** One reader per field, made once per component (a switch over the field types in every
 * read measured ~15 µs for a twenty-field component). */
function readerOf(f: FieldInfo): Reader {
  const o = f.offset;
  switch (f.type) {
    case FieldType.F32: return (dv) => dv.getFloat32(o, true);
    case FieldType.U32: case FieldType.Entity: case FieldType.Asset: return (dv) => dv.getUint32(o, true);
    case FieldType.Bool: return (dv) => dv.getUint32(o, true) !== 0;
    case FieldType.Enum: return (dv) => f.enumNames[dv.getUint32(o, true)] ?? '';
    case FieldType.Vec3: return (dv) => [dv.getFloat32(o, true), dv.getFloat32(o + 4, true), dv.getFloat32(o + 8, true)];
    case FieldType.Quat: return (dv) => [dv.getFloat32(o, true), dv.getFloat32(o + 4, true), dv.getFloat32(o + 8, true), dv.getFloat32(o + 12, true)];
    case FieldType.Name: return (dv, _bytes, names) => (names ? names.text(dv.getUint32(o, true)) : f.defaultString);
    case FieldType.String: return (_dv, bytes) => {
      const raw = bytes.subarray(o, o + f.size);
      const end = raw.indexOf(0);
      return decodeUtf8(raw.subarray(0, end < 0 ? raw.length : end));
    };
  }
  return () => 0;
}

type Decoder = (dv: DataView, bytes: Uint8Array, names?: NameTable) => Record<string, FieldValue>;

/** The component's decoder: where the page allows it (no Content-Security-Policy without
 * 'unsafe-eval'), one function returning an object literal of the schema's fields, so every
 * read builds an object of one shape (~1 µs for twenty fields); else the readers in turn,
 * stored by key (~3 µs). Field names and offsets come from the core's schema. */
function decoderOf(info: ComponentInfo): Decoder {
  const read = info.fields.map(readerOf);
  const keys = info.fields.map((f) => f.name);
  try {
    const f32 = (o: number) => `dv.getFloat32(${o}, true)`;
    const fields = info.fields.map((f, i) => {
      const o = f.offset;
      let e: string;
      switch (f.type) {
        case FieldType.F32: e = f32(o); break;
        case FieldType.U32: case FieldType.Entity: case FieldType.Asset: e = `dv.getUint32(${o}, true)`; break;
        case FieldType.Bool: e = `dv.getUint32(${o}, true) !== 0`; break;
        case FieldType.Vec3: e = `[${f32(o)}, ${f32(o + 4)}, ${f32(o + 8)}]`; break;
        case FieldType.Quat: e = `[${f32(o)}, ${f32(o + 4)}, ${f32(o + 8)}, ${f32(o + 12)}]`; break;
        default: e = `R[${i}](dv, bytes, names)`;
      }
      return `${JSON.stringify(f.name)}: ${e}`;
    });
    const make = new Function('R', `return (dv, bytes, names) => ({ ${fields.join(', ')} });`) as (r: Reader[]) => Decoder;
    return make(read);
  } catch {
    return (dv, bytes, names) => {
      const obj: Record<string, FieldValue> = {};
      for (let i = 0; i < read.length; i++) obj[keys[i]] = read[i](dv, bytes, names);
      return obj;
    };
  }
}

const decoders = new WeakMap<ComponentInfo, Decoder>();

/** Without `names`, Name fields read as their schema default text (for defaults only). */
export function decodeComponent(info: ComponentInfo, bytes: Uint8Array, names?: NameTable): Record<string, FieldValue> {
  let d = decoders.get(info);
  if (!d) {
    d = decoderOf(info);
    decoders.set(info, d);
  }
  return d(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), bytes, names);
}

/** A copy of a decoded component deep enough that changing it leaves the original alone
 * (its values are numbers, booleans, strings and arrays of numbers). */
export function copyDecoded(v: Record<string, FieldValue>): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const k in v) {
    const x = v[k];
    out[k] = Array.isArray(x) ? x.slice() : x;
  }
  return out;
}

/** Same value, arrays element by element (Object.is: NaN equals NaN, -0 differs from 0). */
function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
  return Object.is(a, b);
}

/** Writes the given fields over `bytes` (defaults or the current value). Type
 * errors are caught here; ranges, finiteness and references are checked by the
 * core, so there is one set of rules. Output (readonly) fields cannot be set, as in scene
 * files: on insert naming one is an error; on update (`current` = the value read) one may
 * only keep the value it had. */
export function encodeComponent(info: ComponentInfo, values: Record<string, unknown>, bytes: Uint8Array, where: string, entity: number, names: NameTable, current?: Record<string, FieldValue>): void {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (field: string, msg: string, code = 'LB_ERR_INVALID_ARGUMENT') =>
    new LimberError(code, `${code}: ${where}: field '${field}' ${msg}`, { entity, component: info.name, field });
  if (values === null || typeof values !== 'object') {
    throw new LimberError('LB_ERR_INVALID_ARGUMENT', `LB_ERR_INVALID_ARGUMENT: ${where}: fields must be an object`, { entity, component: info.name });
  }
  for (const [name, v] of Object.entries(values)) {
    const f = info.byName.get(name);
    if (!f) throw fail(name, `is not a field of ${info.name} (fields: ${info.fields.map((x) => x.name).join(', ')})`, 'LB_ERR_UNKNOWN_NAME');
    if (v === undefined) continue;
    // Vectors in any accepted form (array, typed array, {x, y, z[, w]}) as plain numbers.
    const vec = f.type === FieldType.Vec3 || f.type === FieldType.Quat ? readVector(v, f.type === FieldType.Vec3 ? 3 : 4) : null;
    // `bytes` hold the current value on update: an unchanged field is already there (and a
    // Name need not be interned again).
    if (current && sameValue(vec && 'values' in vec ? vec.values : v, current[name])) continue;
    if (f.readonly) throw fail(name, 'is an output and cannot be set');
    switch (f.type) {
      case FieldType.F32:
        if (typeof v !== 'number') throw fail(name, `must be a number, got ${typeof v}`);
        dv.setFloat32(f.offset, v, true);
        break;
      case FieldType.U32: case FieldType.Entity: case FieldType.Asset: {
        const n = v === null && f.type === FieldType.Entity ? 0 : v;
        if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 0xffffffff) throw fail(name, `must be ${f.type === FieldType.Entity ? 'an entity handle or null' : 'a whole number >= 0'}, got ${describe(v)}`);
        dv.setUint32(f.offset, n, true);
        break;
      }
      case FieldType.Bool:
        if (typeof v !== 'boolean' && v !== 0 && v !== 1) throw fail(name, `must be a boolean, got ${describe(v)}`);
        dv.setUint32(f.offset, v ? 1 : 0, true);
        break;
      case FieldType.Enum: {
        const idx = typeof v === 'string' ? f.enumNames.indexOf(v) : -1;
        if (idx < 0) throw fail(name, `must be one of ${f.enumNames.join(', ')}, got ${describe(v)}`, 'LB_ERR_UNKNOWN_NAME');
        dv.setUint32(f.offset, idx, true);
        break;
      }
      case FieldType.Vec3: case FieldType.Quat: {
        if (!vec || !('values' in vec)) throw fail(name, vec ? `${vec.at ? `${vec.at} ` : ''}${vec.why}` : 'must be a vector');
        vec.values.forEach((x, i) => dv.setFloat32(f.offset + 4 * i, x, true));
        break;
      }
      case FieldType.Name: {
        if (typeof v !== 'string') throw fail(name, `must be a string, got ${typeof v}`);
        if (v.length > 341 && utf8Encoder.encode(v).length > 1024) throw fail(name, 'is longer than 1024 bytes', 'LB_ERR_OUT_OF_RANGE');
        if (v.includes('\0')) throw fail(name, 'must not contain a NUL character');
        dv.setUint32(f.offset, names.intern(v), true);
        break;
      }
      case FieldType.String: {
        if (typeof v !== 'string') throw fail(name, `must be a string, got ${typeof v}`);
        if (v.includes('\0')) throw fail(name, 'must not contain a NUL character');
        const b = utf8Encoder.encode(v);
        if (b.length >= f.size) throw fail(name, `is longer than ${f.size - 1} bytes`, 'LB_ERR_OUT_OF_RANGE');
        bytes.fill(0, f.offset, f.offset + f.size);
        bytes.set(b, f.offset);
        break;
      }
    }
  }
}
