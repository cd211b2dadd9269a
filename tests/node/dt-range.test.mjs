// The step's dt range, on every stored scene: dt = 0 or [1e-6, 1] s steps, anything else
// (denormals, 1e-30, 5e-7, negative, above 1) is refused with LB_ERR_OUT_OF_RANGE and changes
// nothing; after steps at every accepted dt every field of every scene entity's components is
// finite and inside its schema range, and the reported horizontal speeds stay those of a
// character.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { createWorld, LimberError } from '../../dist/web/bridge/index.js';

const scenes = [...new Set(Object.keys(JSON.parse(readFileSync('tests/expected-hashes.json', 'utf8'))).map((k) => k.split('@')[0]))];
const REFUSED = [1e-45, 1e-40, 1e-38, 1e-30, 1e-10, 9.99e-7, -1e-40, -1e-6, 1.01, Infinity, NaN];
const ACCEPTED = [1e-6, 1e-5, 1e-4, 1e-3, 1 / 240, 1 / 60, 0.1, 0.5, 1, 0];
/** Number fields with a range: F32, Vec3, Quat (entity, asset and name fields are ids). */
const RANGED = new Set([0, 4, 5]);

async function load(file) {
  const world = await createWorld();
  const text = readFileSync(file.includes('/') ? file : `assets/scenes/${file}`, 'utf8'); // a test-only scene names its folder
  const files = Object.fromEntries(world.sceneFiles(text).map((p) => [p, readFileSync(p)]));
  return { world, scene: world.loadScene(text, { files }) };
}

/** Every float of every component of the scene's entities: [label, value, field]. */
function* floats(world, scene) {
  for (const [name, e] of scene.entities) {
    if (!world.alive(e)) continue;
    for (const c of world.components) {
      if (!world.has(e, c)) continue;
      const v = world.get(e, c);
      for (const f of c.fields) {
        const x = v[f.name];
        if (!RANGED.has(f.type)) continue;
        const xs = typeof x === 'number' ? [x] : Array.isArray(x) ? x.filter((n) => typeof n === 'number') : [];
        for (const n of xs) yield [`${name}.${c.name}.${f.name}`, n, f];
      }
    }
  }
}

for (const file of scenes) {
  test(`${file}: dt outside 0 or [1e-6, 1] s is refused and changes nothing`, async () => {
    const { world, scene } = await load(file);
    for (let i = 0; i < 30; i++) scene.step(1 / 60);
    const hash = world.hash();
    const steps = world.stepCount;
    for (const dt of REFUSED) {
      assert.throws(() => world.step(dt), (err) => err instanceof LimberError && err.code === 'LB_ERR_OUT_OF_RANGE' && /must be 0 \(paused\) or within \[1e-06, 1\] s/.test(err.message), `world.step(${dt})`);
      assert.throws(() => scene.step(dt), (err) => err instanceof LimberError && err.code === 'LB_ERR_OUT_OF_RANGE', `scene.step(${dt})`);
    }
    assert.equal(world.hash(), hash);
    assert.equal(world.stepCount, steps);
    world.destroy();
  });

  test(`${file}: at every accepted dt every output is finite, inside its schema range, and speeds stay a character's`, async () => {
    const worst = [];
    for (const dt of ACCEPTED) {
      const { world, scene } = await load(file);
      // 60 steps of 1/60 s reach the scene's moving part, then 40 steps at this dt.
      for (let i = 0; i < 60; i++) scene.step(1 / 60);
      let fastest = ['', 0];
      for (let i = 0; i < 40; i++) {
        scene.step(dt);
        for (const [label, x, f] of floats(world, scene)) {
          assert.ok(Number.isFinite(x), `dt ${dt}, step ${i}: ${label} = ${x}`);
          assert.ok(x >= f.min && x <= f.max, `dt ${dt}, step ${i}: ${label} = ${x} outside [${f.min}, ${f.max}]`);
        }
        for (const [name, e] of scene.entities) {
          for (const c of world.components.filter((k) => k.byName.has('velocity') && world.alive(e) && world.has(e, k))) {
            const v = world.get(e, c).velocity;
            const len = Math.hypot(v[0], v[2]);
            if (len > fastest[1]) fastest = [`${name}.${c.name}.velocity`, len];
            // Stepping up a curb or snapping down to the ground is one step's displacement,
            // as in Unity's CharacterController: at most stepOffset (0.35 m) + snapDistance.
            assert.ok(Math.abs(v[1]) <= Math.max(10, 0.7 / Math.max(dt, 1e-9)), `dt ${dt}: ${name}.${c.name}.velocity.y = ${v[1]}`);
          }
        }
      }
      worst.push(`${dt}: ${fastest[1].toFixed(2)} m/s${fastest[0] ? ` (${fastest[0]})` : ''}`);
      // Horizontal: walking, running and vaulting characters; 10 m/s is far above any of them.
      assert.ok(fastest[1] <= 10, `dt ${dt}: ${fastest[0]} = ${fastest[1]} m/s`);
      world.destroy();
    }
    console.log(`# ${file}: fastest horizontal velocity per dt: ${worst.join('; ')}`);
  });
}
