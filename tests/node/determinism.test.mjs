// One scene, one hash: native gcc and clang CLIs, Node over the SIMD and the
// scalar wasm builds, all equal to the stored expected hash.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { createWorld } from '../../dist/web/bridge/index.js';

const expected = JSON.parse(readFileSync('tests/expected-hashes.json', 'utf8'));
const lastLine = (out) => out.trim().split('\n').pop();

for (const [key, hash] of Object.entries(expected)) {
  const [file, stepsText] = key.split('@');
  const steps = Number(stepsText);
  const scene = file.includes('/') ? file : `assets/scenes/${file}`; // a test-only scene names its folder

  test(`${key}: native gcc CLI`, () => {
    assert.equal(lastLine(execFileSync('build/native/limber', ['hash', scene, '--steps', String(steps)], { encoding: 'utf8' })), hash);
  });

  // Uninitialised memory is the one way a native run can differ from the next (stack and heap
  // contents move with the address layout): memcheck fails on any read of it that decides a
  // branch or an address, and the hash must still be the stored one.
  test(`${key}: native gcc CLI under valgrind memcheck (no uninitialised reads)`, () => {
    const r = spawnSync('valgrind', ['-q', '--error-exitcode=9', '--track-origins=yes', 'build/native/limber', 'hash', scene, '--steps', String(steps)], { encoding: 'utf8' });
    assert.equal(r.error, undefined, 'valgrind runs (scripts/setup.sh installs it)');
    assert.equal(r.status, 0, `memcheck reports:\n${r.stderr.split('\n').slice(0, 24).join('\n')}`);
    assert.equal(lastLine(r.stdout), hash);
  });

  test(`${key}: native clang CLI`, () => {
    assert.ok(existsSync('build/native-clang/limber'), 'build it with: node scripts/build.mjs clang');
    assert.equal(lastLine(execFileSync('build/native-clang/limber', ['hash', scene, '--steps', String(steps)], { encoding: 'utf8' })), hash);
  });

  test(`${key}: Node CLI (wasm SIMD)`, () => {
    assert.equal(lastLine(execFileSync(process.execPath, ['dist/web/cli/limber.js', 'hash', scene, '--steps', String(steps)], { encoding: 'utf8' })), hash);
  });

  for (const wasm of ['limber.wasm', 'limber-scalar.wasm']) {
    test(`${key}: bridge in-process over ${wasm}`, async () => {
      const world = await createWorld({ wasm: new URL(`../../dist/web/bridge/${wasm}`, import.meta.url) });
      const text = readFileSync(scene, 'utf8');
      // Files a scene refers to (glTF rigs) are repository-relative.
      const files = Object.fromEntries(world.sceneFiles(text).map((p) => [p, readFileSync(p)]));
      const sc = world.loadScene(text, { files });
      for (let i = 0; i < steps; i++) sc.step(1 / 60);
      assert.equal(world.hash(), hash);
    });
  }
}
