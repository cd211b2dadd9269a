// The game's world: one scene document (the level, the player with a rifle, 30 NPCs, some
// holding props), loaded into a Limber world, and the per-step rules that turn the player's
// input into what Limber reads (the Animator's MoveSpeed, the character's yaw, a Vault
// request, a NavAgent destination). No three.js here: the same code runs headless in Node.
import { bakeNavMeshData, CharacterController, EnvironmentInteraction, GripHolder, NavAgent, Transform, Vault } from 'limber';
import { LEVEL_FILES, MANNEQUIN, PROP_FILES, RIFLE_SCENE } from './files.js';
import { composeLevel } from './level.js';

export const DT = 1 / 60;

export const WALK = 1.4;
export const RUN = 3.5;
/** Degrees per second the player turns toward the direction the keys ask for. */
const TURN_SPEED = 600;
/** The support hand lets go of the rifle near a wall on the free (left) side, so that hand can
 * rest on the wall; these many seconds without such a wall and it takes the rifle again. */
const WALL_HOLD_SECONDS = 0.35;
/** How far (m) to the left of the shoulder a wall counts as within the free hand's reach. */
const WALL_REACH = 0.75;
const NPC_COUNT = 30;

/** The Animator controller: idle / walk / run on a damped MoveSpeed and a one-shot Vault. */
const LOCOMOTION = {
  rig: 'mannequin',
  rootJoint: 'Hips',
  parameters: { MoveSpeed: { type: 'float', default: 0, damp: 0.1 }, Vault: { type: 'trigger' } },
  entry: 'Locomotion',
  states: {
    Locomotion: { blend: { parameter: 'MoveSpeed', points: [{ clip: 'idle', value: 0 }, { clip: 'walk', value: WALK }, { clip: 'run', value: RUN }] } },
    Vault: { clip: 'vault', loop: false, next: 'Locomotion', nextFade: 0.3 },
  },
  transitions: [{ from: 'Locomotion', to: 'Vault', fade: 0.2, conditions: [{ parameter: 'Vault' }] }],
};

/** The navmesh bake: Recast with the player's capsule (radius 0.3) plus a margin. */
export const NAV_SETTINGS = { cellSize: 0.1, cellHeight: 0.1, agentRadius: 0.35, agentHeight: 1.8, agentMaxClimb: 0.3, agentMaxSlope: 45 };

const yawQuat = (yaw) => [0, Math.sin(yaw / 2), 0, Math.cos(yaw / 2)];
const yawOf = (q) => Math.atan2(2 * (q[3] * q[1] + q[0] * q[2]), 1 - 2 * (q[1] * q[1] + q[0] * q[0]));
const wrapAngle = (a) => Math.atan2(Math.sin(a), Math.cos(a));

/** A prop scene's entities renamed under `prefix` (names and the references between them). */
function renamed(entities, prefix) {
  const names = new Set(entities.map((e) => e.name));
  const ref = (v) => (typeof v === 'string' && names.has(v) ? `${prefix}${v}` : v);
  return entities.map((e) => {
    const c = structuredClone(e.components);
    if (c.Transform?.parent) c.Transform.parent = ref(c.Transform.parent);
    if (c.GripProfile) {
      c.GripProfile.mainAnchor = ref(c.GripProfile.mainAnchor);
      c.GripProfile.supportAnchor = ref(c.GripProfile.supportAnchor);
    }
    return { name: `${prefix}${e.name}`, components: c };
  });
}

/** Where the crowd walks: the arena's destinations and a few more open spots, all inside the
 * arena and away from the door and the crate (the player's way in). */
function waypoints(level) {
  const extra = [[6.5, 0, 0.5], [-7.5, 0, -3], [-2, 0, -4.5], [3, 0, 7.5], [-1.5, 0, 4.5], [7.5, 0, -0.5], [-8, 0, 3]];
  return [...level.destinations.map((d) => d.position), ...extra].filter((p) => !(Math.abs(p[0]) < 2.5 && p[2] < -3.5));
}

/** NPC starts: a grid over the arena, each moved onto the navmesh, 1.2 m apart at least. */
function npcStarts(world, mesh, count) {
  const starts = [];
  for (let z = -7.5; z <= 8.5 && starts.length < count; z += 1.6) {
    for (let x = -8.5; x <= 8.5 && starts.length < count; x += 2.1) {
      if (Math.abs(x) < 2.5 && z < -3.5) continue; // the door and the crate
      const near = world.nav.nearest(mesh, [x, 0, z]);
      if (!near) continue;
      const p = near.position;
      if (Math.hypot(p[0] - x, p[2] - z) > 0.05 || p[1] > 0.3) continue;
      if (starts.some((q) => Math.hypot(q[0] - p[0], q[2] - p[2]) < 1.2)) continue;
      starts.push(p);
    }
  }
  return starts;
}

/**
 * The scene document: level, player with the grip lab's rifle, NPCs (their NavAgents are
 * added after the load, once the navmesh is in the world).
 * @param {{ level: any, rifleLab: any, props: Record<string, any> }} data
 */
function sceneDocument({ level, rifleLab, props }, npcs) {
  const hero = rifleLab.entities.find((e) => e.name === 'hero');
  const rifle = renamed(rifleLab.entities.filter((e) => e !== hero), 'player.');
  const spawnYaw = Math.atan2(level.spawn.facing[0], level.spawn.facing[2]);
  const entities = [
    {
      name: 'player',
      components: {
        Transform: { position: level.spawn.position, rotation: yawQuat(spawnYaw) },
        Rig: { asset: 'mannequin' },
        Animator: { controller: 'locomotion', applyRootMotion: true },
        CharacterController: { radius: 0.3, height: 1.8, center: [0, 0.9, 0], stepOffset: 0.35 },
        Vault: { hand: 'Left', trigger: 'Vault', animState: 'Vault' },
        EnvironmentInteraction: { height: 1.8, handOffset: 0.015 },
        GripPose: hero.components.GripPose,
        GripHolder: { ...hero.components.GripHolder, held: 'player.rifle' },
      },
    },
    ...rifle,
  ];
  const kinds = Object.keys(props);
  npcs.forEach((start, i) => {
    const name = `npc${i}`;
    const c = {
      Transform: { position: start, rotation: yawQuat((i * 2.4) % (2 * Math.PI)) },
      Rig: { asset: 'mannequin' },
      Animator: { controller: 'locomotion', applyRootMotion: true },
      CharacterController: { radius: 0.3, height: 1.8, center: [0, 0.9, 0] },
    };
    // Every third NPC carries something in the right hand.
    if (i % 3 === 0) {
      const kind = kinds[(i / 3) % kinds.length];
      const prop = renamed(props[kind].entities, `${name}.`);
      c.GripHolder = { held: prop[0].name, placement: 'Hand', blendSeconds: 0.25 };
      entities.push(...prop);
    }
    entities.unshift({ name, components: c });
  });
  return {
    name: 'third-person',
    level: 'level.json',
    assets: {
      rigs: { mannequin: { gltf: MANNEQUIN } },
      controllers: { locomotion: LOCOMOTION },
    },
    entities,
  };
}

/**
 * Builds the game world.
 * @param {import('limber').World} world an empty world
 * @param {(path: string) => Promise<Uint8Array>} read the bytes of a file of GAME_FILES
 */
export async function createGame(world, read) {
  const text = async (path) => new TextDecoder().decode(await read(path));
  const json = async (path) => JSON.parse(await text(path));
  const level = composeLevel({ arena: await json(LEVEL_FILES.arena), corridor: await json(LEVEL_FILES.corridor), course: await json(LEVEL_FILES.course) });
  const props = {};
  for (const [k, p] of Object.entries(PROP_FILES)) props[k] = await json(p);
  const rifleLab = await json(RIFLE_SCENE);

  const t0 = performance.now();
  const navData = await bakeNavMeshData(level, NAV_SETTINGS);
  const bakeMs = performance.now() - t0;
  const mesh = world.nav.addMesh(navData, 'level');
  const starts = npcStarts(world, mesh, NPC_COUNT);

  const doc = sceneDocument({ level, rifleLab, props }, starts);
  const enc = new TextEncoder();
  const files = { 'level.json': enc.encode(JSON.stringify(level)), [MANNEQUIN]: await read(MANNEQUIN) };
  const scene = world.loadScene(doc, { files });
  const e = (name) => scene.entities.get(name);
  const player = e('player');
  world.insert(player, NavAgent, { navMesh: mesh, driveMode: 'Manual', baseOffset: -0.1, baseLocomotionParam: RUN, movementSpeed: RUN, stoppingDistance: 0.1, turningSpeed: 540 });

  const routes = waypoints(level);
  const npcs = starts.map((_, i) => {
    const npc = e(`npc${i}`);
    const route = [routes[i % routes.length], routes[(i * 7 + 3) % routes.length], routes[(i * 5 + 1) % routes.length]];
    world.insert(npc, NavAgent, { navMesh: mesh, driveMode: 'NavDestination', baseOffset: -0.1, baseLocomotionParam: WALK, movementSpeed: 1.1 + 0.05 * (i % 7), stoppingDistance: 0.3, turningSpeed: 360, destination: route[0], hasDestination: true });
    return { entity: npc, route, leg: 0, legs: 0, name: `npc${i}`, start: starts[i] };
  });

  // Settle everything on the floor, hang the rifle where both hands reach on idle, walk and
  // run, and take one more step so the grip's outputs measure the placed rifle.
  world.step(DT);
  const placement = world.grip.placeTwoHanded(player);
  world.step(DT);

  return new Game(world, scene, level, { player, rifle: e('player.rifle'), npcs, placement, navData, bakeMs, mesh });
}

/** The keys and clicks the game reads each step (main.js fills it from the devices). */
export function emptyInput() {
  return { forward: false, back: false, left: false, right: false, run: false, vault: false, navToggle: false, navClick: null };
}

export class Game {
  constructor(world, scene, level, parts) {
    this.world = world;
    this.scene = scene;
    this.level = level;
    Object.assign(this, parts);
    /** Where the camera looks from, horizontally: the keys move the player relative to it. */
    this.cameraYaw = yawOf(world.get(parts.player, Transform).rotation);
    this.navMode = false;
    this.navTarget = null;
    this.keysIgnored = false;
    this.wallSeconds = Infinity;
    this.vaultRefusal = 'None';
    this.steps = 0;
  }

  /** The direction (unit, world x z) the movement keys ask for, relative to the camera. */
  wishDirection(input) {
    const f = [Math.sin(this.cameraYaw), Math.cos(this.cameraYaw)];
    const r = [-f[1], f[0]]; // the camera's right, on the ground
    const x = (input.forward ? 1 : 0) - (input.back ? 1 : 0);
    const y = (input.right ? 1 : 0) - (input.left ? 1 : 0);
    const d = [f[0] * x + r[0] * y, f[1] * x + r[1] * y];
    const n = Math.hypot(d[0], d[1]);
    return n > 0 ? [d[0] / n, d[1] / n] : null;
  }

  /** One fixed step: the input, then world.step. */
  step(input) {
    const { world, player } = this;
    this.navigation(input);
    this.keys(input);
    this.wallHand();
    this.crowd();
    world.step(DT);
    this.steps++;
    const v = world.get(player, Vault);
    if (v.refusal !== 'None') this.vaultRefusal = v.refusal;
    const agent = world.get(player, NavAgent);
    if (this.navTarget && agent.hasDestination && agent.arrived) {
      // Arrived: the agent lets go, so the keys drive again.
      world.nav.stop(player);
      world.update(player, NavAgent, () => ({ driveMode: 'Manual' }));
      this.arrivedAt = world.get(player, Transform).position;
    }
  }

  /** N toggles click-to-navigate; a click sends the player's NavAgent there. */
  navigation(input) {
    const { world, player } = this;
    if (input.navToggle) {
      this.navMode = !this.navMode;
      if (!this.navMode && world.get(player, NavAgent).driveMode !== 'Manual') {
        world.nav.stop(player);
        world.update(player, NavAgent, () => ({ driveMode: 'Manual' }));
      }
    }
    if (this.navMode && input.navClick) {
      const near = world.nav.nearest(this.mesh, input.navClick);
      if (near && world.get(player, Vault).state === 'Idle') {
        this.navTarget = near.position;
        this.arrivedAt = null;
        world.update(player, NavAgent, () => ({ driveMode: 'NavDestination' }));
        world.nav.setDestination(player, near.position);
      }
    }
  }

  /** WASD + Shift write MoveSpeed and turn the player, unless someone else owns them now
   * (a NavAgent heading for its destination owns MoveSpeed and the moves; a vault the moves). */
  keys(input) {
    const { world, player } = this;
    const wish = this.wishDirection(input);
    const speedOwner = world.inputOwner(player, { param: 'MoveSpeed' });
    const moveOwner = world.inputOwner(player, 'move');
    this.keysIgnored = (speedOwner !== null || moveOwner === 'NavAgent') && wish !== null;
    if (speedOwner === null) world.anim.setParam(player, 'MoveSpeed', wish ? (input.run ? RUN : WALK) : 0);
    if (wish && moveOwner === null) {
      const t = world.get(player, Transform);
      const yaw = yawOf(t.rotation);
      const want = Math.atan2(wish[0], wish[1]);
      const max = (TURN_SPEED * Math.PI) / 180 * DT;
      const turn = Math.max(-max, Math.min(max, wrapAngle(want - yaw)));
      if (turn !== 0) world.update(player, Transform, () => ({ rotation: yawQuat(yaw + turn) }));
    }
    if (input.vault && world.get(player, Vault).state === 'Idle') {
      this.vaultRefusal = 'None';
      world.vault.request(player);
    }
  }

  /** One-handed along walls: with a wall within the free (left) hand's reach the support hand
   * leaves the rifle (GripHolder.supportWeight eased to 0 over the grip's blend time), so
   * EnvironmentInteraction may rest it on the wall; away from walls it takes the rifle again. */
  wallHand() {
    const { world, player } = this;
    const t = world.get(player, Transform);
    const yaw = yawOf(t.rotation);
    const left = [Math.cos(yaw), 0, -Math.sin(yaw)];
    const shoulder = [t.position[0] + left[0] * 0.17, t.position[1] + 1.44, t.position[2] + left[2] * 0.17];
    const hit = world.collide.raycast(shoulder, left, WALL_REACH, { layers: 2 });
    this.wallSeconds = hit ? 0 : this.wallSeconds + DT;
    const g = world.get(player, GripHolder);
    const goal = this.wallSeconds < WALL_HOLD_SECONDS ? 0 : 1;
    const rate = DT / Math.max(g.blendSeconds, DT);
    const next = goal > g.supportWeight ? Math.min(goal, g.supportWeight + rate) : Math.max(goal, g.supportWeight - rate);
    if (next !== g.supportWeight) world.update(player, GripHolder, () => ({ supportWeight: next }));
  }

  /** The crowd: each NPC walks its route, on to the next point once it arrives. */
  crowd() {
    const { world } = this;
    for (const n of this.npcs) {
      const a = world.get(n.entity, NavAgent);
      if (!a.arrived) continue;
      n.leg = (n.leg + 1) % n.route.length;
      n.legs++;
      world.nav.setDestination(n.entity, n.route[n.leg]);
    }
  }

  /** The crowd now: each NPC's distance from where it started, the route legs it finished,
   * whether it carries a prop. */
  crowdStatus() {
    const { world } = this;
    return this.npcs.map((n) => {
      const p = world.get(n.entity, Transform).position;
      return { name: n.name, fromStart: Math.hypot(p[0] - n.start[0], p[2] - n.start[2]), legs: n.legs, carries: world.has(n.entity, GripHolder) };
    });
  }

  /** What the HUD and the tests read. */
  status() {
    const { world, player } = this;
    const ei = world.get(player, EnvironmentInteraction);
    const v = world.get(player, Vault);
    const g = world.get(player, GripHolder);
    const a = world.get(player, NavAgent);
    const t = world.get(player, Transform);
    const cc = world.get(player, CharacterController);
    return {
      step: this.steps,
      position: t.position,
      yaw: yawOf(t.rotation),
      moveSpeed: world.anim.param(player, 'MoveSpeed', { damped: true }),
      grounded: cc.grounded,
      touch: { state: ei.state, side: ei.side, leftWeight: ei.leftWeight, rightWeight: ei.rightWeight, palmDistance: ei.palmDistance },
      vault: { state: v.state, obstacleClass: v.obstacleClass, refusal: this.vaultRefusal, plantedHand: v.plantedHand, handWeight: v.handWeight, vaults: v.vaults },
      grip: { mainDistance: g.mainDistance, supportDistance: g.supportDistance, supportWeight: g.supportWeight, supportRelease: g.supportRelease },
      nav: { mode: this.navMode, driveMode: a.driveMode, hasDestination: a.hasDestination, arrived: a.arrived, remaining: a.remainingDistance, target: this.navTarget, arrivedAt: this.arrivedAt ?? null },
      keysIgnored: this.keysIgnored,
      owner: { move: world.inputOwner(player, 'move'), moveSpeed: world.inputOwner(player, { param: 'MoveSpeed' }) },
    };
  }
}
