/** Line segments for debug layers (the nav layer's paths, the crowd layer's links and arrows):
 * one buffer allocated with the layer and rewritten in place each step, drawn up to the segments
 * written since `begin`, so a layer of any number of agents is one draw call and allocates no
 * geometry per frame. */
import * as THREE from 'three';

export interface SegmentsOptions {
  /** Colours per vertex (`add`'s `rgb`) instead of one colour. */
  perVertexColor?: boolean;
  /** Default 0.9. */
  opacity?: number;
  /** Default 8 (over the nav layer's markers). */
  renderOrder?: number;
}

/** Line segments drawn from a preallocated buffer: `count` segments of the last update. */
export class Segments {
  readonly lines: THREE.LineSegments;
  private readonly pos: Float32Array;
  private readonly colors: Float32Array | null;
  count = 0;

  /** `capacity` segments of `color` (or per-vertex colours), drawn over the scene (no depth
   * test) in `renderOrder`, at `opacity`. */
  constructor(capacity: number, color: number, { perVertexColor = false, opacity = 0.9, renderOrder = 8 }: SegmentsOptions = {}) {
    this.pos = new Float32Array(capacity * 6);
    this.colors = perVertexColor ? new Float32Array(capacity * 6) : null;
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(this.pos, 3).setUsage(THREE.DynamicDrawUsage));
    if (this.colors) g.setAttribute('color', new THREE.BufferAttribute(this.colors, 3).setUsage(THREE.DynamicDrawUsage));
    const m = new THREE.LineBasicMaterial({ color: perVertexColor ? 0xffffff : color, vertexColors: perVertexColor, depthTest: false, transparent: true, opacity });
    this.lines = new THREE.LineSegments(g, m);
    this.lines.frustumCulled = false;
    this.lines.renderOrder = renderOrder;
  }

  begin(): void {
    this.count = 0;
  }

  /** A segment from `a` to `b`, both raised by `lift` metres; dropped when the buffer is full. */
  add(a: readonly number[], b: readonly number[], rgb?: THREE.Color, lift = 0): void {
    if ((this.count + 1) * 6 > this.pos.length) return;
    this.pos.set([a[0]!, a[1]! + lift, a[2]!, b[0]!, b[1]! + lift, b[2]!], this.count * 6);
    if (this.colors && rgb) this.colors.set([rgb.r, rgb.g, rgb.b, rgb.r, rgb.g, rgb.b], this.count * 6);
    this.count++;
  }

  /** An arrow from `at` along the velocity `v` (x, z), as long as `seconds` of it: a shaft and
   * two head strokes. */
  arrow(at: readonly number[], v: readonly number[], seconds: number): void {
    const dx = v[0]! * seconds, dz = v[2]! * seconds;
    const len = Math.hypot(dx, dz);
    if (len < 1e-3) return;
    const tip = [at[0]! + dx, at[1]!, at[2]! + dz];
    const h = Math.min(0.12, len * 0.4), ux = dx / len, uz = dz / len;
    this.add(at, tip);
    this.add(tip, [tip[0]! - h * (ux + uz * 0.5), tip[1]!, tip[2]! - h * (uz - ux * 0.5)]);
    this.add(tip, [tip[0]! - h * (ux - uz * 0.5), tip[1]!, tip[2]! - h * (uz + ux * 0.5)]);
  }

  end(): void {
    const g = this.lines.geometry;
    g.setDrawRange(0, this.count * 2);
    (g.getAttribute('position') as THREE.BufferAttribute).needsUpdate = true;
    if (this.colors) (g.getAttribute('color') as THREE.BufferAttribute).needsUpdate = true;
  }
}
