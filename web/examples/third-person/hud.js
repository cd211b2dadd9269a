// The HUD: controls, the player's states (hand on the wall, vault, navigation, who owns the
// movement), the rifle hold and the frame rate.

const STYLE = `
#hud { position: fixed; left: 12px; top: 12px; width: 270px; padding: 10px 12px; border-radius: 8px;
  background: rgba(18, 22, 28, 0.72); color: #eef2f6; font: 12.5px/1.45 system-ui, sans-serif; pointer-events: none; }
#hud h1 { font-size: 14px; margin: 0 0 6px; letter-spacing: 0.02em; }
#hud .row { display: flex; justify-content: space-between; gap: 8px; }
#hud .row b { font-weight: 600; color: #9fd0ff; }
#hud .on { color: #7ee2a0 !important; }
#hud .warn { color: #ffcf6e !important; }
#hud .keys { margin-top: 8px; color: #b9c3cf; font-size: 11.5px; }
#hud kbd { font: 11px ui-monospace, monospace; padding: 0 4px; border: 1px solid #6b7684; border-radius: 3px; color: #eef2f6; }
#bar { position: fixed; right: 12px; top: 12px; display: flex; gap: 8px; font: 12.5px system-ui, sans-serif; }
#bar button, #bar a { background: rgba(18, 22, 28, 0.72); color: #eef2f6; border: 1px solid #5b6572; border-radius: 6px;
  padding: 6px 10px; cursor: pointer; text-decoration: none; font: inherit; }
#bar button.on { border-color: #7ee2a0; color: #7ee2a0; }
#loading { position: fixed; inset: 0; display: grid; place-items: center; color: #eef2f6; font: 15px system-ui, sans-serif; background: #1d2430; }
`;

const el = (tag, attrs = {}, text = '') => Object.assign(document.createElement(tag), attrs, text ? { textContent: text } : {});

export class Hud {
  constructor(parent) {
    parent.appendChild(el('style', {}, STYLE));
    this.splash = parent.appendChild(el('div', { id: 'loading' }));
    this.panel = parent.appendChild(el('div', { id: 'hud' }));
    this.panel.innerHTML = `<h1>Limber · third person</h1>
      <div class="row"><span>Wall hand</span><b id="hud-touch"></b></div>
      <div class="row"><span>Vault</span><b id="hud-vault"></b></div>
      <div class="row"><span>Rifle</span><b id="hud-grip"></b></div>
      <div class="row"><span>Navigate</span><b id="hud-nav"></b></div>
      <div class="row"><span>Movement</span><b id="hud-owner"></b></div>
      <div class="row"><span>Frame rate</span><b id="hud-fps"></b></div>
      <div class="row"><span>Threads</span><b id="hud-threads" title="one per core when the page is cross-origin isolated (COOP/COEP headers: vite.config.js), else 1"></b></div>
      <div class="keys"><kbd>W</kbd><kbd>A</kbd><kbd>S</kbd><kbd>D</kbd> move (camera-relative) · <kbd>Shift</kbd> run ·
        <kbd>Space</kbd> vault · <kbd>N</kbd> click-to-navigate · drag to orbit · wheel to zoom.
        Walk the corridor close to its left wall: the left hand lets go of the rifle and touches it.</div>`;
    this.bar = parent.appendChild(el('div', { id: 'bar' }));
    this.navButton = this.bar.appendChild(el('button', { id: 'nav-toggle', type: 'button' }, 'Navigate (N)'));
    // Served by the repository's playground server, the page links back to the playground.
    const back = document.getElementById('playground-link');
    if (back) this.bar.appendChild(back);
    this.fps = { frames: 0, since: performance.now(), value: 0 };
  }

  /** @param {number} n the world's threads (world.threads) */
  threads(n) {
    document.getElementById('hud-threads').textContent = String(n);
  }

  loading(text) {
    this.splash.textContent = text;
  }

  /** @param {() => void} toggleNav */
  bind(toggleNav) {
    this.splash.remove();
    this.navButton.addEventListener('click', () => toggleNav());
  }

  update(s) {
    const set = (id, text, cls = '') => {
      const e = document.getElementById(id);
      e.textContent = text;
      e.className = cls;
    };
    const t = s.touch;
    set('hud-touch', t.state === 'Search' ? 'no wall' : `${t.state} (${t.side})`, t.state === 'Touch' ? 'on' : '');
    const v = s.vault;
    const vaultText = v.state !== 'Idle' ? `${v.state} · ${v.plantedHand} hand` : v.refusal !== 'None' ? `refused: ${v.refusal}` : v.obstacleClass === 'Vault' ? 'crate ahead: Space' : `ready · ${v.vaults} done`;
    set('hud-vault', vaultText, v.state !== 'Idle' ? 'on' : v.refusal !== 'None' ? 'warn' : '');
    const g = s.grip;
    const oneHanded = g.supportWeight < 1 || g.supportRelease > 0;
    set('hud-grip', oneHanded ? `one hand (${(g.mainDistance * 1000).toFixed(1)} mm)` : `both hands (${(g.mainDistance * 1000).toFixed(1)} / ${(g.supportDistance * 1000).toFixed(1)} mm)`);
    const n = s.nav;
    const navText = !n.mode ? 'off (N)' : n.driveMode === 'NavDestination' ? `to target, ${n.remaining.toFixed(1)} m` : n.arrivedAt ? 'arrived · click again' : 'click the ground';
    set('hud-nav', navText, n.mode ? 'on' : '');
    set('hud-owner', s.keysIgnored ? `${s.owner.moveSpeed ?? s.owner.move} drives (keys ignored)` : s.owner.move ? `${s.owner.move}` : 'keys', s.keysIgnored ? 'warn' : '');
    this.navButton.classList.toggle('on', n.mode);
    const f = this.fps;
    f.frames++;
    const now = performance.now();
    if (now - f.since >= 500) {
      f.value = (f.frames * 1000) / (now - f.since);
      f.frames = 0;
      f.since = now;
    }
    set('hud-fps', `${f.value.toFixed(0)} fps · step ${s.step}`);
  }
}
