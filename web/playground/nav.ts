/** Playground debug drawing and controls for navigation (NavAgent, limber/nav.h):
 *   - NavView (a debug layer, id 'nav'): the scene's navmeshes as translucent faces with their
 *     walls (orange) and portals (faint), and per agent its current path (corners from the
 *     agent's point to its destination), its steering target (a yellow dot) and its destination
 *     (a ring); the selected agent's path is brighter;
 *   - pick(): the point of a navmesh under a viewport ray (clicks set destinations);
 *   - NavPanel: a HUD block with the selected agent, a drive-mode switch, its locomotion
 *     parameter value (speed), turn angle, path status and remaining distance.
 * The meshes are drawn from the navmesh files the scene loaded (assets.navmeshes.NAME.file). */
import * as THREE from 'three';
import { NavAgent, type Entity, type NavAgentData, type NavMeshData, type Vec3, type World } from '../bridge/browser.js';
import type { WorldView } from '../three/index.js';
import { Segments } from './segments.js';

export type DriveMode = NavAgentData['driveMode'];
export const DRIVE_MODES: readonly DriveMode[] = ['NavDestination', 'RootMotion', 'Both'];

/** The navmeshes a scene declares (handle, data), read from its text and the files it loaded. */
export function sceneNavMeshes(world: World, text: string, files: Record<string, Uint8Array>): Map<number, NavMeshData> {
  const doc = JSON.parse(text) as { assets?: { navmeshes?: Record<string, { file?: unknown }> } };
  const out = new Map<number, NavMeshData>();
  for (const [name, def] of Object.entries(doc.assets?.navmeshes ?? {})) {
    const bytes = typeof def.file === 'string' ? files[def.file] : undefined;
    const handle = world.nav.find(name);
    if (!bytes || handle === 0) continue;
    out.set(handle, JSON.parse(new TextDecoder().decode(bytes)) as NavMeshData);
  }
  return out;
}

const LIFT = 0.02; // lines and markers above the faces, metres
/** Corners of a drawn path (world.nav.findPath's maxPoints). */
const PATH_POINTS = 64;

/** One instanced marker per agent, in one draw call; a hidden one has a zero scale. */
function markers(geometry: THREE.BufferGeometry, material: THREE.Material, count: number): THREE.InstancedMesh {
  const m = new THREE.InstancedMesh(geometry, material, count);
  m.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
  m.renderOrder = 7;
  m.frustumCulled = false;
  return m;
}

export class NavView implements WorldView {
  readonly object = new THREE.Group();
  /** Faces of every mesh for picking (not drawn; identity transform). */
  private readonly pickMesh: THREE.Mesh;
  private readonly agents: readonly Entity[];
  /** Every agent's path but the selected one's, and the selected one's (brighter), each one
   * buffer for the whole crowd; targets and destinations instanced: a frame draws the paths and
   * markers of any number of agents in four calls and allocates no geometry. */
  private readonly pathsOff: Segments;
  private readonly pathOn: Segments;
  private readonly targets: THREE.InstancedMesh;
  private readonly goals: THREE.InstancedMesh;
  private readonly placed = new THREE.Matrix4();
  private readonly at = new THREE.Vector3();
  private readonly turn = new THREE.Quaternion();
  private readonly size = new THREE.Vector3();
  selected: Entity | null = null;
  /** Corners of each agent's path as last drawn. */
  readonly paths = new Map<Entity, Vec3[]>();

  constructor(private readonly world: World, meshes: ReadonlyMap<number, NavMeshData>, agents: readonly Entity[]) {
    this.object.name = 'layer:nav';
    const pos: number[] = [], idx: number[] = [], walls: number[] = [], portals: number[] = [];
    for (const m of meshes.values()) {
      const base = pos.length / 3;
      for (const v of m.vertices) pos.push(v[0], v[1], v[2]);
      m.polygons.forEach((poly, p) => {
        for (let k = 1; k + 1 < poly.length; k++) idx.push(base + poly[0]!, base + poly[k + 1]!, base + poly[k]!);
        for (let k = 0; k < poly.length; k++) {
          const a = m.vertices[poly[k]!]!, b = m.vertices[poly[(k + 1) % poly.length]!]!;
          const n = m.neighbours[p]?.[k] ?? -1;
          // a portal is drawn once, from the lower polygon index
          if (n >= 0 && n < p) continue;
          (n < 0 ? walls : portals).push(a[0], a[1] + LIFT, a[2], b[0], b[1] + LIFT, b[2]);
        }
      });
    }
    const faces = new THREE.BufferGeometry();
    faces.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
    faces.setIndex(idx);
    faces.computeVertexNormals();
    const faceMat = new THREE.MeshBasicMaterial({ color: 0x2e9d6a, transparent: true, opacity: 0.28, side: THREE.DoubleSide, depthWrite: false, polygonOffset: true, polygonOffsetFactor: -2, polygonOffsetUnits: -2 });
    const faceMesh = new THREE.Mesh(faces, faceMat);
    faceMesh.name = 'nav:faces';
    faceMesh.renderOrder = 2;
    this.object.add(faceMesh);
    this.pickMesh = new THREE.Mesh(faces, new THREE.MeshBasicMaterial({ side: THREE.DoubleSide }));
    this.pickMesh.updateMatrixWorld(true);
    const lines = (arr: number[], color: number, opacity: number): THREE.LineSegments => {
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.Float32BufferAttribute(arr, 3));
      const l = new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color, transparent: true, opacity }));
      l.renderOrder = 3;
      return l;
    };
    this.object.add(lines(walls, 0xff9e40, 0.9), lines(portals, 0x66d9a0, 0.25));
    this.agents = [...agents];
    const n = Math.max(agents.length, 1);
    this.pathsOff = new Segments(n * (PATH_POINTS - 1), 0x4f7f9f, { opacity: 0.7, renderOrder: 6 });
    this.pathOn = new Segments(PATH_POINTS - 1, 0x4fc3f7, { opacity: 1, renderOrder: 6 });
    this.targets = markers(new THREE.SphereGeometry(0.06, 12, 8), new THREE.MeshBasicMaterial({ color: 0xffd54f, depthTest: false }), n);
    const ring = new THREE.RingGeometry(0.16, 0.22, 24).rotateX(-Math.PI / 2);
    this.goals = markers(ring, new THREE.MeshBasicMaterial({ color: 0x4fc3f7, side: THREE.DoubleSide, depthTest: false, transparent: true, opacity: 0.85 }), n);
    this.object.add(this.pathsOff.lines, this.pathOn.lines, this.targets, this.goals);
  }

  /** The navmesh point under a ray (world space), or null. */
  pick(ray: THREE.Raycaster): Vec3 | null {
    const hit = ray.intersectObject(this.pickMesh, false)[0];
    return hit ? (hit.point.toArray() as Vec3) : null;
  }

  update(): void {
    this.pathsOff.begin();
    this.pathOn.begin();
    this.agents.forEach((e, i) => {
      const a = this.world.get(e, NavAgent);
      const going = a.hasDestination && !a.stopped;
      const corners = going ? this.world.nav.findPath(a.navMesh, a.nextPosition, a.destination, { maxPoints: PATH_POINTS }).points : [];
      this.paths.set(e, corners);
      const lines = e === this.selected ? this.pathOn : this.pathsOff;
      for (let k = 0; k + 1 < corners.length; k++) lines.add(corners[k]!, corners[k + 1]!, undefined, LIFT);
      const t = a.steeringTarget;
      this.place(this.targets, i, going && !a.arrived, t[0], t[1] + LIFT + 0.04, t[2], 1);
      const d = a.destination;
      this.place(this.goals, i, a.hasDestination, d[0], d[1] + LIFT, d[2], e === this.selected ? 1.4 : 1);
    });
    this.pathsOff.end();
    this.pathOn.end();
    this.targets.instanceMatrix.needsUpdate = true;
    this.goals.instanceMatrix.needsUpdate = true;
  }

  /** Instance `i` of `marker` at (x, y, z), scaled by `scale`, or hidden (a zero scale). */
  private place(marker: THREE.InstancedMesh, i: number, shown: boolean, x: number, y: number, z: number, scale: number): void {
    this.size.setScalar(shown ? scale : 0);
    marker.setMatrixAt(i, this.placed.compose(this.at.set(x, y, z), this.turn, this.size));
  }

  dispose(): void {
    this.pickMesh.geometry.dispose();
    for (const o of [this.pathsOff.lines, this.pathOn.lines, this.targets, this.goals]) o.geometry.dispose();
  }
}

/** HUD block: the selected agent, its drive mode, speed parameter and turn angle. */
export class NavPanel {
  readonly element = document.createElement('div');
  private readonly agentSel = document.createElement('select');
  private readonly modeSel = document.createElement('select');
  private readonly out: Record<'speed' | 'turn' | 'status' | 'remaining', HTMLElement>;

  constructor(
    private readonly world: World,
    private readonly agents: readonly { name: string; e: Entity }[],
    private readonly onSelect: (e: Entity) => void,
    private readonly onMode: (e: Entity, mode: DriveMode) => void,
  ) {
    this.element.id = 'nav';
    this.element.innerHTML = '<div><b>Nav agent</b> <span class="help">(click the floor: destination)</span></div>';
    const row = (label: string, ...nodes: (Node | string)[]): void => {
      const r = document.createElement('div');
      r.append(`${label} `, ...nodes);
      this.element.append(r);
    };
    this.agentSel.id = 'nav-agent';
    for (const a of agents) this.agentSel.add(new Option(a.name, a.name));
    this.modeSel.id = 'nav-drive';
    for (const m of DRIVE_MODES) this.modeSel.add(new Option(m, m));
    const span = (id: string): HTMLElement => {
      const s = document.createElement('span');
      s.id = id;
      s.className = 'mono';
      return s;
    };
    this.out = { speed: span('nav-speed'), turn: span('nav-turn'), status: span('nav-status'), remaining: span('nav-remaining') };
    row('agent', this.agentSel);
    row('drive mode', this.modeSel);
    const param = document.createElement('span');
    param.id = 'nav-speed-label';
    row('', param, ' ', this.out.speed);
    row('turn angle', this.out.turn);
    row('path', this.out.status, ' ', this.out.remaining);
    this.agentSel.addEventListener('change', () => this.onSelect(this.entity(this.agentSel.value)));
    this.modeSel.addEventListener('change', () => this.onMode(this.entity(this.agentSel.value), this.modeSel.value as DriveMode));
  }

  private entity(name: string): Entity {
    const a = this.agents.find((x) => x.name === name);
    if (!a) throw new Error(`no nav agent '${name}'`);
    return a.e;
  }

  /** Shows `e` as the selected agent and its current values. */
  refresh(e: Entity | null): void {
    const a = this.agents.find((x) => x.e === e);
    if (!a) return;
    if (this.agentSel.value !== a.name) this.agentSel.value = a.name;
    const c = this.world.get(a.e, NavAgent);
    if (this.modeSel.value !== c.driveMode) this.modeSel.value = c.driveMode;
    (this.element.querySelector('#nav-speed-label') as HTMLElement).textContent = c.locomotionParam === '' ? 'speed param' : c.locomotionParam;
    this.out.speed.textContent = c.locomotionValue.toFixed(2);
    this.out.turn.textContent = `${c.turnAngle.toFixed(1)}°`;
    this.out.status.textContent = c.arrived ? 'arrived' : c.pathStatus;
    this.out.remaining.textContent = `${c.remainingDistance.toFixed(2)} m`;
  }
}
