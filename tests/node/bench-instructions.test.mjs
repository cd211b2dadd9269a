// `npm run bench -- --instructions`: native instructions per operation counted by valgrind,
// the measure that does not move with the machine's load. The count repeats exactly, and the
// stage benches split their bench: grip.stage.pose + grip.stage.wrap is grip.hand.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function count(benches) {
  const out = execFileSync(
    process.execPath,
    ['tests/bench/run.mjs', '--instructions', '--no-build', '--json', ...benches.flatMap((b) => ['--bench', b])],
    { cwd: ROOT, encoding: 'utf8', timeout: 10 * 60 * 1000 },
  );
  const rows = out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
  return Object.fromEntries(rows.map((r) => [r.bench, r]));
}

test('instruction counts repeat exactly and the grip.hand split adds up', () => {
  const a = count(['grip.hand', 'grip.stage.pose', 'grip.stage.wrap']);
  const b = count(['grip.hand']);
  for (const name of ['grip.hand', 'grip.stage.pose', 'grip.stage.wrap']) {
    assert.equal(a[name]?.unit, 'instr', name);
    assert.equal(a[name].target, 'native');
  }
  assert.equal(a['grip.hand'].min, b['grip.hand'].min, 'the same count on a second run');
  // a hand's pose and wrap are thousands of instructions, not a handful nor millions
  assert.ok(a['grip.hand'].min > 5000 && a['grip.hand'].min < 1e6, `grip.hand ${a['grip.hand'].min}`);
  const parts = a['grip.stage.pose'].min + a['grip.stage.wrap'].min;
  const whole = a['grip.hand'].min;
  // the stages run the whole bench's two jobs on the same data; the whole adds only its loop
  assert.ok(Math.abs(parts - whole) <= 0.02 * whole, `pose + wrap ${parts} vs grip.hand ${whole}`);
});
