#!/usr/bin/env node
// `npm start`'s last stage: serves the third-person game (/game/, opened in a browser) and the
// playground (/) with Vite (web/playground/vite.config.ts) and prints, next to their URLs, every scene the picker offers (assets/scenes/*.json, with the first
// sentence of its description) and the page's URL parameters (read from the comment at the
// top of web/playground/page.ts, the one place they are documented). Stops on Ctrl+C.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The scenes in assets/scenes/, sorted, each with its description's first sentence. */
export function sceneList() {
  const dir = join(root, 'assets/scenes');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const text = JSON.parse(readFileSync(join(dir, file), 'utf8')).description ?? '';
      const first = /^.*?[.!?](\s|$)/.exec(text)?.[0].trim() ?? text;
      return { file, summary: first.length > 90 ? `${first.slice(0, first.lastIndexOf(' ', 88)).replace(/[,;:(]$/, '')} ...` : first };
    });
}

/** The URL parameters page.ts documents: lines "  name=VALUE  what it does" (continuation
 * lines indented further are joined). */
export function pageOptions() {
  const text = readFileSync(join(root, 'web/playground/page.ts'), 'utf8');
  const block = /URL parameters[^\n]*\n([\s\S]*?)\*\//.exec(text)?.[1] ?? '';
  const out = [];
  for (const raw of block.split('\n')) {
    const line = raw.replace(/^\s*\*/, '');
    const m = /^\s{2,3}(\w+=\S+)\s+(.*)$/.exec(line);
    if (m) out.push({ option: m[1], what: m[2].trim() });
    else if (out.length > 0 && /^\s{4,}\S/.test(line)) out[out.length - 1].what += ` ${line.trim()}`;
  }
  return out;
}

/** The text printed under the server's URL. */
export function banner(url) {
  const base = url.replace(/\/$/, '');
  const scenes = sceneList();
  const width = Math.max(...scenes.map((s) => s.file.length));
  const lines = ['', `  Game: ${base}/game/  (WASD, mouse orbit, Shift run, Space vault, N click-to-navigate)`, `  Playground: ${base}/`];
  lines.push('', '  Scenes (open one with ?scene=NAME.json, or pick it in the page):');
  for (const s of scenes) lines.push(`    ${s.file.padEnd(width)}  ${s.summary}`);
  lines.push('', '  Page options (URL parameters, combine with &):');
  const opts = pageOptions();
  const ow = Math.max(...opts.map((o) => o.option.length));
  for (const o of opts) lines.push(`    ${o.option.padEnd(ow)}  ${o.what}`);
  lines.push('', `  e.g. ${base}/?scene=grip-lab.json&editor=1   ${base}/?scene=vault-course.json&layers=vault`, '');
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--list')) {
    console.log(banner('http://127.0.0.1:5173/'));
  } else {
    const { createServer } = await import('vite');
    const server = await createServer({ configFile: join(root, 'web/playground/vite.config.ts'), server: { open: '/game/' } });
    await server.listen();
    server.printUrls();
    const url = server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${server.config.server.port}/`;
    console.log(banner(url));
    const stop = async () => {
      await server.close();
      process.exit(0);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }
}
