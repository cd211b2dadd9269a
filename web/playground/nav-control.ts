/** The page's side of nav agents (nav.ts draws them): the selected agent, the HUD's nav block
 * (agent and drive mode), click-to-move on the navmesh, and limber.nav. */
import * as THREE from 'three';
import { NavAgent, Transform, type Entity, type Vec3, type World } from '../bridge/browser.js';
import type { NavApi } from './api.js';
import { NavPanel, type NavView } from './nav.js';
import { el } from './page.js';
import type { Loaded } from './scene-load.js';

export class NavControl {
  /** The agent the HUD shows and clicks send (the first by default). */
  selected: Entity | null;
  private readonly world: World;
  private readonly panel: NavPanel;

  /** `changed` runs after the selection or a drive mode changed (debug layers, HUD). */
  constructor(
    private readonly loaded: Loaded,
    readonly view: NavView,
    private readonly agents: readonly Entity[],
    private readonly changed: () => void,
    private readonly invalidate: () => void,
  ) {
    const world = (this.world = loaded.world);
    this.selected = agents[0] ?? null;
    this.panel = new NavPanel(
      world,
      agents.map((e) => ({ name: loaded.label(e), e })),
      (e) => this.select(e),
      (e, mode) => {
        world.update(e, NavAgent, (a) => {
          a.driveMode = mode;
        });
        changed();
      },
    );
    el('animator').after(this.panel.element);
    view.selected = this.selected;
  }

  select(e: Entity): void {
    this.selected = e;
    this.view.selected = e;
    this.changed();
  }

  /** The HUD's nav block shows the selected agent. */
  refreshPanel(): void {
    this.panel.refresh(this.selected);
  }

  /** A click on the navmesh (or on the floor beside it: its nearest point) sends the selected agent there. */
  click(raycaster: THREE.Raycaster): void {
    const world = this.world;
    const agent = this.selected;
    if (agent === null) return;
    let p = this.view.pick(raycaster);
    if (!p) {
      const onFloor = raycaster.ray.intersectPlane(new THREE.Plane(new THREE.Vector3(0, 1, 0), 0), new THREE.Vector3());
      if (onFloor) p = world.nav.nearest(world.get(agent, NavAgent).navMesh, onFloor.toArray() as Vec3).position;
    }
    if (p) {
      world.nav.setDestination(agent, p);
      this.changed();
      this.invalidate();
    }
  }

  api(): Omit<NavApi, 'crowd'> {
    const { world, scene, label } = this.loaded;
    const agentOf = (name?: string): Entity => {
      const e = name !== undefined ? scene.entity(name) : this.selected;
      if (e === null || !world.has(e, NavAgent)) throw new Error(`${name ?? 'the selection'} is not a nav agent`);
      return e;
    };
    return {
      agents: () => this.agents.map(label),
      selected: () => (this.selected !== null ? (this.loaded.nameOf.get(this.selected) ?? null) : null),
      select: (name) => this.select(agentOf(name)),
      agent: (name) => {
        const e = agentOf(name);
        const a = world.get(e, NavAgent);
        return { driveMode: a.driveMode, destination: a.destination, hasDestination: a.hasDestination, stopped: a.stopped, arrived: a.arrived, pathStatus: a.pathStatus, remainingDistance: a.remainingDistance, locomotionValue: a.locomotionValue, turnAngle: a.turnAngle, steeringTarget: a.steeringTarget, nextPosition: a.nextPosition, position: world.get(e, Transform).position, path: this.view.paths.get(e) ?? [] };
      },
      meshPoint: (p, name) => world.nav.nearest(world.get(agentOf(name), NavAgent).navMesh, p).position,
    };
  }
}
