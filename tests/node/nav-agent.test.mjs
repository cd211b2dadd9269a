// NavAgent on the nav arena (assets/scenes/nav-arena.json), one agent per drive mode and the
// seed's hard cases, with the figures printed: every agent arrives within its stopping
// distance; every step's position is on the mesh within 1 cm; in Both and RootMotion the feet
// do not slide (the root's displacement per step is the animation's root motion within 1 mm
// unless the mesh clamped it); turning never passes the steering target; a goal right behind
// is reached without circling; a destination right after stop() moves the agent in that same
// step; an unreachable goal ends at the nearest reachable point with pathStatus Partial.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CharacterController, createWorld, NavAgent, Transform, Vault } from '../../dist/web/bridge/index.js';
import { crateCourse, vaultTheCrate } from './crate-course.mjs';

const SCENE = 'assets/scenes/nav-arena.json';
const text = readFileSync(SCENE, 'utf8');
const DT = 1 / 60;
const NAMES = ['walker', 'strider', 'climber', 'turner', 'driver', 'prober'];

const rotate = (q, v) => {
  const [x, y, z, w] = q;
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
};
const yawDeg = (q) => {
  const f = rotate(q, [0, 0, 1]);
  return (Math.atan2(f[0], f[2]) * 180) / Math.PI;
};
const wrap = (a) => ((((a + 180) % 360) + 360) % 360) - 180;
const distXZ = (a, b) => Math.hypot(a[0] - b[0], a[2] - b[2]);

async function load() {
  const world = await createWorld();
  const files = Object.fromEntries(world.sceneFiles(text).map((p) => [p, readFileSync(p)]));
  const scene = world.loadScene(text, { files });
  const e = Object.fromEntries(NAMES.map((n) => [n, scene.entity(n)]));
  return { world, scene, e, mesh: world.nav.find('arena') };
}

test('NavAgent: the nav arena, every drive mode (arrive, on the mesh, no sliding, no overshoot, no circling)', async () => {
  const { world, scene, e, mesh } = await load();
  const stats = Object.fromEntries(NAMES.map((n) => [n, { offMesh: 0, slideMax: 0, clamped: 0, overshoot: 0, turnMax: 0, travelled: 0, toArrival: 0, arrivedAt: -1, steps: 0 }]));
  const turner0 = world.get(e.turner, Transform).position;
  const turnerGoal = world.get(e.turner, NavAgent).destination;
  let paramMismatch = 0;
  for (let step = 0; step < 1200; step++) {
    const before = Object.fromEntries(NAMES.map((n) => [n, { t: world.get(e[n], Transform), a: world.get(e[n], NavAgent) }]));
    scene.step(DT);
    for (const n of NAMES) {
      const s = stats[n];
      const t = world.get(e[n], Transform);
      const a = world.get(e[n], NavAgent);
      const b = before[n];
      // on the mesh: the Transform minus baseOffset is a mesh point (1 cm)
      const p = [t.position[0], t.position[1] - a.baseOffset, t.position[2]];
      const near = world.nav.nearest(mesh, p);
      const off = Math.hypot(near.position[0] - p[0], near.position[1] - p[1], near.position[2] - p[2]);
      s.offMesh = Math.max(s.offMesh, off);
      const moved = distXZ(t.position, b.t.position);
      s.travelled += moved;
      if (s.arrivedAt < 0) s.toArrival += moved;
      // no sliding where root motion moves the character
      if (a.driveMode !== 'NavDestination' && step > 0) {
        const rm = world.anim.rootMotion(e[n]);
        const want = rotate(b.t.rotation, rm.translation);
        const got = [t.position[0] - b.t.position[0], 0, t.position[2] - b.t.position[2]];
        const diff = Math.hypot(got[0] - want[0], got[2] - want[2]);
        if (diff > 1e-3) {
          // clamped by the mesh: shorter than the root motion, never longer
          assert.ok(Math.hypot(got[0], got[2]) <= Math.hypot(want[0], want[2]) + 1e-4, `${n} step ${step}: moved further than its root motion`);
          s.clamped++;
        } else s.slideMax = Math.max(s.slideMax, diff);
      }
      // turning: at most turningSpeed * dt, never past the steering target
      if (a.driveMode !== 'RootMotion') {
        const turned = wrap(yawDeg(t.rotation) - yawDeg(b.t.rotation));
        s.turnMax = Math.max(s.turnMax, Math.abs(turned));
        if (Math.abs(turned) > a.turningSpeed * DT + 1e-3) s.overshoot++;
        if (Math.abs(turned) > Math.abs(a.turnAngle) + 1e-3) s.overshoot++;
        if (Math.abs(turned) > 1e-4 && Math.sign(turned) !== Math.sign(a.turnAngle)) s.overshoot++;
      }
      if (a.driveMode !== 'RootMotion' && Math.abs(world.anim.param(e[n], 'MoveSpeed') - a.locomotionValue) > 1e-6) paramMismatch++;
      if (a.arrived && s.arrivedAt < 0) s.arrivedAt = step;
      s.steps++;
    }
  }
  for (const n of NAMES) {
    const s = stats[n];
    const a = world.get(e[n], NavAgent);
    const t = world.get(e[n], Transform);
    console.log(`${n} (${a.driveMode}): at [${t.position.map((x) => x.toFixed(3))}] ${a.pathStatus}${a.arrived ? ', arrived' : ''} at step ${s.arrivedAt}, remaining ${a.remainingDistance.toFixed(3)} m; off the mesh <= ${(s.offMesh * 1000).toFixed(3)} mm; root motion followed within ${(s.slideMax * 1000).toFixed(4)} mm (${s.clamped} clamped steps); largest turn ${s.turnMax.toFixed(2)} deg/step, ${s.overshoot} overshoots; travelled ${s.travelled.toFixed(3)} m`);
    assert.ok(s.offMesh < 0.01, `${n}: off the mesh by ${s.offMesh} m`);
    assert.ok(s.slideMax <= 1e-3);
    assert.equal(s.overshoot, 0, `${n}: turned past the steering target`);
  }
  assert.equal(paramMismatch, 0, 'the Animator parameter is the agent locomotion value');
  for (const n of ['walker', 'strider', 'climber', 'turner']) {
    const a = world.get(e[n], NavAgent);
    assert.ok(a.arrived, `${n} arrived`);
    assert.equal(a.pathStatus, 'Complete');
    assert.ok(distXZ(world.get(e[n], Transform).position, a.destination) <= a.stoppingDistance + 0.02, `${n} within stopping distance`);
  }
  assert.ok(world.get(e.climber, Transform).position[1] > 0.95, 'climber on the platform');
  // a goal right behind: no circling (travelled within 1.2 x the straight route)
  const straight = distXZ(turner0, turnerGoal);
  const ts = stats.turner;
  console.log(`turner: goal ${straight.toFixed(3)} m right behind, travelled ${ts.toArrival.toFixed(3)} m to arrive (${(ts.toArrival / straight).toFixed(3)} x the straight route) by step ${ts.arrivedAt}`);
  assert.ok(ts.arrivedAt > 0 && ts.toArrival <= 1.2 * straight);
  // driver: walked into obstacle_box_01 and held at its edge by the mesh
  assert.ok(stats.driver.clamped > 10);
  assert.ok(world.get(e.driver, Transform).position[2] < -4.3);
  // prober: unreachable goal (top of a box): Partial, at the nearest reachable point
  const pa = world.get(e.prober, NavAgent);
  const reach = world.nav.findPath(mesh, world.get(e.prober, Transform).position, pa.destination);
  console.log(`prober: unreachable goal [${pa.destination}]: ${pa.pathStatus}, stopped at [${pa.nextPosition.map((x) => x.toFixed(3))}], nearest reachable [${reach.end.position.map((x) => x.toFixed(3))}]`);
  assert.equal(pa.pathStatus, 'Partial');
  assert.ok(pa.arrived);
  assert.ok(distXZ(pa.nextPosition, reach.end.position) <= pa.stoppingDistance + 0.02);
  world.destroy();
});

test('NavAgent: a destination right after stop() moves the agent in the same step; stop holds still', async () => {
  const { world, scene, e } = await load();
  for (let i = 0; i < 30; i++) scene.step(DT);
  const w = e.walker;
  world.nav.stop(w);
  scene.step(DT);
  const held = world.get(w, NavAgent);
  assert.ok(held.stopped);
  assert.deepEqual(held.velocity, [0, 0, 0]);
  const at = world.get(w, Transform).position;
  scene.step(DT);
  assert.deepEqual(world.get(w, Transform).position, at, 'stopped: does not move');
  // the very next step after a new destination moves it (the seed's one-frame delay is gone)
  world.nav.setDestination(w, [-8.5, 0, -8.5]);
  scene.step(DT);
  const go = world.get(w, NavAgent);
  const speed = Math.hypot(...go.velocity);
  console.log(`stop then destination: speed ${speed.toFixed(3)} m/s in the first step after the new destination`);
  assert.ok(!go.stopped && go.hasDestination);
  assert.ok(speed > 1.3, `moving in the same step (${speed} m/s)`);
  // the scene's own timeline does the same through "update" (prober, steps 200 and 201)
  world.destroy();
});

test('NavAgent: bad fields are refused with the field named; the world is unchanged', async () => {
  const { world, e } = await load();
  const before = world.get(e.walker, NavAgent);
  assert.throws(() => world.update(e.walker, NavAgent, (a) => { a.navMesh = 99; }), (err) => err.code === 'LB_ERR_INVALID_ARGUMENT' && /navMesh/.test(err.message));
  assert.throws(() => world.update(e.walker, NavAgent, (a) => { a.turningSpeed = -1; }), (err) => err.code === 'LB_ERR_OUT_OF_RANGE' && /turningSpeed/.test(err.message));
  assert.throws(() => world.update(e.walker, NavAgent, (a) => { a.driveMode = 'Teleport'; }), (err) => /driveMode/.test(err.message));
  assert.throws(() => world.nav.setDestination(e.walker, [NaN, 0, 0]), (err) => err.code === 'LB_ERR_NOT_FINITE');
  assert.deepEqual(world.get(e.walker, NavAgent), before);
  world.destroy();
});

test('NavAgent with a CharacterController (guard): the agent moves it through the controller, up the ramp onto the platform', async () => {
  const { world, scene, mesh } = await load();
  const guard = scene.entity('guard');
  const cc = world.get(guard, CharacterController);
  let worstDepth = 0, offMesh = 0, ungrounded = 0, lag = 0, maxY = 0, arrivedAt = -1, shorter = 0, maxReq = 0;
  for (let step = 0; step < 620; step++) {
    scene.step(DT);
    const t = world.get(guard, Transform);
    const c = world.get(guard, CharacterController);
    const a = world.get(guard, NavAgent);
    // the capsule shrunk by 1 cm overlaps nothing: never more than 1 cm into a collider
    const half = cc.height / 2 - cc.radius;
    const a0 = [t.position[0] + cc.center[0], t.position[1] + cc.center[1] - half, t.position[2] + cc.center[2]];
    const b0 = [a0[0], t.position[1] + cc.center[1] + half, a0[2]];
    if (world.collide.overlapCapsule(a0, b0, cc.radius - 0.01, { exclude: guard }).length > 0) {
      let lo = 0.01, hi = cc.radius;
      for (let i = 0; i < 20; i++) {
        const mid = (lo + hi) / 2;
        if (world.collide.overlapCapsule(a0, b0, cc.radius - mid, { exclude: guard }).length > 0) lo = mid;
        else hi = mid;
      }
      worstDepth = Math.max(worstDepth, lo);
    }
    if (step > 0 && !c.grounded) ungrounded++;
    // over the mesh (from the agent's point along the surface to the Transform's x, z)
    const from = world.nav.nearest(mesh, a.nextPosition);
    const over = world.nav.moveAlongSurface(mesh, from, [t.position[0], t.position[1] - a.baseOffset, t.position[2]]);
    offMesh = Math.max(offMesh, distXZ(over.position, t.position));
    lag = Math.max(lag, distXZ(a.nextPosition, t.position));
    maxY = Math.max(maxY, t.position[1]);
    // the request is the agent's step (1.4 m/s along the path; shorter across x, z on the ramp), never
    // the walk's root motion on top of it
    const req = Math.hypot(c.requested[0], c.requested[2]);
    maxReq = Math.max(maxReq, req);
    if (step > 0 && !a.arrived && req < 1.4 * DT - 1e-4) shorter++;
    if (a.arrived && arrivedAt < 0) arrivedAt = step;
  }
  const t = world.get(guard, Transform);
  const a = world.get(guard, NavAgent);
  const goal = world.nav.nearest(mesh, [8, 1, -8]).position;
  console.log(`guard: arrived at step ${arrivedAt}, ${distXZ(t.position, goal).toFixed(4)} m from the goal, y ${t.position[1].toFixed(3)}; capsule into colliders beyond 1 cm ${worstDepth.toFixed(4)} m; off the mesh <= ${offMesh.toFixed(4)} m; Transform to the agent's point <= ${lag.toFixed(4)} m; ${ungrounded} steps not grounded; request <= ${maxReq.toFixed(5)} m per step (1.4 m/s x dt = ${(1.4 * DT).toFixed(5)}), shorter in ${shorter} steps (the ramp: a 3D step along the path, corners, the end)`);
  assert.ok(arrivedAt > 0 && a.arrived);
  assert.ok(distXZ(t.position, goal) <= a.stoppingDistance + 1e-3);
  assert.ok(Math.abs(t.position[1] - 1.01) < 0.02, `on the platform: y ${t.position[1]}`);
  assert.equal(worstDepth, 0);
  assert.ok(offMesh <= 0.01);
  assert.equal(ungrounded, 0);
  assert.ok(lag <= 0.05);
  assert.ok(maxY < 1.1);
  assert.ok(maxReq <= 1.4 * DT + 1e-5, `the request ${maxReq} is the agent's step alone`);
  world.destroy();
});

test('a Manual agent follows its body over a vaulted crate (a hole in the Recast bake) and a destination then leads on, not back', async () => {
  const world = await createWorld();
  const { level, hero } = await crateCourse(world);
  const steps = vaultTheCrate(world, hero);
  world.step(DT);
  const landed = world.get(hero, Transform).position;
  const a = world.get(hero, NavAgent);
  const lag = distXZ(a.nextPosition, landed);
  assert.equal(world.get(hero, Vault).vaults, 1, 'vaulted the crate');
  assert.ok(landed[2] > 4.2, `past the crate: z ${landed[2]}`);
  // the bake left the crate out: from the near side the far side cannot be reached
  assert.equal(world.nav.findPath(level.navMesh, [0, 0, 2], [0, 0, 7]).status, 'Partial');
  world.update(hero, NavAgent, () => ({ driveMode: 'NavDestination' }));
  world.nav.setDestination(hero, [0, 0, 7]);
  let back = 0;
  let arrived = -1;
  for (let i = 0; i < 300 && arrived < 0; i++) {
    world.step(DT);
    back = Math.max(back, landed[2] - world.get(hero, Transform).position[2]);
    if (world.get(hero, NavAgent).arrived) arrived = i;
  }
  const end = world.get(hero, Transform).position;
  const b = world.get(hero, NavAgent);
  console.log(`crate vaulted in ${steps} steps, landed at z ${landed[2].toFixed(3)}; the Manual agent's point ${lag.toFixed(4)} m from the body (radius ${a.radius}); then to z 7: path ${b.pathStatus}, arrived after ${arrived + 1} steps at z ${end[2].toFixed(3)}, never back toward the crate by more than ${back.toFixed(4)} m`);
  assert.ok(lag <= 1.4 * DT, `the agent's point is on the body (within a step): ${lag}`);
  assert.equal(b.pathStatus, 'Complete');
  assert.ok(arrived >= 0 && Math.abs(end[2] - 7) <= b.stoppingDistance + 0.03);
  assert.ok(back <= 1e-3, `pulled back ${back} m`);
  world.destroy();
});
