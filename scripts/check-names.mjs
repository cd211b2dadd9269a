#!/usr/bin/env node
// Static-helper names in the C core.
//
//   node scripts/check-names.mjs
//
// A static function defined in wasm/src/<module>/*.{c,h} carries its module's prefix
// (docs/architecture.md, "Names, one way each"): cl_ in collide, ctl_ in controller, nav_ in
// nav, vault_ in vault, lb_ everywhere else. The prefix tells a reader, in a stack trace or
// a grep, which module a helper belongs to. Prints every name that breaks the rule and
// exits 1, else prints the count checked and exits 0.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'wasm/src');
const PREFIX = { collide: 'cl_', controller: 'ctl_', nav: 'nav_', vault: 'vault_' };
// `static [inline] [const] <type...> name(` at the start of a line (clang-format keeps the
// name on the line of `static`).
const DEF = /^static\s+(?:inline\s+)?(?:const\s+)?[A-Za-z_][\w\s*]*?\b([a-z_][a-z0-9_]*)\s*\(/gm;

let checked = 0;
const bad = [];
for (const mod of fs.readdirSync(src).sort()) {
  const dir = path.join(src, mod);
  if (!fs.statSync(dir).isDirectory()) continue;
  const prefix = PREFIX[mod] ?? 'lb_';
  for (const file of fs.readdirSync(dir).sort()) {
    if (!/\.[ch]$/.test(file)) continue;
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const m of text.matchAll(DEF)) {
      checked++;
      if (!m[1].startsWith(prefix)) bad.push(`wasm/src/${mod}/${file}: static ${m[1]} (module prefix ${prefix})`);
    }
  }
}
if (bad.length) {
  console.error(`static helpers without their module's prefix (${bad.length}):\n  ${bad.join('\n  ')}`);
  process.exit(1);
}
console.log(`static helper names: ${checked} checked, every one with its module's prefix`);
