// The crowd scene (assets/scenes/crowd.json: 100 NavAgents crossing the nav arena both ways)
// in Limber, and its starts and goals in Detour Crowd (@recast-navigation/core's Crowd, the
// RecastDemo crowd tool's settings: acceleration 8 m/s², query range 12 radii, path optimisation
// range 30 radii, separation weight 2, high-quality adaptive sampling, every update flag), at
// 60 Hz for at most 60 s. Per step: pairs closer than the sum of radii less 5 cm, who has come
// within one radius (0.3 m) of their goal (Detour's agents have no stopping distance, so both
// are timed the same way), and in Limber the height over the navmesh and the distance off it.
// Both are printed side by side. Limber: no step with a pair deeper than 5 cm, every agent
// arrives (NavAgent.arrived, within its 0.1 m stopping distance), mean arrival within 1.2 times
// Detour's mean over the agents Detour brings home.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Crowd } from '@recast-navigation/core';
import { bakeDetourNavMesh, createWorld, NavAgent, Transform } from '../../dist/web/bridge/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DT = 1 / 60;
const MAX_STEPS = 60 * 60;
const RADIUS = 0.3;
const DEEP = 0.05; // metres into each other that count as a collision
const HOME = 0.3; // within this of the goal counts as arrived for the timing (both)
const read = (p) => readFileSync(join(root, p), 'utf8');

/** Per step: the deepest pair and whether any pair is deeper than DEEP; arrival times. */
function tracker(goals) {
  const n = goals.length;
  const home = new Array(n).fill(-1);
  const s = { deepSteps: 0, deepest: 0, home };
  s.step = (step, P) => {
    let deep = false;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const depth = 2 * RADIUS - Math.hypot(P[i][0] - P[j][0], P[i][2] - P[j][2]);
        s.deepest = Math.max(s.deepest, depth);
        if (depth > DEEP) deep = true;
      }
      if (home[i] < 0 && Math.hypot(P[i][0] - goals[i][0], P[i][2] - goals[i][2]) <= HOME) home[i] = step * DT;
    }
    if (deep) s.deepSteps++;
    return home.every((t) => t >= 0);
  };
  s.summary = () => {
    const t = home.filter((x) => x >= 0);
    return { arrived: t.length, mean: t.reduce((a, b) => a + b, 0) / Math.max(t.length, 1), max: t.length ? Math.max(...t) : 0 };
  };
  return s;
}

async function runLimber(text) {
  const world = await createWorld();
  const files = Object.fromEntries(world.sceneFiles(text).map((p) => [p, readFileSync(join(root, p))]));
  const scene = world.loadScene(text, { files });
  const mesh = world.nav.find('arena');
  const spec = JSON.parse(text).entities;
  const es = spec.map((e) => scene.entity(e.name));
  const goals = spec.map((e) => world.nav.nearest(mesh, e.components.NavAgent.destination).position);
  const tr = tracker(goals);
  const off = es.map((e) => world.get(e, NavAgent).baseOffset);
  let above = 0, offMesh = 0, steps = 0, allArrived = -1;
  const t0 = performance.now();
  for (let step = 1; step <= MAX_STEPS; step++) {
    scene.step(DT);
    const P = es.map((e) => world.get(e, Transform).position);
    for (let i = 0; i < es.length; i++) {
      const on = world.nav.nearest(world.get(es[i], NavAgent).navMesh, [P[i][0], P[i][1] - off[i], P[i][2]]);
      above = Math.max(above, P[i][1] - off[i] - on.position[1]);
      offMesh = Math.max(offMesh, Math.hypot(on.position[0] - P[i][0], on.position[2] - P[i][2]));
    }
    const allHome = tr.step(step, P);
    steps = step;
    if (allArrived < 0 && es.every((e) => world.get(e, NavAgent).arrived)) allArrived = step;
    if (allHome && allArrived > 0) break;
  }
  const ms = performance.now() - t0;
  return { ...tr.summary(), deepSteps: tr.deepSteps, deepest: tr.deepest, above, offMesh, steps, allArrived, msPerStep: ms / steps, spec };
}

async function runDetour(spec) {
  const level = JSON.parse(read('assets/levels/nav-arena.json'));
  const { detour } = await bakeDetourNavMesh(level);
  const crowd = new Crowd(detour, { maxAgents: spec.length, maxAgentRadius: 2 * RADIUS });
  const v = (p) => ({ x: p[0], y: p[1], z: p[2] });
  const params = { radius: RADIUS, height: 1.8, maxSpeed: 1.4, maxAcceleration: 8, collisionQueryRange: RADIUS * 12, pathOptimizationRange: RADIUS * 30, separationWeight: 2, obstacleAvoidanceType: 3, updateFlags: 31 };
  const agents = spec.map((e) => crowd.addAgent(v(e.components.Transform.position), params));
  const goals = spec.map((e) => {
    const q = crowd.navMeshQuery.findClosestPoint(v(e.components.NavAgent.destination)).point;
    return [q.x, q.y, q.z];
  });
  agents.forEach((a, i) => a.requestMoveTarget(v(goals[i])));
  const tr = tracker(goals);
  let steps = 0;
  for (let step = 1; step <= MAX_STEPS; step++) {
    crowd.update(DT);
    steps = step;
    if (tr.step(step, agents.map((a) => { const p = a.position(); return [p.x, p.y, p.z]; }))) break;
  }
  crowd.destroy();
  return { ...tr.summary(), deepSteps: tr.deepSteps, deepest: tr.deepest, steps };
}

test('crowd: 100 agents cross the nav arena both ways; no pair 5 cm deep, all arrive, as fast as Detour Crowd', async () => {
  const ours = await runLimber(read('assets/scenes/crowd.json'));
  const theirs = await runDetour(ours.spec);
  const row = (k, a, b) => console.log(`${k.padEnd(34)}${String(a).padStart(12)}${String(b).padStart(14)}`);
  row('crowd.json, 100 agents, 60 Hz', 'Limber', 'Detour Crowd');
  row(`steps with a pair > ${DEEP * 100} cm deep`, ours.deepSteps, theirs.deepSteps);
  row('deepest pair (m)', ours.deepest.toFixed(3), theirs.deepest.toFixed(3));
  row(`within ${HOME} m of the goal`, `${ours.arrived}/100`, `${theirs.arrived}/100`);
  row('mean arrival (s)', ours.mean.toFixed(2), theirs.mean.toFixed(2));
  row('max arrival (s)', ours.max.toFixed(2), theirs.max.toFixed(2));
  row('steps run', ours.steps, theirs.steps);
  console.log(`Limber: every agent arrived (within 0.1 m) at step ${ours.allArrived}; highest ${ours.above.toFixed(4)} m above the navmesh, off it by <= ${ours.offMesh.toFixed(4)} m; ${ours.msPerStep.toFixed(2)} ms per step (wasm, rigs and animators included)`);
  assert.equal(ours.deepSteps, 0, 'no step with a pair deeper than 5 cm');
  assert.equal(ours.arrived, 100);
  assert.ok(ours.allArrived > 0, 'every NavAgent reports arrived');
  assert.ok(ours.mean <= 1.2 * theirs.mean, `mean arrival ${ours.mean.toFixed(2)} s within 1.2 x Detour's ${theirs.mean.toFixed(2)} s`);
  assert.ok(ours.above <= 0.05, `y at most 5 cm above the navmesh (${ours.above})`);
  assert.ok(ours.offMesh <= 0.01, `off the mesh by at most 1 cm (${ours.offMesh})`);
});

test('world.nav.avoidance: the neighbours an agent avoided and its path velocity; refuses what is not an agent', async () => {
  const world = await createWorld();
  const mesh = world.nav.addMesh({ format: 'limber-navmesh', version: 1,
    vertices: [[-5, 0, -5], [-5, 0, 5], [5, 0, 5], [5, 0, -5]], polygons: [[0, 1, 2, 3]], neighbours: [[-1, -1, -1, -1]] });
  const a = world.spawn(), b = world.spawn(), lone = world.spawn();
  world.insert(a, Transform, { position: [-3, 0, 0] });
  world.insert(b, Transform, { position: [3, 0, 0] });
  world.insert(lone, Transform, { position: [0, 0, 4.5] });
  world.insert(a, NavAgent, { navMesh: mesh, destination: [3, 0, 0], hasDestination: true });
  world.insert(b, NavAgent, { navMesh: mesh, destination: [-3, 0, 0], hasDestination: true });
  world.insert(lone, NavAgent, { navMesh: mesh });
  assert.deepEqual(world.nav.avoidance(a), { neighbours: [], preferredVelocity: [0, 0, 0] }, 'before the first step');
  let seen = null;
  for (let i = 0; i < 120 && !seen; i++) {
    world.step(1 / 60);
    const av = world.nav.avoidance(a);
    const agent = world.get(a, NavAgent);
    if (agent.desiredVelocity[0] !== av.preferredVelocity[0]) seen = { av, agent, step: i + 1 };
  }
  assert.ok(seen, 'avoidance turned a within 2 s of b');
  console.log(`step ${seen.step}: a avoided ${JSON.stringify(seen.av.neighbours)} (b = ${b}, lone = ${lone}); path velocity ${seen.av.preferredVelocity.map((v) => v.toFixed(3)).join(' ')}, desired ${seen.agent.desiredVelocity.map((v) => v.toFixed(3)).join(' ')}`);
  assert.ok(seen.av.neighbours.includes(b));
  assert.equal(seen.av.neighbours.length, seen.agent.neighbours);
  assert.ok(Math.abs(Math.hypot(...seen.av.preferredVelocity) - 1.4) < 1e-5, 'the path velocity is movementSpeed toward the goal');
  assert.ok(seen.av.preferredVelocity[0] > 1.39);
  const hash = world.hash();
  const plain = world.spawn();
  assert.throws(() => world.nav.avoidance(plain), (e) => e.code === 'LB_ERR_MISSING_COMPONENT' && /has no NavAgent/.test(e.message));
  world.despawn(plain);
  assert.throws(() => world.nav.avoidance(plain), (e) => e.code === 'LB_ERR_STALE_ENTITY');
  assert.equal(world.hash(), hash, 'the refused calls changed nothing');
});
