/** Node CLI over the WebAssembly core:
 *   limber hash SCENE --steps N [--dt S]   last line: the bone hash (16 hex digits)
 *   limber run  SCENE --steps N [--dt S]   a readable summary, then the hash */
import { readFile } from 'node:fs/promises';
import { createWorld, LimberError, TwoBoneIK, type TwoBoneIKData } from '../bridge/index.js';

function usage(): never {
  process.stderr.write('usage: limber hash|run SCENE.json [--steps N] [--dt SECONDS]\n');
  process.exit(2);
}

async function main(argv: string[]): Promise<void> {
  const [cmd, path, ...rest] = argv;
  if ((cmd !== 'hash' && cmd !== 'run') || !path) usage();
  let steps = 60;
  let dt = 1 / 60;
  for (let i = 0; i < rest.length; i++) {
    const v = rest[i + 1];
    if (rest[i] === '--steps' && v !== undefined && /^\d+$/.test(v)) steps = Number(v);
    else if (rest[i] === '--dt' && v !== undefined && v.trim() !== '' && Number.isFinite(Number(v))) dt = Number(v);
    else usage();
    i++;
  }
  const world = await createWorld();
  const scene = world.loadScene(await readFile(path, 'utf8'));
  for (let s = 0; s < steps; s++) scene.step(dt);
  if (cmd === 'run') {
    console.log(`scene ${path}: ${steps} steps of ${dt} s, ${scene.entities.size} named entities`);
    for (const [name, e] of scene.entities) {
      const p = world.worldTransform(e).t;
      let line = `  ${name.padEnd(16)} at (${p.map((x) => x.toFixed(4)).join(', ')})`;
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
