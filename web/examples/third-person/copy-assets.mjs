// Copies the generated assets the game reads (the mannequin, three levels, the rifle's scene,
// four props) from the repository into public/assets/, where the page fetches them.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GAME_FILES } from './files.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '../../..');
for (const path of GAME_FILES) {
  mkdirSync(dirname(join(here, 'public', path)), { recursive: true });
  copyFileSync(join(repo, path), join(here, 'public', path));
}
console.log(`copied ${GAME_FILES.length} files into public/assets/`);
