// Every code block marked `js runnable` in README.md and in the guides (docs/*.md) runs as
// written, as an ES module in a fresh app that installed the packed tarball (with three and
// the mannequin as hero.glb beside it). A `// prints: X` comment on a console.log line is
// checked against that output line. The README stays a front door (at most 150 lines) that
// links every guide, and every relative link in these files names a file that exists (and,
// for a link into a Markdown file with #anchor, a heading of that file).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { installApp, root } from './pack.mjs';

const README_MAX_LINES = 150;
const docs = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const text = Object.fromEntries(docs.map((f) => [f, readFileSync(join(root, f), 'utf8')]));
/** Guides: every docs/*.md but the architecture reference, which holds no runnable code. */
const guides = docs.filter((f) => f.startsWith('docs/') && f !== 'docs/architecture.md');

const blocksOf = (file) =>
  [...text[file].matchAll(/^```js runnable\n([\s\S]*?)^```$/gm)].map((m) => ({ code: m[1], line: text[file].slice(0, m.index).split('\n').length }));

let app;
before(() => {
  app = installApp('vite-three', { extraFiles: { 'hero.glb': join(root, 'assets/rigs/mannequin-mixamo.glb') } });
});
after(() => app?.cleanup());

test(`README.md has at most ${README_MAX_LINES} lines and opens with npm start and npm test`, () => {
  const lines = text['README.md'].replace(/\n$/, '').split('\n');
  assert.ok(lines.length <= README_MAX_LINES, `README.md has ${lines.length} lines`);
  const firstBlock = text['README.md'].match(/^```sh\n([\s\S]*?)^```$/m);
  assert.ok(firstBlock, 'README.md has no sh block');
  assert.match(firstBlock[1], /^npm start\b.*\nnpm test\b/m, 'the first sh block is npm start then npm test');
});

test('README.md and every guide have runnable blocks; README.md links every guide', () => {
  for (const f of ['README.md', ...guides]) assert.ok(blocksOf(f).length >= 1, `${f} has no js runnable block`);
  for (const f of docs.filter((d) => d !== 'README.md')) {
    assert.ok(text['README.md'].includes(`](${f})`), `README.md does not link ${f}`);
  }
});

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
const anchorsOf = (file) => {
  const body = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  return new Set([...body.matchAll(/^#{1,6} (.*)$/gm)].map((m) => slug(m[1])));
};

test('every relative link in README.md and docs/*.md names an existing file (and heading)', () => {
  const broken = [];
  let checked = 0;
  for (const f of docs) {
    const body = text[f].replace(/^```[\s\S]*?^```$/gm, ''); // links inside code are code
    for (const m of body.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [path, anchor] = target.split('#');
      const file = path ? join(root, dirname(f), decodeURIComponent(path)) : join(root, f);
      checked++;
      if (!existsSync(file)) broken.push(`${f}: ${target} (no such file)`);
      else if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor)) broken.push(`${f}: ${target} (no such heading)`);
    }
  }
  assert.ok(checked > 10, `only ${checked} relative links found`);
  assert.deepEqual(broken, []);
});

for (const f of ['README.md', ...guides]) {
  for (const [i, b] of blocksOf(f).entries()) {
    test(`${f} block at line ${b.line} runs and prints what it says`, () => {
      const file = join(app.dir, `${f.replace(/[/.]/g, '-')}-${i}.mjs`);
      writeFileSync(file, b.code);
      const out = execFileSync(process.execPath, [file], { cwd: app.dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      const expected = [...b.code.matchAll(/\/\/ prints: (.*)$/gm)].map((m) => m[1].trim());
      assert.deepEqual(out.trim().split('\n').filter(Boolean), expected);
    });
  }
}
