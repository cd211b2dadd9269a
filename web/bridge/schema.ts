/** The component schema, read from the core at start-up: field names, types,
 * offsets, defaults and ranges are defined once, in C. */
import { describe } from './args.js';
import { LimberError } from './errors.js';
import type { Heap } from './wasm.js';

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

/** Without `names`, Name fields read as their schema default text (for defaults only). */
export function decodeComponent(info: ComponentInfo, bytes: Uint8Array, names?: NameTable): Record<string, FieldValue> {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const obj: Record<string, FieldValue> = {};
  for (const f of info.fields) {
    switch (f.type) {
      case FieldType.F32: obj[f.name] = dv.getFloat32(f.offset, true); break;
      case FieldType.U32: case FieldType.Entity: case FieldType.Asset: obj[f.name] = dv.getUint32(f.offset, true); break;
      case FieldType.Bool: obj[f.name] = dv.getUint32(f.offset, true) !== 0; break;
      case FieldType.Enum: obj[f.name] = f.enumNames[dv.getUint32(f.offset, true)] ?? ''; break;
      case FieldType.Vec3: case FieldType.Quat: {
        const n = f.type === FieldType.Vec3 ? 3 : 4;
        obj[f.name] = Array.from({ length: n }, (_, i) => dv.getFloat32(f.offset + 4 * i, true));
        break;
      }
      case FieldType.Name: obj[f.name] = names ? names.text(dv.getUint32(f.offset, true)) : f.defaultString; break;
      case FieldType.String: {
        const raw = bytes.subarray(f.offset, f.offset + f.size);
        const end = raw.indexOf(0);
        obj[f.name] = new TextDecoder().decode(raw.subarray(0, end < 0 ? raw.length : end));
        break;
      }
    }
  }
  return obj;
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
    if (f.readonly) {
      if (current && sameValue(v, current[name])) continue;
      throw fail(name, 'is an output and cannot be set');
    }
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
        const n = f.type === FieldType.Vec3 ? 3 : 4;
        const arr = v as ArrayLike<unknown>;
        if (!(Array.isArray(arr) || (ArrayBuffer.isView(arr) && !(arr instanceof DataView))) || arr.length !== n) throw fail(name, `must be an array of ${n} numbers`);
        for (let i = 0; i < n; i++) {
          const x = arr[i];
          if (typeof x !== 'number') throw fail(name, `[${i}] must be a number, got ${typeof x}`);
          dv.setFloat32(f.offset + 4 * i, x, true);
        }
        break;
      }
      case FieldType.Name: {
        if (typeof v !== 'string') throw fail(name, `must be a string, got ${typeof v}`);
        if (new TextEncoder().encode(v).length > 1024) throw fail(name, 'is longer than 1024 bytes', 'LB_ERR_OUT_OF_RANGE');
        if (v.includes('\0')) throw fail(name, 'must not contain a NUL character');
        dv.setUint32(f.offset, names.intern(v), true);
        break;
      }
      case FieldType.String: {
        if (typeof v !== 'string') throw fail(name, `must be a string, got ${typeof v}`);
        if (v.includes('\0')) throw fail(name, 'must not contain a NUL character');
        const b = new TextEncoder().encode(v);
        if (b.length >= f.size) throw fail(name, `is longer than ${f.size - 1} bytes`, 'LB_ERR_OUT_OF_RANGE');
        bytes.fill(0, f.offset, f.offset + f.size);
        bytes.set(b, f.offset);
        break;
      }
    }
  }
}
