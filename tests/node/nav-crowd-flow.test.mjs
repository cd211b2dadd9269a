// Both-mode crowds in counter-flow: npc-crowd's 48 NPCs (tests/scenes/npc-crowd.json: Animator with
// root motion, CharacterController, Vault probe, EnvironmentInteraction, a NavAgent in Both mode;
// starts and goals every other one of the crowd scene's, both ways across the nav arena) without
// their rifles, 30 s at 60 Hz, against the same NPCs in NavDestination. Per step: the deepest
// pair (two 0.3 m capsules less their distance), how far a Transform is off the navmesh (XZ), and
// the first step each NavAgent reports `arrived`. Takes about 15 s.
//
// Before the fix (docs/navigation.md, Avoidance, "Both and root motion"), 25 of 48 arrived (mean
// 13.73 s) and the rest stood in two knots at 0.01-0.09 m/s, ten neighbours each: ORCA read every
// Both agent's velocity as measured from its root motion (a step behind its choice, along a facing
// still turning, at a crawl pointed anywhere by the idle clip's sway), walked the whole chosen
// speed along that turning facing, and an arrived Both agent stood as a post on its goal, never
// stepping aside, so the agents with goals behind it never got there. Limits here: at least 46 of
// 48 in 30 s, mean arrival within 1.3 times NavDestination's, no pair deeper than 5 cm, no
// Transform off the mesh by more than one step of walking (the controller moves after the
// agent's clamp: 1.4 m/s / 60 = 2.33 cm), and NavDestination as before (48/48, 8.81 s).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createWorld, NavAgent, Transform } from '../../dist/web/bridge/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DT = 1 / 60;
const STEPS = 30 * 60;
const RADIUS = 0.3; // the CharacterController's, which avoidance takes (avoidanceRadius 0)

/** npc-crowd's NPCs without props, in a drive mode, with or without their controllers. */
function crowdScene(driveMode, controller) {
  const spec = JSON.parse(readFileSync(join(root, 'tests/scenes/npc-crowd.json'), 'utf8'));
  spec.entities = spec.entities.filter((e) => e.components.NavAgent);
  for (const e of spec.entities) {
    delete e.components.GripHolder;
    e.components.NavAgent.driveMode = driveMode;
    if (!controller) {
      delete e.components.CharacterController;
      delete e.components.Vault; // its probe casts the controller's capsule
    }
  }
  return JSON.stringify(spec);
}

async function run(text) {
  const world = await createWorld();
  const files = Object.fromEntries(world.sceneFiles(text).map((p) => [p, readFileSync(join(root, p))]));
  const scene = world.loadScene(text, { files });
  const mesh = world.nav.find('arena');
  const es = JSON.parse(text).entities.map((e) => scene.entity(e.name));
  const off = es.map((e) => world.get(e, NavAgent).baseOffset);
  const n = es.length;
  const at = new Array(n).fill(-1);
  let deepest = -Infinity, offMesh = 0;
  for (let step = 1; step <= STEPS; step++) {
    scene.step(DT);
    const P = es.map((e) => world.get(e, Transform).position);
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) deepest = Math.max(deepest, 2 * RADIUS - Math.hypot(P[i][0] - P[j][0], P[i][2] - P[j][2]));
      if (at[i] < 0 && world.get(es[i], NavAgent).arrived) at[i] = step * DT;
      const on = world.nav.nearest(mesh, [P[i][0], P[i][1] - off[i], P[i][2]]);
      offMesh = Math.max(offMesh, Math.hypot(on.position[0] - P[i][0], on.position[2] - P[i][2]));
    }
  }
  const t = at.filter((x) => x >= 0);
  return { n, arrived: t.length, mean: t.reduce((a, b) => a + b, 0) / Math.max(t.length, 1), max: t.length ? Math.max(...t) : 0, deepest, offMesh };
}

test('npc-crowd in Both mode flows like NavDestination: >= 46/48 home in 30 s, mean within 1.3x, no pair 5 cm deep, on the mesh', async () => {
  const both = await run(crowdScene('Both', true));
  const dest = await run(crowdScene('NavDestination', true));
  const bare = await run(crowdScene('Both', false));
  const row = (k, r) => console.log(`${k.padEnd(30)} ${String(r.arrived).padStart(2)}/${r.n}  mean ${r.mean.toFixed(2)} s  max ${r.max.toFixed(2)} s  deepest ${r.deepest.toFixed(4)} m  off mesh ${r.offMesh.toFixed(4)} m`);
  row('Both + CharacterController', both);
  row('NavDestination + controller', dest);
  row('Both, no controller', bare);
  assert.ok(both.arrived >= 46, `Both + controller: ${both.arrived}/48 arrived in 30 s (at least 46)`);
  assert.ok(both.mean <= 1.3 * dest.mean, `Both mean arrival ${both.mean.toFixed(2)} s within 1.3 x NavDestination's ${dest.mean.toFixed(2)} s`);
  assert.ok(both.deepest <= 0.05, `Both + controller: deepest pair ${both.deepest.toFixed(4)} m (at most 5 cm)`);
  assert.ok(both.offMesh <= 1.4 * DT + 1e-3, `Both + controller: a Transform off the mesh by ${both.offMesh.toFixed(4)} m (one step of walking at most)`);
  // NavDestination's avoidance is unchanged by the fix: the numbers it had before
  assert.equal(dest.arrived, 48);
  assert.ok(Math.abs(dest.mean - 8.81) < 0.01, `NavDestination mean ${dest.mean.toFixed(3)} s (8.81 before)`);
  assert.ok(dest.deepest <= 0 && dest.offMesh <= 0.01, `NavDestination: deepest ${dest.deepest.toFixed(4)} m, off the mesh ${dest.offMesh.toFixed(4)} m`);
  // without controllers nothing holds two bodies apart but avoidance itself
  assert.ok(bare.arrived >= 46, `Both without controller: ${bare.arrived}/48 arrived`);
  assert.ok(bare.mean <= 1.3 * dest.mean, `Both without controller: mean ${bare.mean.toFixed(2)} s`);
  assert.ok(bare.deepest <= 0.055, `Both without controller: deepest pair ${bare.deepest.toFixed(4)} m`);
});
