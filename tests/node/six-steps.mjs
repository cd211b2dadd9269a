// Issue 32's six steps as a game developer writes them with Limber now: a player on the
// nav-arena level with a CharacterController, holding a rifle in both hands, a hand on the
// walls, vaulting a crate, then navigating. Run from the repository root:
//   node tests/node/six-steps.mjs        (prints one JSON line: what happened)
// In an app the import is from 'limber'; tests/node/six-steps.test.mjs checks the output.
import { readFileSync } from 'node:fs';
import { createWorld, EnvironmentInteraction, GripHolder, NavAgent, Transform, Vault } from '../../dist/web/bridge/index.js';

const DT = 1 / 60;
const file = (path) => readFileSync(path);
const world = await createWorld();

// 1. The level: the nav arena and a crate, the navmesh baked by Recast (the crate is carved out).
const arena = JSON.parse(readFileSync('assets/levels/nav-arena.json', 'utf8'));
arena.pieces.push({ name: 'crate', kind: 'obstacle', shape: 'box', center: [-2.7, 0.375, -7.6], size: [1.6, 0.75, 0.4] });
const level = await world.loadLevel(arena, { navMesh: 'bake' });

// 2. The player: the mannequin, idle / walk / run on a damped MoveSpeed, a CharacterController,
// wall touch, vault, and a NavAgent that follows it until it is sent somewhere.
const locomotion = {
  rig: 'mannequin', rootJoint: 'Hips', entry: 'Locomotion',
  parameters: { MoveSpeed: { type: 'float', default: 0, damp: 0.1 }, Vault: { type: 'trigger' } },
  states: {
    Locomotion: { blend: { parameter: 'MoveSpeed', points: [{ clip: 'idle', value: 0 }, { clip: 'walk', value: 1.4 }, { clip: 'run', value: 3.5 }] } },
    Vault: { clip: 'vault', loop: false, next: 'Locomotion', nextFade: 0.3 },
  },
  transitions: [{ from: 'Locomotion', to: 'Vault', fade: 0.2, conditions: [{ parameter: 'Vault' }] }],
};
const glb = 'assets/rigs/mannequin-mixamo.glb';
const scene = world.loadScene({
  assets: { rigs: { mannequin: { gltf: glb } }, controllers: { locomotion } },
  entities: [{ name: 'hero', components: {
    Transform: { position: [-6, 0, -9.45], rotation: [0, Math.SQRT1_2, 0, Math.SQRT1_2] }, // facing +X, the back wall on its left
    Rig: { asset: 'mannequin' }, Animator: { controller: 'locomotion', applyRootMotion: true },
    CharacterController: { stepOffset: 0.35 }, EnvironmentInteraction: {}, Vault: { hand: 'Left' },
  } }],
}, { files: { [glb]: file(glb) } });
const hero = scene.entity('hero');
world.insert(hero, NavAgent, { navMesh: level.navMesh, driveMode: 'Manual', baseOffset: -0.1, baseLocomotionParam: 1.4, movementSpeed: 1.4 });

// 3. The rifle in both hands, hung where both arms reach on idle, walk and run.
const rifle = await world.loadProp('assets/props/rifle.json');
world.insert(hero, GripHolder, { held: rifle.entity });
world.step(DT);
world.grip.placeTwoHanded(hero);

// 4. Walk along the back wall with the left hand off the rifle: it rests on the wall.
const seen = { touch: 0, vault: [], palm: 0 };
const run = (steps, each = () => {}) => {
  for (let i = 0; i < steps; i++) {
    each();
    world.step(DT);
    const g = world.get(hero, GripHolder);
    if (g.supportWeight === 1 && g.supportRelease === 0) seen.palm = Math.max(seen.palm, g.mainDistance, g.supportDistance);
    if (world.get(hero, EnvironmentInteraction).state === 'Touch') seen.touch++;
    const v = world.get(hero, Vault).state;
    if (seen.vault.at(-1) !== v) seen.vault.push(v);
  }
};
world.anim.setParam(hero, 'MoveSpeed', 1.4);
world.update(hero, GripHolder, () => ({ supportWeight: 0 }));
run(150);
world.update(hero, GripHolder, () => ({ supportWeight: 1 }));

// 5. Turn toward the crate and vault it when it is about a metre ahead.
world.update(hero, Transform, () => ({ rotation: [0, 0, 0, 1] })); // facing +Z
while (world.get(hero, Transform).position[2] < -8.8) run(1); // the crate's near face: z -7.8
world.vault.request(hero);
run(90);
const landed = world.get(hero, Transform).position;

// 6. Click-to-navigate: the agent takes over (it owns MoveSpeed and the moves) and arrives.
const goal = [7.5, 0, 7.5];
world.update(hero, NavAgent, () => ({ driveMode: 'Both' }));
world.nav.setDestination(hero, goal);
let steps = 0;
while (!world.get(hero, NavAgent).arrived && steps++ < 1500) run(1);
world.nav.stop(hero);

const end = world.get(hero, Transform).position;
const miss = Math.hypot(end[0] - goal[0], end[2] - goal[2]);
console.log(JSON.stringify({ touchSteps: seen.touch, vault: seen.vault, landedZ: landed[2], arrivedAfter: steps, miss, worstPalm: seen.palm }));
