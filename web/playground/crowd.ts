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
import { Segments } from './segments.js';

/** Scenes with more NavAgents than this show the layer when they open. */
export const CROWD_AGENTS = 10;
const ARROW_SECONDS = 1;
const LIFT = 0.06; // above the navmesh layer's lines, metres
const NEIGHBOURS = 10; // LB_NAV_AVOID_NEIGHBOURS

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
    this.links = new Segments(agents.length * NEIGHBOURS, 0, { perVertexColor: true });
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
      this.preferred.arrow(here, av.preferredVelocity, ARROW_SECONDS);
      this.actual.arrow([here[0]!, here[1]! + 0.02, here[2]!], a.velocity, ARROW_SECONDS);
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
