// docs/architecture.md is the authority on how the code is organised: every repository path
// it names in backticks (wasm/..., web/..., tests/..., scripts/..., docs/..., assets/...)
// exists, so the folder map and the add-a-module recipe (followed once, for the vault) cannot
// drift from the tree. Paths with placeholders (<module>, *, N) are patterns and skipped.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const text = readFileSync('docs/architecture.md', 'utf8');
const paths = [...new Set([...text.matchAll(/`((?:wasm|web|tests|scripts|docs|assets)\/[^`\s]*)`/g)].map((m) => m[1]))]
  .map((p) => p.replace(/[.,:;)]+$/, ''))
  .filter((p) => !/[<>*{}]|\bN\b/.test(p));

test('docs/architecture.md names paths', () => {
  assert.ok(paths.length >= 20, `only ${paths.length} paths found`);
});

test('every path docs/architecture.md names exists', () => {
  const missing = paths.filter((p) => !existsSync(p));
  assert.deepEqual(missing, [], `named in docs/architecture.md but not in the tree: ${missing.join(', ')}`);
});

test('the add-a-module recipe names the vault module\'s real files', () => {
  const recipe = text.slice(text.indexOf('### Adding a module'), text.indexOf('## Data and memory'));
  for (const p of ['wasm/include/limber/components.h', 'wasm/src/modules.h', 'scripts/check-includes.mjs', 'wasm/exports/exports_vault.c', 'web/bridge/wasm.ts', 'tests/c/test_vault.c', 'tests/node/vault.test.mjs', 'assets/scenes/vault-course.json', 'tests/expected-hashes.json', 'docs/interaction-and-vault.md']) {
    assert.ok(recipe.includes(p), `the recipe names ${p}`);
    assert.ok(existsSync(p), `${p} exists`);
  }
});
