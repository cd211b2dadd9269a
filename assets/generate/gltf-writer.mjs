// A minimal glTF 2.0 binary (.glb) writer: one buffer, one buffer view per
// accessor (4-byte aligned), JSON written with a fixed key order so equal input
// gives equal bytes.

const COMPONENT = new Map([
  [Float32Array, 5126],
  [Uint16Array, 5123],
  [Uint8Array, 5121],
  [Uint32Array, 5125],
]);
const COUNT = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };
export const TARGET = { ARRAY_BUFFER: 34962, ELEMENT_ARRAY_BUFFER: 34963 };

export class GltfBuilder {
  constructor() {
    this.chunks = [];
    this.byteLength = 0;
    this.bufferViews = [];
    this.accessors = [];
  }

  /**
   * Adds typed data as an accessor. `minmax` stores per-component bounds (required
   * for POSITION and animation inputs). Returns the accessor index.
   */
  accessor(data, type, { target, minmax = false } = {}) {
    const componentType = COMPONENT.get(data.constructor);
    if (!componentType) throw new Error('gltf: unsupported array type');
    const n = COUNT[type];
    if (data.length % n !== 0) throw new Error(`gltf: ${data.length} values do not make ${type}s`);
    const pad = (4 - (this.byteLength % 4)) % 4;
    if (pad) this.push(new Uint8Array(pad));
    const view = { buffer: 0, byteOffset: this.byteLength, byteLength: data.byteLength };
    if (target) view.target = target;
    this.bufferViews.push(view);
    this.push(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    const acc = { bufferView: this.bufferViews.length - 1, componentType, count: data.length / n, type };
    if (minmax) {
      const min = new Array(n).fill(Infinity);
      const max = new Array(n).fill(-Infinity);
      for (let i = 0; i < data.length; i++) {
        min[i % n] = Math.min(min[i % n], data[i]);
        max[i % n] = Math.max(max[i % n], data[i]);
      }
      acc.min = min;
      acc.max = max;
    }
    this.accessors.push(acc);
    return this.accessors.length - 1;
  }

  push(bytes) {
    this.chunks.push(bytes);
    this.byteLength += bytes.byteLength;
  }

  /** Packs `json` (without buffers/bufferViews/accessors, which are added) into a GLB. */
  glb(json) {
    const doc = { ...json };
    doc.buffers = [{ byteLength: this.byteLength }];
    doc.bufferViews = this.bufferViews;
    doc.accessors = this.accessors;
    const text = new TextEncoder().encode(JSON.stringify(doc));
    const jsonLen = align4(text.byteLength);
    const binLen = align4(this.byteLength);
    const total = 12 + 8 + jsonLen + 8 + binLen;
    const out = new Uint8Array(total);
    const dv = new DataView(out.buffer);
    dv.setUint32(0, 0x46546c67, true); // 'glTF'
    dv.setUint32(4, 2, true);
    dv.setUint32(8, total, true);
    dv.setUint32(12, jsonLen, true);
    dv.setUint32(16, 0x4e4f534a, true); // 'JSON'
    out.fill(0x20, 20, 20 + jsonLen); // JSON pads with spaces
    out.set(text, 20);
    let o = 20 + jsonLen;
    dv.setUint32(o, binLen, true);
    dv.setUint32(o + 4, 0x004e4942, true); // 'BIN\0'
    o += 8;
    for (const c of this.chunks) {
      out.set(c, o);
      o += c.byteLength;
    }
    return out;
  }
}

const align4 = (n) => (n + 3) & ~3;
