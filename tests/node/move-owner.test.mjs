// One owner of movement (docs/architecture.md, "Who writes what"): a game that sets the
// locomotion parameter (MoveSpeed) and calls moveController every step while a NavAgent
// drives the character, in each drive mode, on a flat floor with the Mixamo mannequin and a
// CharacterController. NavDestination and Both with a destination: the agent owns both, the
// game's writes throw LB_ERR_BUSY naming the entity, the input and the NavAgent, the world is
// unchanged, and the character keeps the agent's speed with no sideways drift. RootMotion and
// Manual: the game owns them; in Manual the agent writes nothing at all (the same Transforms
// and hash as a world without it). A stopped agent gives them back. A vault under way owns
// the movement requests the same way.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Animator, CharacterController, Collider, createWorld, entityLabel, LimberError, NavAgent, Transform, Vault } from '../../dist/web/bridge/index.js';

const DT = 1 / 60;
const RIG = 'assets/rigs/mannequin-mixamo.glb';
const controller = JSON.parse(readFileSync('assets/scenes/nav-arena.json', 'utf8')).assets.controllers.locomotion;
const files = { [RIG]: readFileSync(RIG) };
// 40 x 40 m, one polygon: every path is a straight line
const FLAT = { format: 'limber-navmesh', version: 1, vertices: [[-20, 0, -20], [-20, 0, 20], [20, 0, 20], [20, 0, -20]], polygons: [[0, 1, 2, 3]], neighbours: [[-1, -1, -1, -1]] };
const GOAL = [0, 0, 18];
const SIDE = [0.3 * DT, 0, 0]; // the game's sideways push, 0.3 m/s

async function setup(driveMode, { agent = true, rootMotion = driveMode !== 'NavDestination' } = {}) {
  const world = await createWorld();
  const scene = world.loadScene({
    assets: { rigs: { mannequin: { gltf: RIG } }, controllers: { locomotion: controller } },
    entities: [
      { name: 'floor', components: { Transform: { position: [0, -0.05, 0] }, Collider: { shape: 'Box', size: [40, 0.1, 40] } } },
      { name: 'hero', components: { Transform: {}, Rig: { asset: 'mannequin' }, Animator: { controller: 'locomotion', applyRootMotion: rootMotion } } },
    ],
  }, { files });
  const hero = scene.entity('hero');
  world.insert(hero, CharacterController, { radius: 0.3, height: 1.8, center: [0, 0.9, 0] });
  if (agent) {
    const mesh = world.nav.addMesh(FLAT, 'flat');
    world.insert(hero, NavAgent, { navMesh: mesh, driveMode, baseLocomotionParam: 1.4, movementSpeed: 1.4, destination: GOAL, hasDestination: true });
  }
  return { world, hero };
}

/** 1 s to get going, then 2 s with the game writing MoveSpeed 3.5 and pushing sideways every
 * step; returns the speed along the lane, the sideways drift and what the writes did. */
function race(world, hero, { param = true, move = true, damp } = {}) {
  for (let i = 0; i < 60; i++) world.step(DT);
  const p0 = world.get(hero, Transform).position;
  const errors = [];
  let accepted = 0;
  for (let i = 0; i < 120; i++) {
    for (const [on, write] of [[param, () => world.anim.setParam(hero, 'MoveSpeed', 3.5, damp === undefined ? {} : { damp })], [move, () => world.controller.move(hero, SIDE)]]) {
      if (!on) continue;
      try {
        write();
        accepted++;
      } catch (e) {
        errors.push(e);
      }
    }
    world.step(DT);
  }
  const p1 = world.get(hero, Transform).position;
  return { speed: (p1[2] - p0[2]) / 2, drift: Math.abs(p1[0] - p0[0]), errors, accepted };
}

for (const mode of ['NavDestination', 'Both']) {
  test(`${mode} with a destination owns MoveSpeed and the movement requests: the game's writes are refused, the agent's speed holds, no drift`, async () => {
    const { world, hero } = await setup(mode);
    const free = race(world, hero, { param: false, move: false });
    world.destroy();
    const game = await setup(mode);
    const r = race(game.world, game.hero);
    const a = game.world.get(game.hero, NavAgent);
    console.log(`${mode}: agent alone ${free.speed.toFixed(3)} m/s; with the game's MoveSpeed 3.5 + 0.3 m/s sideways every step: ${r.speed.toFixed(3)} m/s, drift ${r.drift.toFixed(4)} m over 2 s, ${r.errors.length} writes refused, ${r.accepted} taken; MoveSpeed ${game.world.anim.param(game.hero, 'MoveSpeed').toFixed(3)} = locomotionValue ${a.locomotionValue.toFixed(3)}`);
    console.log(`  ${r.errors[0].message}`);
    assert.equal(r.accepted, 0);
    assert.equal(r.errors.length, 240);
    for (const e of r.errors) {
      assert.ok(e instanceof LimberError && e.code === 'LB_ERR_BUSY', e.message);
      assert.ok(e.message.includes(entityLabel(game.hero)), `names the entity: ${e.message}`);
      assert.ok(e.message.includes('owned by its NavAgent'), `names the owner: ${e.message}`);
      assert.ok(/parameter 'MoveSpeed'|field 'move'/.test(e.message), `names the input: ${e.message}`);
    }
    assert.ok(Math.abs(r.speed - 1.4) < 0.02, `the agent's speed: ${r.speed} m/s`);
    assert.ok(Math.abs(r.speed - free.speed) < 1e-3, 'the same as with no game writes');
    assert.ok(r.drift < 0.01, `sideways drift ${r.drift} m`);
    assert.equal(game.world.anim.param(game.hero, 'MoveSpeed'), a.locomotionValue);
    assert.equal(game.world.inputOwner(game.hero, 'move'), 'NavAgent');
    assert.equal(game.world.inputOwner(game.hero, { param: 'MoveSpeed' }), 'NavAgent');
    assert.equal(game.world.inputOwner(game.hero, { param: 'Vault' }), null, 'other parameters stay the game\'s');
    game.world.destroy();
  });
}

test('a refused write changes nothing: the parameter, the move field, the hash after the next step', async () => {
  const a = await setup('Both');
  const b = await setup('Both');
  for (let i = 0; i < 30; i++) {
    a.world.step(DT);
    b.world.step(DT);
  }
  const before = { p: a.world.anim.param(a.hero, 'MoveSpeed'), c: a.world.get(a.hero, CharacterController) };
  assert.throws(() => a.world.anim.setParam(a.hero, 'MoveSpeed', 3.5, { damp: 0.2 }), (e) => e.code === 'LB_ERR_BUSY');
  assert.throws(() => a.world.controller.move(a.hero, [1, 0, 0]), (e) => e.code === 'LB_ERR_BUSY');
  assert.throws(() => a.world.update(a.hero, CharacterController, (c) => { c.move = [1, 0, 0]; }), (e) => e.code === 'LB_ERR_BUSY' && /CharacterController on entity .*field 'move'.*NavAgent/.test(e.message));
  a.world.update(a.hero, CharacterController, (c) => { c.stepOffset = c.stepOffset; }); // other fields stay writable
  assert.equal(a.world.anim.param(a.hero, 'MoveSpeed'), before.p);
  assert.deepEqual(a.world.get(a.hero, CharacterController), before.c);
  a.world.step(DT);
  b.world.step(DT);
  assert.equal(a.world.hash(), b.world.hash());
  a.world.destroy();
  b.world.destroy();
});

test('RootMotion: the game owns MoveSpeed and the moves (the agent only clamps onto the mesh)', async () => {
  const { world, hero } = await setup('RootMotion');
  assert.equal(world.inputOwner(hero, 'move'), null);
  // damp 0: the game asks for the speed at once, so the 2 s window measures the run clip's root
  // motion rather than the controller's 0.1 s MoveSpeed spring catching up
  const r = race(world, hero, { damp: 0 });
  console.log(`RootMotion: the game's MoveSpeed 3.5 + 0.3 m/s sideways: ${r.speed.toFixed(3)} m/s, sideways ${r.drift.toFixed(3)} m over 2 s, ${r.errors.length} refused`);
  assert.equal(r.errors.length, 0);
  assert.ok(Math.abs(r.speed - 3.5) < 0.05, `the run clip's root motion: ${r.speed}`);
  assert.ok(Math.abs(r.drift - 0.6) < 0.02, `the game's push: ${r.drift}`);
  assert.equal(world.anim.param(hero, 'MoveSpeed'), 3.5);
  world.destroy();
});

test('Manual: the game steers by desiredVelocity; the agent writes nothing (same Transforms and hash as without it)', async () => {
  // the game moves the character by moveController and animates it by MoveSpeed (root motion
  // off: one mover, as in NavDestination)
  const m = await setup('Manual', { rootMotion: false });
  const bare = await setup('Manual', { agent: false, rootMotion: false });
  let maxDiff = 0;
  let steps = 0;
  for (; steps < 900 && !m.world.get(m.hero, NavAgent).arrived; steps++) {
    // the game's steering: the agent's desired velocity as a controller move, its locomotion
    // value as MoveSpeed (the character faces +Z already: the goal is straight ahead)
    const a = m.world.get(m.hero, NavAgent);
    const move = a.desiredVelocity.map((v) => v * DT);
    if (steps > 0) {
      assert.ok(Math.abs(Math.hypot(...a.desiredVelocity) - 1.4) < 1e-4 || a.remainingDistance < 1.4 * DT + 1e-4, `desired speed ${Math.hypot(...a.desiredVelocity)}`);
    }
    const was = m.world.get(m.hero, Transform).position;
    for (const w of [m, bare]) {
      w.world.anim.setParam(w.hero, 'MoveSpeed', a.locomotionValue);
      w.world.controller.move(w.hero, move);
      w.world.step(DT);
    }
    const t = m.world.get(m.hero, Transform);
    const u = bare.world.get(bare.hero, Transform);
    assert.deepEqual(t, u, `step ${steps}: the agent wrote the Transform`);
    assert.equal(m.world.anim.param(m.hero, 'MoveSpeed'), bare.world.anim.param(bare.hero, 'MoveSpeed'));
    // the agent's point: where the Transform was when it ran (before the controller's move)
    const np = m.world.get(m.hero, NavAgent).nextPosition;
    maxDiff = Math.max(maxDiff, Math.hypot(np[0] - was[0], np[2] - was[2]));
  }
  const a = m.world.get(m.hero, NavAgent);
  const t = m.world.get(m.hero, Transform);
  console.log(`Manual: the game followed desiredVelocity to the goal in ${steps} steps (${(steps * DT).toFixed(2)} s for ${GOAL[2]} m), at z ${t.position[2].toFixed(3)}; the agent's point follows the Transform within ${maxDiff.toExponential(2)} m (x, z); hash ${m.world.hash()} = ${bare.world.hash()}`);
  assert.ok(a.arrived && a.pathStatus === 'Complete');
  assert.ok(Math.abs(t.position[2] - GOAL[2]) <= a.stoppingDistance + 0.01);
  assert.ok(maxDiff < 1e-4);
  assert.equal(m.world.hash(), bare.world.hash());
  // no game input: the agent moves nothing and sets nothing
  m.world.anim.setParam(m.hero, 'MoveSpeed', 0.7);
  m.world.nav.setDestination(m.hero, [0, 0, 0]);
  const at = m.world.get(m.hero, Transform);
  for (let i = 0; i < 30; i++) m.world.step(DT);
  assert.deepEqual(m.world.get(m.hero, Transform).rotation, at.rotation, 'no turning');
  assert.equal(m.world.anim.param(m.hero, 'MoveSpeed'), Math.fround(0.7), 'the game\'s value stays');
  assert.ok(m.world.get(m.hero, NavAgent).turnAngle !== 0, 'the angle to turn is reported');
  m.world.destroy();
  bare.world.destroy();
});

test('stopNavAgent gives the inputs back: the game\'s MoveSpeed and moves are taken and kept; untouched, MoveSpeed rests at 0', async () => {
  const { world, hero } = await setup('Both');
  for (let i = 0; i < 60; i++) world.step(DT);
  world.nav.stop(hero);
  assert.equal(world.inputOwner(hero, 'move'), null);
  world.anim.setParam(hero, 'MoveSpeed', 0.7);
  world.controller.move(hero, [0.1, 0, 0]);
  world.step(DT);
  world.step(DT);
  assert.equal(world.anim.param(hero, 'MoveSpeed'), Math.fround(0.7), 'the agent does not overwrite the game\'s value');
  world.nav.setDestination(hero, GOAL);
  assert.equal(world.inputOwner(hero, 'move'), 'NavAgent');
  world.step(DT);
  assert.notEqual(world.anim.param(hero, 'MoveSpeed'), Math.fround(0.7));
  world.nav.stop(hero);
  world.step(DT);
  assert.equal(world.anim.param(hero, 'MoveSpeed'), 0, 'left at rest when the game did not write it');
  // switching to Manual gives them back too
  world.nav.setDestination(hero, GOAL);
  world.update(hero, NavAgent, (a) => { a.driveMode = 'Manual'; });
  assert.equal(world.inputOwner(hero, { param: 'MoveSpeed' }), null);
  world.destroy();
});

test('a scene timeline that sets an owned parameter fails that step with LB_ERR_BUSY and changes nothing', async () => {
  const world = await createWorld();
  const scene = world.loadScene({
    assets: { rigs: { mannequin: { gltf: RIG } }, controllers: { locomotion: controller } },
    entities: [{ name: 'hero', components: { Transform: {}, Rig: { asset: 'mannequin' }, Animator: { controller: 'locomotion' } } }],
    timeline: [{ step: 2, param: { entity: 'hero', name: 'MoveSpeed', value: 3.5 } }],
  }, { files });
  const hero = scene.entity('hero');
  world.insert(hero, NavAgent, { navMesh: world.nav.addMesh(FLAT), driveMode: 'Both', destination: GOAL, hasDestination: true });
  scene.step(DT);
  scene.step(DT);
  const before = { p: world.anim.param(hero, 'MoveSpeed'), h: world.hash() };
  assert.throws(() => scene.step(DT), (e) => e.code === 'LB_ERR_BUSY' && /timeline/.test(e.message) && /NavAgent/.test(e.message));
  assert.equal(world.anim.param(hero, 'MoveSpeed'), before.p);
  assert.equal(world.hash(), before.h);
  world.destroy();
});

test('a vault under way owns the movement requests: moveController is refused naming the Vault, taken again once it has landed', async () => {
  const world = await createWorld();
  const box = (position, size) => {
    const e = world.spawn();
    world.insert(e, Transform, { position });
    world.insert(e, Collider, { shape: 'Box', size });
    return e;
  };
  box([0, -0.05, 3], [4, 0.1, 8]);
  box([0, 0.375, 1.2], [1.6, 0.75, 0.4]);
  const hero = world.spawn();
  world.insert(hero, Transform, {});
  world.insert(hero, CharacterController, {});
  world.insert(hero, Vault, {});
  world.step(DT);
  world.vault.request(hero);
  world.step(DT);
  assert.equal(world.get(hero, Vault).state, 'Vaulting');
  assert.equal(world.inputOwner(hero, 'move'), 'Vault');
  assert.equal(world.inputOwner(hero, { param: 'MoveSpeed' }), null, 'a vault owns no parameter');
  let refused = 0, steps = 0, message = '';
  while (world.get(hero, Vault).state !== 'Idle' && steps++ < 300) {
    assert.throws(() => world.controller.move(hero, SIDE), (e) => {
      message = e.message;
      return e.code === 'LB_ERR_BUSY' && e.message.includes(entityLabel(hero)) && /owned by its Vault/.test(e.message);
    });
    refused++;
    world.step(DT);
  }
  const x = world.get(hero, Transform).position[0];
  console.log(`vault: ${refused} moves refused during the vault (${message}); sideways ${x} m`);
  assert.ok(refused > 30);
  assert.equal(x, 0, 'no sideways drift');
  assert.equal(world.inputOwner(hero, 'move'), null);
  world.controller.move(hero, SIDE);
  world.step(DT);
  assert.ok(world.get(hero, Transform).position[0] > 0, 'taken once landed');
  world.destroy();
});

test('inputOwner: bad input is a typed error', async () => {
  const { world, hero } = await setup('Both');
  assert.throws(() => world.inputOwner(hero, 'jump'), (e) => e.code === 'LB_ERR_INVALID_ARGUMENT' && /input/.test(e.message));
  assert.throws(() => world.inputOwner(hero, { param: 3 }), (e) => e.code === 'LB_ERR_INVALID_ARGUMENT');
  assert.throws(() => world.inputOwner(12345, 'move'), (e) => e.code === 'LB_ERR_STALE_ENTITY');
  assert.equal(world.get(hero, Animator).controller > 0, true);
  world.destroy();
});
