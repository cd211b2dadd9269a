// world.grip.placeTwoHanded: a two-handed rifle on the glTF mannequin walking and running
// (root motion on). With the prop on the main hand (placement Hand) the arms' swing pulls the
// support anchor out of reach; placed on the chest by placeTwoHanded both palms stay on their
// anchors through the clips. Measured: the holder's mainDistance / supportDistance (metres
// from each palm centre to its anchor) on every step after the grip has blended in.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { createWorld, GripHolder, Transform } from '../../dist/web/bridge/index.js';

/** The locomotion scene (glTF mannequin, idle/walk/run controller) with grip-lab's rifle in
 * the hero's hands. */
function sceneWithRifle(placement) {
  const loco = JSON.parse(readFileSync('assets/scenes/locomotion.json', 'utf8'));
  const lab = JSON.parse(readFileSync('assets/scenes/grip-lab.json', 'utf8'));
  delete loco.timeline;
  const hero = loco.entities.find((e) => e.name === 'hero');
  const labHero = lab.entities.find((e) => e.name === 'hero');
  hero.components.GripPose = labHero.components.GripPose;
  hero.components.GripHolder = { ...labHero.components.GripHolder, placement };
  loco.entities.push(...lab.entities.filter((e) => e.name !== 'hero'));
  return loco;
}

async function walk(placement, place, speed = 1.4) {
  const world = await createWorld();
  const text = sceneWithRifle(placement);
  const files = Object.fromEntries(world.sceneFiles(text).map((p) => [p, readFileSync(p)]));
  const scene = world.loadScene(text, { files });
  const hero = scene.entity('hero');
  scene.step(1 / 60);
  const placed = place ? world.grip.placeTwoHanded(hero) : null;
  world.anim.setParam(hero, 'MoveSpeed', speed);
  let main = 0;
  let support = 0;
  for (let i = 0; i < 150; i++) {
    scene.step(1 / 60);
    if (i < 30) continue; // grip and speed blending in
    const g = world.get(hero, GripHolder);
    main = Math.max(main, g.mainDistance);
    support = Math.max(support, g.supportDistance);
  }
  const rifle = world.get(scene.entity('rifle'), Transform);
  world.destroy();
  return { main, support, placed, rifle };
}

test('placeTwoHanded: both palms stay on a rifle through walk and run, where the main-hand placement loses the support hand', async () => {
  const onHand = await walk('Hand', false);
  const walking = await walk('Hand', true, 1.4);
  const running = await walk('Hand', true, 3.5);
  console.log(`# walk, worst palm-to-anchor: on the main hand main ${(onHand.main * 1000).toFixed(1)} mm support ${(onHand.support * 1000).toFixed(1)} mm; placed main ${(walking.main * 1000).toFixed(1)} mm support ${(walking.support * 1000).toFixed(1)} mm (slack ${(walking.placed.margin * 1000).toFixed(0)} mm over ${walking.placed.frames} frames); run main ${(running.main * 1000).toFixed(1)} mm support ${(running.support * 1000).toFixed(1)} mm`);
  assert.ok(onHand.support > 0.1, `on the main hand the walk pulls the support anchor away: ${onHand.support} m`);
  assert.equal(walking.placed.reached, true);
  assert.ok(walking.placed.margin > 0.02, `slack ${walking.placed.margin} m`);
  assert.equal(walking.rifle.parentJoint, walking.placed.joint, 'hung from the chest joint');
  for (const [label, r] of [['walk', walking], ['run', running]]) {
    assert.ok(r.main <= 0.005, `${label}: main palm within 5 mm (${r.main} m)`);
    assert.ok(r.support <= 0.005, `${label}: support palm within 5 mm (${r.support} m)`);
  }
});

test('placeTwoHanded: bad input names the field and changes nothing', async () => {
  const world = await createWorld();
  const text = sceneWithRifle('Hand');
  const files = Object.fromEntries(world.sceneFiles(text).map((p) => [p, readFileSync(p)]));
  const scene = world.loadScene(text, { files });
  const hero = scene.entity('hero');
  scene.step(1 / 60);
  const before = world.hash();
  const rifle = JSON.stringify(world.get(scene.entity('rifle'), Transform));
  assert.throws(() => world.grip.placeTwoHanded(hero, { clips: ['sprint'] }), (e) => e.code === 'LB_ERR_UNKNOWN_NAME' && /options\.clips\[0\]/.test(e.message));
  assert.throws(() => world.grip.placeTwoHanded(hero, { joint: 'Tail' }), (e) => e.code === 'LB_ERR_JOINT_NOT_FOUND' && /options\.joint/.test(e.message));
  assert.throws(() => world.grip.placeTwoHanded(hero, { samples: 0 }), (e) => e.code === 'LB_ERR_OUT_OF_RANGE' && /options\.samples/.test(e.message));
  assert.throws(() => world.grip.placeTwoHanded(scene.entity('rifle')), (e) => e.code === 'LB_ERR_MISSING_COMPONENT');
  assert.equal(world.hash(), before);
  assert.equal(JSON.stringify(world.get(scene.entity('rifle'), Transform)), rifle);
});
