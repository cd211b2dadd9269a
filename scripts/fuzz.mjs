#!/usr/bin/env node
// `npm run fuzz -- [--minutes N] [--target NAME]... [--jobs J] [--api-calls N]`
//
// Long fuzzing runs (CI keeps the 15 s runs of `npm test`): every libFuzzer target in
// tests/fuzz/ (built by the asan preset: ASan + UBSan + libFuzzer) for N minutes each
// (default 5), J at a time (default 2, the machine's cores), then the Node API-sequence
// fuzzer (tests/node/api-fuzz.test.mjs) for --api-calls calls (default 1,000,000). Each
// target keeps a corpus in build/fuzz/<target>/ so later runs continue where this one
// stopped. Prints, per target, the executions, the corpus size and whether it crashed; the
// exit status is non-zero when any target found a crash (the reproducer is named).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = { minutes: 5, jobs: 2, targets: [], apiCalls: 1_000_000 };
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const val = () => {
    const v = args[++i];
    if (v === undefined) throw new Error(`${a} needs a value`);
    return v;
  };
  const num = (v, what, zero = false) => {
    const n = Number(v);
    if (!/^\d+(\.\d+)?$/.test(v) || !(n > 0 || (zero && n === 0))) throw new Error(`${what} must be a ${zero ? 'non-negative' : 'positive'} number, got '${v}'`);
    return n;
  };
  if (a === '--minutes') opt.minutes = num(val(), '--minutes');
  else if (a === '--jobs') opt.jobs = Math.max(1, Math.floor(num(val(), '--jobs')));
  else if (a === '--target') opt.targets.push(val());
  else if (a === '--api-calls') opt.apiCalls = Math.floor(num(val(), '--api-calls', true));
  else throw new Error(`unknown option '${a}' (see the header of scripts/fuzz.mjs)`);
}

const all = readdirSync(join(root, 'tests/fuzz')).filter((n) => /^fuzz_.*\.c$/.test(n)).map((n) => n.replace(/\.c$/, ''));
const targets = opt.targets.length ? opt.targets : all;
for (const t of targets) if (!all.includes(t)) throw new Error(`unknown target '${t}' (have: ${all.join(', ')})`);

console.log('fuzz: building the asan preset (ASan + UBSan + libFuzzer) ...');
const build = spawnSync(process.execPath, ['scripts/build.mjs', '--quiet', 'asan'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

function runTarget(name) {
  return new Promise((resolve) => {
    const corpus = join(root, 'build/fuzz', name);
    mkdirSync(corpus, { recursive: true });
    const seeds = join(root, 'tests/fuzz/corpus', name.replace(/^fuzz_/, ''));
    const artifacts = join(root, 'build/fuzz', `${name}-crashes`) + '/';
    mkdirSync(artifacts, { recursive: true });
    const argv = [`-max_total_time=${Math.round(opt.minutes * 60)}`, '-timeout=10', '-print_final_stats=1', `-artifact_prefix=${artifacts}`, corpus];
    if (existsSync(seeds)) argv.push(seeds);
    const started = Date.now();
    const child = spawn(join(root, 'build/asan', name), argv, { cwd: root, env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=1' } });
    let out = '';
    const keep = (d) => {
      out = (out + d.toString()).slice(-20000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const beat = setInterval(() => console.log(`fuzz: ${name} running, ${Math.round((Date.now() - started) / 1000)} s`), 30000);
    child.on('close', (code) => {
      clearInterval(beat);
      const execs = Number(/stat::number_of_executed_units:\s*(\d+)/.exec(out)?.[1] ?? NaN);
      const crash = /(artifact_prefix|Test unit written to)[^\n]*/.exec(out)?.[0] ?? '';
      resolve({ name, code, execs, seconds: (Date.now() - started) / 1000, corpus: readdirSync(corpus).length, crash });
    });
  });
}

const results = [];
const queue = [...targets];
await Promise.all(
  Array.from({ length: Math.min(opt.jobs, queue.length) }, async () => {
    while (queue.length) {
      const t = queue.shift();
      console.log(`fuzz: ${t} for ${opt.minutes} min ...`);
      results.push(await runTarget(t));
    }
  }),
);

console.log('\ntarget              executions   exec/s   corpus  result');
let failed = 0;
for (const r of results.sort((a, b) => a.name.localeCompare(b.name))) {
  const ok = r.code === 0;
  failed += ok ? 0 : 1;
  console.log(`${r.name.padEnd(18)} ${String(r.execs).padStart(11)} ${String(Math.round(r.execs / r.seconds)).padStart(8)} ${String(r.corpus).padStart(8)}  ${ok ? 'no crash' : `CRASH ${r.crash}`}`);
}

if (opt.apiCalls > 0) {
  const length = 1000;
  const runs = Math.max(1, Math.ceil(opt.apiCalls / length));
  console.log(`\nfuzz: Node API-sequence fuzzer, ${runs * length} calls ...`);
  const api = spawnSync(process.execPath, ['--test', 'tests/node/api-fuzz.test.mjs'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, LIMBER_FUZZ_RUNS: String(runs), LIMBER_FUZZ_LENGTH: String(length), LIMBER_FUZZ_SEED: String(Date.now() % 2 ** 31) },
  });
  failed += api.status === 0 ? 0 : 1;
}
process.exit(failed ? 1 : 0);
