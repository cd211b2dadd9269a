/** Playground debug drawing for the Vault component (vault.h):
 *   - VaultView (debug layer "vault"): the last probe's casts (spheres at the start and the end
 *     of each sphere cast along the height and depth checks, rays as lines; hits marked red,
 *     misses grey), the controller capsule as it is applied (shrinking and restoring), the hand
 *     target (green) and a label with state, verdict, refusal and the obstacle's measures;
 *   - VaultPanel: a HUD block with the state, the verdict, the counts and a Vault button
 *     (`#vault-button`) that requests a vault (world.vault.request).
 * The view only reads the world; the button is the one write. */
import * as THREE from 'three';
import { CharacterController, Transform, Vault, type Entity, type VaultData, type World } from '../bridge/browser.js';
import type { WorldView } from '../three/index.js';
import { label } from './interaction.js';

const MAX_CASTS = 32;

/** Debug drawing of one character's vault. */
export class VaultView implements WorldView {
  readonly object = new THREE.Group();
  private readonly starts: THREE.Mesh[] = [];
  private readonly ends: THREE.Mesh[] = [];
  private readonly rays: THREE.LineSegments;
  private readonly capsule: THREE.LineSegments;
  private readonly target: THREE.Mesh;
  private readonly text = label();
  private readonly hitMat = new THREE.MeshBasicMaterial({ color: 0xff4040, wireframe: true, depthTest: false });
  private readonly missMat = new THREE.MeshBasicMaterial({ color: 0x9aa0a8, wireframe: true, depthTest: false, transparent: true, opacity: 0.5 });
  private readonly startMat = new THREE.MeshBasicMaterial({ color: 0xffd040, wireframe: true, depthTest: false, transparent: true, opacity: 0.6 });
  private readonly sphere = new THREE.SphereGeometry(1, 12, 8);
  private capsuleKey = '';
  constructor(readonly world: World, readonly entity: Entity) {
    this.object.name = 'vault';
    for (let i = 0; i < MAX_CASTS; i++) {
      const s = new THREE.Mesh(this.sphere, this.startMat);
      const e = new THREE.Mesh(this.sphere, this.missMat);
      s.renderOrder = e.renderOrder = 7;
      s.visible = e.visible = false;
      this.starts.push(s);
      this.ends.push(e);
      this.object.add(s, e);
    }
    const rayGeom = new THREE.BufferGeometry();
    rayGeom.setAttribute('position', new THREE.BufferAttribute(new Float32Array(MAX_CASTS * 6), 3));
    this.rays = new THREE.LineSegments(rayGeom, new THREE.LineBasicMaterial({ color: 0xffd040, depthTest: false }));
    this.rays.renderOrder = 7;
    this.capsule = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ color: 0x4fa3ff }));
    this.target = new THREE.Mesh(new THREE.SphereGeometry(0.025, 16, 12), new THREE.MeshBasicMaterial({ color: 0x40e070, depthTest: false }));
    this.target.renderOrder = 8;
    this.object.add(this.rays, this.capsule, this.target, this.text.sprite);
  }
  data(): VaultData {
    return this.world.get(this.entity, Vault);
  }
  update(): void {
    const d = this.data();
    const casts = this.world.vault.casts(this.entity);
    const pos = this.rays.geometry.getAttribute('position') as THREE.BufferAttribute;
    for (let i = 0; i < MAX_CASTS; i++) {
      const c = casts[i];
      const s = this.starts[i];
      const e = this.ends[i];
      if (!c) {
        s.visible = e.visible = false;
        pos.setXYZ(2 * i, 0, 0, 0);
        pos.setXYZ(2 * i + 1, 0, 0, 0);
        continue;
      }
      const len = c.hit >= 0 ? c.hit : c.length;
      const end: [number, number, number] = [c.origin[0] + c.dir[0] * len, c.origin[1] + c.dir[1] * len, c.origin[2] + c.dir[2] * len];
      pos.setXYZ(2 * i, ...c.origin);
      pos.setXYZ(2 * i + 1, ...end);
      const r = c.radius > 0 ? c.radius : 0.015;
      s.visible = c.radius > 0;
      s.position.set(...c.origin);
      s.scale.setScalar(r);
      e.visible = true;
      e.material = c.hit >= 0 ? this.hitMat : this.missMat;
      e.position.set(...end);
      e.scale.setScalar(r);
    }
    pos.needsUpdate = true;
    this.rays.geometry.computeBoundingSphere();
    // The capsule as the controller applies it.
    const cc = this.world.get(this.entity, CharacterController);
    const t = this.world.get(this.entity, Transform).position;
    const key = `${cc.radius}:${cc.appliedHeight}`;
    if (key !== this.capsuleKey) {
      this.capsuleKey = key;
      const length = Math.max(cc.appliedHeight - 2 * cc.radius, 0);
      this.capsule.geometry.dispose();
      this.capsule.geometry = new THREE.WireframeGeometry(new THREE.CapsuleGeometry(cc.radius, length, 4, 12));
    }
    this.capsule.position.set(t[0] + cc.appliedCenter[0], t[1] + cc.appliedCenter[1], t[2] + cc.appliedCenter[2]);
    (this.capsule.material as THREE.LineBasicMaterial).color.set(d.state === 'Idle' ? 0x4fa3ff : 0xff9f40);
    this.target.visible = d.handWeight > 0;
    this.target.position.set(...d.handTarget);
    this.text.sprite.position.set(t[0], t[1] + 2.2, t[2]);
    const measures = d.obstacleClass === 'None' ? '' : ` h ${d.height.toFixed(2)} d ${d.depth.toFixed(2)} m`;
    this.text.set(`${d.state}  ${d.obstacleClass}${measures}\nrefusal ${d.refusal}  t ${d.normalizedTime.toFixed(2)} hand ${d.handWeight.toFixed(2)}`);
  }
  dispose(): void {
    this.sphere.dispose();
    this.rays.geometry.dispose();
    this.capsule.geometry.dispose();
    this.target.geometry.dispose();
  }
}

/** Why a request was refused, in words (Vault.refusal, with the probe's class of the obstacle). */
function refusalText(d: VaultData): string {
  switch (d.refusal) {
    case 'NotVaultable':
      return d.obstacleClass === 'StepOver' ? 'low enough to step over' : d.obstacleClass === 'TooTall' ? `too tall (${d.height.toFixed(2)} m)` : d.obstacleClass === 'Mantle' ? 'too deep to vault (a mantle)' : 'nothing to vault within reach ahead';
    case 'NoFloor':
      return 'no floor to land on';
    case 'NoRoom':
      return 'no room to land';
    case 'Busy':
      return 'already vaulting';
    case 'NoTop':
      return 'no top to plant the hand on';
    case 'HandBusy':
      return 'the planting hand holds something';
    default:
      return '';
  }
}

/** HUD block: state, verdict, counts and the one Vault button, which follows the component:
 * disabled while a vault runs, and the last refusal's reason beside it. */
export class VaultPanel {
  readonly element = document.createElement('div');
  private readonly stateEl = document.createElement('div');
  private readonly reasonEl = document.createElement('span');
  readonly button = document.createElement('button');
  /** States seen since load, and every request's outcome ("Class:Refusal"). */
  readonly states: string[] = [];
  readonly outcomes: string[] = [];
  private count = 0;
  constructor(private readonly view: VaultView, onVault: () => void) {
    this.element.id = 'vault';
    this.element.style.marginTop = '8px';
    const title = document.createElement('div');
    title.textContent = 'Vault';
    title.style.fontWeight = '600';
    this.stateEl.id = 'vault-state';
    this.stateEl.className = 'mono';
    this.button.id = 'vault-button';
    this.button.type = 'button';
    this.button.textContent = 'Vault';
    this.button.title = 'world.vault.request: probe the obstacle ahead and vault it, or refuse with the reason';
    this.button.addEventListener('click', () => {
      this.view.world.vault.request(this.view.entity);
      onVault();
    });
    this.reasonEl.id = 'vault-reason';
    this.reasonEl.className = 'help';
    const row = document.createElement('div');
    row.append(this.button, ' ', this.reasonEl);
    this.element.append(title, this.stateEl, row);
    this.record();
    this.refresh();
  }
  /** After a step: note state changes and request outcomes. */
  record(): void {
    const d = this.view.data();
    if (this.states[this.states.length - 1] !== d.state) this.states.push(d.state);
    if (d.vaults + d.refusals !== this.count) {
      this.count = d.vaults + d.refusals;
      this.outcomes.push(`${d.obstacleClass}:${d.refusal}`);
    }
  }
  /** Shows the last step: the text, and the button as the component allows it. */
  refresh(): void {
    const d = this.view.data();
    this.stateEl.textContent = `${d.state} · ${d.obstacleClass} · refusal ${d.refusal} · ${d.vaults} vaults, ${d.refusals} refused`;
    const busy = d.state !== 'Idle';
    this.button.disabled = busy;
    this.reasonEl.textContent = busy ? `vaulting (${d.state}, ${Math.round(d.normalizedTime * 100)} %)` : d.refusal !== 'None' ? `last request refused: ${refusalText(d)}` : d.vaults > 0 ? 'last request: vaulted' : '';
  }
}
