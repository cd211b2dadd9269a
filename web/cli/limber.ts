#!/usr/bin/env node
/** Node CLI over the WebAssembly core:
 *   limber hash SCENE --steps N [--dt S] [--threads T]   last line: the bone hash (16 hex digits)
 *   limber run  SCENE --steps N [--dt S] [--threads T]   a readable summary, then the hash
 *                                          (--threads: 1..64, default one per core; the same
 *                                          hash for every count)
 *   limber replay [SCENE] LOG [--every]    loads the scene into a new world (without SCENE: a
 *                                          new, empty world, for a log that carries its own setup),
 *                                          replays the input log (world.record) and prints the hash
 *                                          (with --every, each step's first); exit 1 when it
 *                                          differs from the log's end hash
 * Files the scene refers to (glTF rigs) are read relative to the scene's folder or the first
 * folder above it that has them (so repository-relative paths work from anywhere). */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { Animator, createWorld, type InputLog, LimberError, TwoBoneIK, type TwoBoneIKData, type World } from '../bridge/index.js';

/** The bytes of every file a scene names, found next to it or in a folder above it. */
async function sceneFiles(world: World, scenePath: string, text: string): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  for (const rel of world.sceneFiles(text)) {
    let dir = resolve(dirname(scenePath));
    let found = isAbsolute(rel) ? rel : join(dir, rel);
    while (!isAbsolute(rel) && !existsSync(found) && dirname(dir) !== dir) {
      dir = dirname(dir);
      found = join(dir, rel);
    }
    if (existsSync(found)) files[rel] = await readFile(found);
    else process.stderr.write(`limber: cannot read ${rel} (named by ${scenePath})\n`);
  }
  return files;
}

function usage(): never {
  process.stderr.write('usage: limber hash|run SCENE.json [--steps N] [--dt SECONDS] [--threads T]\n       limber replay [SCENE.json] LOG.json [--every]\n');
  process.exit(2);
}

async function replay(path: string | null, logPath: string, every: boolean): Promise<void> {
  const world = await createWorld();
  if (path !== null) {
    const text = await readFile(path, 'utf8');
    world.loadScene(text, { files: await sceneFiles(world, path, text) });
  }
  const log = JSON.parse(await readFile(logPath, 'utf8')) as InputLog;
  const hash = world.replay(log, every ? { onStep: (n, w) => console.log(`step ${n} ${w.hash()}`) } : {});
  console.log(hash);
  if (log.end && typeof log.end.hash === 'string' && log.end.hash !== hash) {
    process.stderr.write(`limber: the replay's hash ${hash} differs from the recorded session's ${log.end.hash}\n`);
    process.exitCode = 1;
  }
}

async function main(argv: string[]): Promise<void> {
  const [cmd, path, ...rest] = argv;
  if (cmd === 'replay') {
    const args = [path, ...rest].filter((a): a is string => a !== undefined);
    const every = args.length > 1 && args.at(-1) === '--every';
    const files = every ? args.slice(0, -1) : args;
    if (files.length < 1 || files.length > 2) usage();
    return replay(files.length === 2 ? files[0]! : null, files.at(-1)!, every);
  }
  if ((cmd !== 'hash' && cmd !== 'run') || !path) usage();
  let steps = 60;
  let dt = 1 / 60;
  let threads: number | undefined;
  for (let i = 0; i < rest.length; i++) {
    const v = rest[i + 1];
    if (rest[i] === '--steps' && v !== undefined && /^\d+$/.test(v)) steps = Number(v);
    else if (rest[i] === '--dt' && v !== undefined && v.trim() !== '' && Number.isFinite(Number(v))) dt = Number(v);
    else if (rest[i] === '--threads' && v !== undefined && /^\d+$/.test(v)) threads = Number(v); // createWorld checks the range
    else usage();
    i++;
  }
  const world = await createWorld({ threads });
  const text = await readFile(path, 'utf8');
  const scene = world.loadScene(text, { files: await sceneFiles(world, path, text) });
  for (let s = 0; s < steps; s++) scene.step(dt);
  if (cmd === 'run') {
    console.log(`scene ${path}: ${steps} steps of ${dt} s, ${scene.entities.size} named entities`);
    for (const [name, e] of scene.entities) {
      const p = world.worldTransform(e).t;
      let line = `  ${name.padEnd(16)} at (${p.map((x) => x.toFixed(4)).join(', ')})`;
      if (world.has(e, Animator)) {
        const a = world.get(e, Animator);
        line += `  Animator state=${a.state} time=${a.stateTime.toFixed(3)} s blend=${a.blend.toFixed(3)}`;
      }
      if (world.has(e, TwoBoneIK)) {
        const ik: TwoBoneIKData = world.get(e, TwoBoneIK);
        line += `  TwoBoneIK reached=${ik.reached ? 1 : 0} distance=${ik.distance.toFixed(6)} m`;
      }
      console.log(line);
    }
  }
  console.log(world.hash());
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`limber: ${err instanceof LimberError ? err.message : String(err)}\n`);
  process.exit(1);
});
