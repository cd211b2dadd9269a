/** The playground's crowd debug layer (id 'crowd'): for every NavAgent, what its avoidance did in
 * the last step (world.nav.avoidance, limber/nav.h):
 *   - a link to each neighbour it avoided (grey: it looked at it and its path's velocity was
 *     kept; orange: avoidance changed its velocity that step),
 *   - its path's velocity before avoidance (violet arrow: where it wanted to go),
 *   - its velocity over the last step (green arrow: where it went),
 * each arrow as long as the distance covered in ARROW_SECONDS. On by default in a crowd (more than
 * CROWD_AGENTS agents), like any layer toggled by its checkbox (#show-crowd). */
import * as THREE from 'three';
import { NavAgent, Transform, type Entity, type World } from '../bridge/browser.js';
import type { WorldView } from '../three/index.js';

/** Scenes with more NavAgents than this show the layer when they open. */
export const CROWD_AGENTS = 10;
const ARROW_SECONDS = 1;
const LIFT = 0.06; // above the navmesh layer's lines, metres
const NEIGHBOURS = 10; // LB_NAV_AVOID_NEIGHBOURS

/** Line segments drawn from a preallocated buffer: `count` segments of the last update. */
class Segments {
  readonly lines: THREE.LineSegments;
  private readonly pos: Float32Array;
  private readonly colors: Float32Array | null;
  count = 0;

  constructor(capacity: number, color: number, perVertexColor = false) {
    this.pos = new Float32Array(capacity * 6);
    this.colors = perVertexColor ? new Float32Array(capacity * 6) : null;
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(this.pos, 3).setUsage(THREE.DynamicDrawUsage));
    if (this.colors) g.setAttribute('color', new THREE.BufferAttribute(this.colors, 3).setUsage(THREE.DynamicDrawUsage));
    const m = new THREE.LineBasicMaterial({ color: perVertexColor ? 0xffffff : color, vertexColors: perVertexColor, depthTest: false, transparent: true, opacity: 0.9 });
    this.lines = new THREE.LineSegments(g, m);
    this.lines.frustumCulled = false;
    this.lines.renderOrder = 8;
  }

  begin(): void {
    this.count = 0;
  }

  add(a: readonly number[], b: readonly number[], rgb?: THREE.Color): void {
    if ((this.count + 1) * 6 > this.pos.length) return;
    this.pos.set([a[0]!, a[1]!, a[2]!, b[0]!, b[1]!, b[2]!], this.count * 6);
    if (this.colors && rgb) this.colors.set([rgb.r, rgb.g, rgb.b, rgb.r, rgb.g, rgb.b], this.count * 6);
    this.count++;
  }

  /** An arrow from `at` along `v` (x, z): a shaft and two head strokes. */
  arrow(at: readonly number[], v: readonly number[]): void {
    const dx = v[0]! * ARROW_SECONDS, dz = v[2]! * ARROW_SECONDS;
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

const KEPT = new THREE.Color(0x9aa4ad);
const CHANGED = new THREE.Color(0xff8a3d);

export class CrowdView implements WorldView {
  readonly object = new THREE.Group();
  private readonly links: Segments;
  private readonly preferred: Segments;
  private readonly actual: Segments;

  constructor(
    private readonly world: World,
    private readonly agents: readonly Entity[],
  ) {
    this.object.name = 'layer:crowd';
    this.links = new Segments(agents.length * NEIGHBOURS, 0, true);
    this.preferred = new Segments(agents.length * 3, 0xc77dff);
    this.actual = new Segments(agents.length * 3, 0x7cfc00);
    this.object.add(this.links.lines, this.preferred.lines, this.actual.lines);
  }

  /** Links drawn in the last update (each agent's to each of its neighbours). */
  get linkCount(): number {
    return this.links.count;
  }

  /** Arrows drawn in the last update: path's velocity, actual velocity. */
  get arrowCount(): { preferred: number; actual: number } {
    return { preferred: this.preferred.count / 3, actual: this.actual.count / 3 };
  }

  update(): void {
    const world = this.world;
    const at = new Map<Entity, number[]>();
    for (const e of this.agents) {
      const p = world.get(e, Transform).position;
      at.set(e, [p[0], p[1] + LIFT, p[2]]);
    }
    for (const s of [this.links, this.preferred, this.actual]) s.begin();
    for (const e of this.agents) {
      const a = world.get(e, NavAgent);
      const av = world.nav.avoidance(e);
      const here = at.get(e)!;
      const changed = a.desiredVelocity[0] !== av.preferredVelocity[0] || a.desiredVelocity[2] !== av.preferredVelocity[2];
      for (const n of av.neighbours) {
        const there = at.get(n) ?? (world.alive(n) && world.has(n, Transform) ? world.get(n, Transform).position : null);
        if (there) this.links.add(here, [there[0], here[1]!, there[2]], changed ? CHANGED : KEPT);
      }
      this.preferred.arrow(here, av.preferredVelocity);
      this.actual.arrow([here[0]!, here[1]! + 0.02, here[2]!], a.velocity);
    }
    for (const s of [this.links, this.preferred, this.actual]) s.end();
  }

  dispose(): void {
    for (const s of [this.links, this.preferred, this.actual]) {
      s.lines.geometry.dispose();
      (s.lines.material as THREE.Material).dispose();
    }
  }
}
