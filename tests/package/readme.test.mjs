// Every README.md code block marked `js runnable` runs as written, as an ES module in a fresh
// app that installed the packed tarball (with three and the mannequin as hero.glb beside
// it). A `// prints: X` comment on a console.log line is checked against that output line.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { installApp, root } from './pack.mjs';

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/^```js runnable\n([\s\S]*?)^```$/gm)].map((m) => ({ code: m[1], line: readme.slice(0, m.index).split('\n').length }));

let app;
before(() => {
  app = installApp('vite-three', { extraFiles: { 'hero.glb': join(root, 'assets/rigs/mannequin-mixamo.glb') } });
});
after(() => app?.cleanup());

test('README.md has runnable blocks', () => {
  assert.ok(blocks.length >= 3, `found ${blocks.length}`);
});

for (const [i, b] of blocks.entries()) {
  test(`README.md block at line ${b.line} runs and prints what it says`, () => {
    const file = join(app.dir, `readme-${i}.mjs`);
    writeFileSync(file, b.code);
    const out = execFileSync(process.execPath, [file], { cwd: app.dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const expected = [...b.code.matchAll(/\/\/ prints: (.*)$/gm)].map((m) => m[1].trim());
    assert.deepEqual(out.trim().split('\n').filter(Boolean), expected);
  });
}
