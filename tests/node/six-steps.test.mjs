// tests/node/six-steps.mjs, issue 32's six steps as a game developer writes them now, runs as
// written and does what it says: the left hand on the back wall while walking with the rifle's
// support hand off, the crate vaulted (Vaulting -> Over -> Landing -> Idle, landed past its far
// face), the NavAgent arrives at room_a within its stopping distance, both palms on the rifle
// whenever the grip has both hands. Its length is reported (the "about 70 lines" before).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

test('the six steps (level, controller, rifle, wall touch, vault, navigation) run as a game writes them', () => {
  const out = execFileSync(process.execPath, ['tests/node/six-steps.mjs'], { encoding: 'utf8' }).trim().split('\n').at(-1);
  const r = JSON.parse(out);
  const source = readFileSync('tests/node/six-steps.mjs', 'utf8').split('\n');
  const code = source.filter((l) => l.trim() !== '' && !l.trim().startsWith('//')).length;
  console.log(`# six steps: ${source.length - 1} lines, ${code} of code; ${r.touchSteps} steps in Touch, vault ${r.vault.join(' -> ')} (landed at z ${r.landedZ.toFixed(2)}), arrived after ${r.arrivedAfter} steps ${(r.miss * 1000).toFixed(0)} mm from the goal, palms <= ${(r.worstPalm * 1000).toFixed(3)} mm`);
  assert.ok(r.touchSteps > 60, `steps in Touch: ${r.touchSteps}`);
  assert.deepEqual(r.vault, ['Idle', 'Vaulting', 'Over', 'Landing', 'Idle']);
  assert.ok(r.landedZ > -7.4, `landed past the crate's far face (z -7.4): ${r.landedZ}`);
  assert.ok(r.arrivedAfter < 1500);
  assert.ok(r.miss <= 0.05 + 0.01, `arrival ${r.miss} m from the goal`);
  assert.ok(r.worstPalm <= 0.005, `palm to anchor ${r.worstPalm} m`);
});
