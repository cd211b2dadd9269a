#!/usr/bin/env node
// `npm test`: builds what is missing, then runs every suite: format, include-graph,
// function-length and type checks (incl. the type test tests/types/api-misuse.ts), native C
// tests (gcc), the same under ASan+UBSan and under MSan (clang), the threaded test under TSan
// (clang), Node tests over the wasm
// builds (incl. the cross-target determinism check) and Playwright in headless Chromium (incl.
// the example game installed from the packed tarball). Prints progress at least every 10 s.
// Ends with one line "N passed, M failed".
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, NODE_PATH: '/usr/share/nodejs' };
let passed = 0;
let failed = 0;
const failures = [];

// Nothing is silent for more than HEARTBEAT ms: a running stage prints its elapsed time and
// its last line of output; the build's own "build: ..." progress lines pass through live.
const HEARTBEAT = 10_000;
function stage(name, cmd, args, count, extraEnv = {}) {
  const t0 = Date.now();
  process.stdout.write(`\n== ${name}\n`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let last = '';
    let partial = '';
    const onData = (d) => {
      const text = d.toString();
      out += text;
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (line.trim()) last = line.trim();
        if (/^build: /.test(line)) process.stdout.write(`  ${line}\n`);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const beat = setInterval(() => {
      process.stdout.write(`  ... ${((Date.now() - t0) / 1000).toFixed(0)} s${last ? `, last: ${last.replace(/\x1b\[[0-9;]*m/g, '').slice(0, 110)}` : ''}\n`);
    }, HEARTBEAT);
    let done = false;
    const finish = (status) => {
      if (done) return;
      done = true;
      clearInterval(beat);
      const c = count(out, status);
      const ok = status === 0 && c.failed === 0 && c.passed > 0;
      passed += c.passed;
      failed += c.failed + (ok || c.failed > 0 ? 0 : 1);
      if (!ok) {
        process.stdout.write(out.split('\n').slice(-80).join('\n'));
        failures.push({ name, detail: failureDetail(out) });
      }
      process.stdout.write(`${ok ? 'ok' : 'FAILED'}: ${name}: ${c.passed} passed, ${c.failed} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
      resolve();
    };
    child.on('close', finish);
    child.on('error', (err) => {
      out += `${String(err)}\n`;
      finish(-1);
    });
  });
}

// What failed, for the run's last lines (CI keeps only the tail of a long log): each failing
// test's line and the start of its report (TAP "not ok" and its YAML block, ctest's and
// Playwright's failure lines).
const FAIL_LINE = /^\s*not ok \d+|^\s*✘|\*\*\*Failed|^\s*\d+\) \[|^FAIL|: FAIL|check failed|:\d+: \||Assertion|ERROR: AddressSanitizer|ERROR: LeakSanitizer|WARNING: MemorySanitizer|runtime error:/;
function failureDetail(out) {
  const lines = out.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const picked = [];
  for (let i = 0; i < lines.length && picked.length < 60; i++) {
    if (!FAIL_LINE.test(lines[i])) continue;
    // a TAP parent test that failed because a subtest did repeats it: its block says so
    picked.push(...lines.slice(i, i + 14).filter((l) => l.trim() && !/^\s*(duration_ms|type|location|\.\.\.|---)/.test(l)).map((l) => l.slice(0, 200)));
    i += 13;
  }
  return picked.length ? picked : lines.filter((l) => l.trim()).slice(-10);
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

await stage('build (native gcc, native clang, asan, msan, wasm SIMD + scalar + threads, TypeScript)', process.execPath, ['scripts/build.mjs', '--quiet', '--progress', 'native', 'clang', 'asan', 'msan', 'wasm', 'ts'], oneCheck);
const cFiles = spawnSync('git', ['ls-files', 'wasm/*.c', 'wasm/*.h', 'tests/*.c', 'tests/*.h'], { cwd: root, encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
await stage('clang-format (C sources are formatted)', 'clang-format', ['--dry-run', '-Werror', ...cFiles], oneCheck);
await stage('include graph of wasm/: no cycle, only allowed folder edges (scripts/check-includes.mjs)', process.execPath, ['scripts/check-includes.mjs'], oneCheck);
await stage('no function over 120 lines but the listed exceptions (scripts/check-function-length.mjs)', process.execPath, ['scripts/check-function-length.mjs'], oneCheck);
await stage('static helpers carry their module prefix (scripts/check-names.mjs)', process.execPath, ['scripts/check-names.mjs'], oneCheck);
await stage('tsc --strict (bridge, three adapter, CLI)', join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json', '--noEmit'], oneCheck);
if (existsSync(join(root, 'web/playground/tsconfig.json'))) {
  await stage('tsc --strict (playground)', join(root, 'node_modules/.bin/tsc'), ['-p', 'web/playground/tsconfig.json', '--noEmit'], oneCheck);
}
// The typed API's misuses must not compile (tests/types/api-misuse.ts: @ts-expect-error lines).
await stage('tsc --strict (type test: tests/types/api-misuse.ts)', join(root, 'node_modules/.bin/tsc'), ['-p', 'tests/types/tsconfig.json', '--strict', '--noEmit'], oneCheck);
await stage('native C tests (gcc, ctest)', 'ctest', ['--preset', 'native', '-V'], ctestCount);
await stage('native C tests under ASan + UBSan (clang, ctest)', 'ctest', ['--preset', 'asan', '-V'], ctestCount, { ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=1', UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1' });
// Uninitialised memory is the one thing that can make a native run differ from the next.
await stage('native C tests under MemorySanitizer (clang -O1, ctest)', 'ctest', ['--preset', 'msan', '-V'], ctestCount, { MSAN_OPTIONS: 'halt_on_error=1' });
// ThreadSanitizer: the parallel step (lb_world_def.threads 1-4, the world's pool and a game's
// task system) over every stored scene; any report fails (halt_on_error). Builds its own preset.
await stage('threaded C tests under ThreadSanitizer (clang, test_threads: build + run)', 'sh', ['-c', 'node scripts/build.mjs --quiet --progress tsan && ctest --preset tsan -V'], ctestCount, { TSAN_OPTIONS: 'halt_on_error=1:second_deadlock_stack=1' });
for (const f of readdirSync(join(root, 'tests/fuzz')).filter((n) => /^fuzz_.*\.c$/.test(n))) {
  const name = f.replace(/\.c$/, '');
  const work = mkdtempSync(join(tmpdir(), `limber-${name}-`));
  const seeds = join(root, 'tests/fuzz/corpus', name.replace(/^fuzz_/, ''));
  await stage(`fuzz ${name} (libFuzzer + ASan/UBSan, 15 s)`, join(root, 'build/asan', name), ['-max_total_time=15', '-timeout=5', work, ...(existsSync(seeds) ? [seeds] : [])], oneCheck);
}
await stage('Node tests over the wasm builds', process.execPath, ['--test', '--test-reporter=tap', 'tests/node/'], nodeCount);
await stage('package (npm pack contents, install from the tarball: ESM, CJS, bin; README examples run as written)', process.execPath, ['--test', '--test-reporter=tap', '--test-concurrency=1', 'tests/package/'], nodeCount);
if (existsSync(join(root, 'playwright.config.ts'))) {
  await stage('Playwright (headless Chromium)', join(root, 'node_modules/.bin/playwright'), ['test'], pwCount, { CI: process.env.CI ?? '1' });
}

for (const f of failures) process.stdout.write(`\n-- failed in ${f.name}:\n${f.detail.join('\n')}\n`);
if (failures.length) process.stdout.write(`\nfailed stages: ${failures.map((f) => f.name).join('; ')}\n`);
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
