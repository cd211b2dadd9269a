#!/usr/bin/env node
// `npm test`: builds what is missing, then runs every suite: format and type
// checks, native C tests (gcc), the same under ASan+UBSan (clang), Node tests over
// the wasm builds (incl. the cross-target determinism check) and Playwright in
// headless Chromium. Ends with one line "N passed, M failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, NODE_PATH: '/usr/share/nodejs' };
let passed = 0;
let failed = 0;
const failures = [];

function stage(name, cmd, args, count, extraEnv = {}) {
  const t0 = Date.now();
  process.stdout.write(`\n== ${name}\n`);
  const r = spawnSync(cmd, args, { cwd: root, env: { ...env, ...extraEnv }, encoding: 'utf8', maxBuffer: 256 << 20 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  const c = count(out, r.status);
  const ok = r.status === 0 && c.failed === 0 && c.passed > 0;
  passed += c.passed;
  failed += c.failed + (ok || c.failed > 0 ? 0 : 1);
  if (!ok) {
    process.stdout.write(out.split('\n').slice(-80).join('\n'));
    failures.push(name);
  }
  process.stdout.write(`${ok ? 'ok' : 'FAILED'}: ${name}: ${c.passed} passed, ${c.failed} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
}

const sumLines = (re) => (out) => {
  let p = 0;
  let f = 0;
  for (const m of out.matchAll(re)) {
    p += Number(m[1]);
    f += Number(m[2]);
  }
  return { passed: p, failed: f };
};
const ctestCount = sumLines(/^\d+: (\d+) passed, (\d+) failed$/gm);
const nodeCount = (out) => ({ passed: Number(/^# pass (\d+)/m.exec(out)?.[1] ?? 0), failed: Number(/^# fail (\d+)/m.exec(out)?.[1] ?? 0) + Number(/^# cancelled (\d+)/m.exec(out)?.[1] ?? 0) });
const pwCount = (out) => ({ passed: Number(/(\d+) passed/.exec(out)?.[1] ?? 0), failed: Number(/(\d+) failed/.exec(out)?.[1] ?? 0) + Number(/(\d+) flaky/.exec(out)?.[1] ?? 0) });
const oneCheck = (_out, status) => (status === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 });

stage('build (native gcc, native clang, asan, wasm SIMD + scalar, TypeScript)', process.execPath, ['scripts/build.mjs', '--quiet', 'native', 'clang', 'asan', 'wasm', 'ts'], oneCheck);
const cFiles = spawnSync('git', ['ls-files', 'wasm/*.c', 'wasm/*.h', 'tests/*.c', 'tests/*.h'], { cwd: root, encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
stage('clang-format (C sources are formatted)', 'clang-format', ['--dry-run', '-Werror', ...cFiles], oneCheck);
stage('include graph of wasm/ has no cycle (scripts/check-includes.mjs)', process.execPath, ['scripts/check-includes.mjs'], oneCheck);
stage('tsc --strict (bridge, three adapter, CLI)', join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json', '--noEmit'], oneCheck);
if (existsSync(join(root, 'web/playground/tsconfig.json'))) {
  stage('tsc --strict (playground)', join(root, 'node_modules/.bin/tsc'), ['-p', 'web/playground/tsconfig.json', '--noEmit'], oneCheck);
}
stage('native C tests (gcc, ctest)', 'ctest', ['--preset', 'native', '-V'], ctestCount);
stage('native C tests under ASan + UBSan (clang, ctest)', 'ctest', ['--preset', 'asan', '-V'], ctestCount, { ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=1', UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1' });
for (const f of readdirSync(join(root, 'tests/fuzz')).filter((n) => /^fuzz_.*\.c$/.test(n))) {
  const name = f.replace(/\.c$/, '');
  const work = mkdtempSync(join(tmpdir(), `limber-${name}-`));
  const seeds = join(root, 'tests/fuzz/corpus', name.replace(/^fuzz_/, ''));
  stage(`fuzz ${name} (libFuzzer + ASan/UBSan, 15 s)`, join(root, 'build/asan', name), ['-max_total_time=15', '-timeout=5', work, ...(existsSync(seeds) ? [seeds] : [])], oneCheck);
}
stage('Node tests over the wasm builds', process.execPath, ['--test', '--test-reporter=tap', 'tests/node/'], nodeCount);
if (existsSync(join(root, 'playwright.config.ts'))) {
  stage('Playwright (headless Chromium)', join(root, 'node_modules/.bin/playwright'), ['test'], pwCount, { CI: process.env.CI ?? '1' });
}

if (failures.length) process.stdout.write(`\nfailed stages: ${failures.join('; ')}\n`);
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
