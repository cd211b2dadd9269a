// The third-person example game (web/examples/third-person), served at /game/ by the
// playground's Vite server: 'limber' and 'limber/three' resolve to this checkout's dist/ (see
// vite.config.ts), the files it fetches (assets/...) to the repository's assets/.
import '../../examples/third-person/main.js';
