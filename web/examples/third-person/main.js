// A third-person game on Limber: WASD + mouse orbit camera, Shift to run, Space to vault, a
// rifle in both hands, a hand on the corridor walls, N for click-to-navigate, 30 NPCs.
//
// The simulation runs at a fixed 60 Hz (an accumulator over real time, at most 4 steps a
// frame). With ?test=1 nothing steps by itself: window.__game.advance(n) runs n steps with the
// keys and mouse as they are, then draws one frame, so a recorded input script plays the same
// way on any machine (tests/e2e/third-person.spec.ts), and the world records its input log
// from the start (world.record), which the spec replays in Node and natively.
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import * as recastCore from '@recast-navigation/core';
import * as recastGenerators from '@recast-navigation/generators';
import { createWorld, GripHolder, Rig, Transform, useRecast } from 'limber';
import { MANNEQUIN } from './files.js';
import { createGame, DT, emptyInput } from './game.js';
import { FollowCamera } from './camera.js';
import { Hud } from './hud.js';
import { GameView } from './view.js';

const params = new URLSearchParams(location.search);
const TEST = params.get('test') === '1';
const MOVE_KEYS = { KeyW: 'forward', KeyS: 'back', KeyA: 'left', KeyD: 'right', ArrowUp: 'forward', ArrowDown: 'back', ArrowLeft: 'left', ArrowRight: 'right' };

/** Files the game reads live next to the page (public/assets/..., see copy-assets.mjs). */
async function read(path) {
  const res = await fetch(new URL(path, document.baseURI));
  if (!res.ok) throw new Error(`cannot load ${path}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** Keyboard and mouse -> the game's input record. Edges (Space, N, a click) stay set until a
 * step has read them. */
function bindInput(canvas, cam, view, game) {
  const input = emptyInput();
  addEventListener('keydown', (e) => {
    if (MOVE_KEYS[e.code]) input[MOVE_KEYS[e.code]] = true;
    else if (e.code === 'ShiftLeft' || e.code === 'ShiftRight') input.run = true;
    else if (e.code === 'Space' && !e.repeat) input.vault = true;
    else if (e.code === 'KeyN' && !e.repeat) input.navToggle = true;
    else return;
    e.preventDefault();
  });
  addEventListener('keyup', (e) => {
    if (MOVE_KEYS[e.code]) input[MOVE_KEYS[e.code]] = false;
    else if (e.code === 'ShiftLeft' || e.code === 'ShiftRight') input.run = false;
  });
  addEventListener('blur', () => Object.assign(input, { forward: false, back: false, left: false, right: false, run: false }));
  // Drag to orbit; a click (under 5 px of travel) in navigation mode picks a destination.
  let down = null;
  canvas.addEventListener('pointerdown', (e) => {
    down = { x: e.clientX, y: e.clientY, lastX: e.clientX, lastY: e.clientY, travel: 0 };
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!down) return;
    const dx = e.clientX - down.lastX;
    const dy = e.clientY - down.lastY;
    down.travel += Math.abs(dx) + Math.abs(dy);
    down.lastX = e.clientX;
    down.lastY = e.clientY;
    if (down.travel >= 5) cam.orbit(dx, dy);
  });
  canvas.addEventListener('pointerup', (e) => {
    if (down && down.travel < 5 && game.navMode) input.navClick = pickGround(e.clientX, e.clientY, view, game);
    down = null;
  });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    cam.zoom(e.deltaY);
  }, { passive: false });
  return input;
}

/** The level point under the mouse: a Limber raycast along the camera ray. */
function pickGround(x, y, view, game) {
  const ndc = new THREE.Vector2((x / innerWidth) * 2 - 1, -(y / innerHeight) * 2 + 1);
  const ray = new THREE.Raycaster();
  ray.setFromCamera(ndc, view.camera);
  const hit = game.world.collide.raycast(ray.ray.origin.toArray(), ray.ray.direction.toArray(), 200);
  return hit ? hit.point : null;
}

/** Screen-space box (pixels) of the player's joints, head top to toes. */
function playerBox(game, camera) {
  const world = game.world;
  const root = world.worldTransform(game.player);
  const m = new THREE.Matrix4().compose(new THREE.Vector3(...root.t), new THREE.Quaternion(...root.r), new THREE.Vector3(...root.s));
  const v = new THREE.Vector3();
  const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity, width: innerWidth, height: innerHeight, joints: 0 };
  for (const j of world.modelPose(game.player)) {
    v.set(j.t[0], j.t[1], j.t[2]).applyMatrix4(m).project(camera);
    const px = ((v.x + 1) / 2) * innerWidth;
    const py = ((1 - v.y) / 2) * innerHeight;
    box.minX = Math.min(box.minX, px);
    box.maxX = Math.max(box.maxX, px);
    box.minY = Math.min(box.minY, py);
    box.maxY = Math.max(box.maxY, py);
    box.joints++;
  }
  return box;
}

/** Palm centres (hand joint and middle-finger root halfway, in the world) against the grip's
 * anchors, from the pose the renderer draws: a check independent of the GripHolder outputs. */
function palms(game) {
  const { world, player } = game;
  const asset = world.get(player, Rig).asset;
  const root = world.worldTransform(player);
  const m = new THREE.Matrix4().compose(new THREE.Vector3(...root.t), new THREE.Quaternion(...root.r), new THREE.Vector3(...root.s));
  const pose = world.modelPose(player);
  const at = (name) => new THREE.Vector3(...pose[world.rig.findJoint(asset, name)].t).applyMatrix4(m);
  const palm = (side) => at(`${side}Hand`).add(at(`${side}HandMiddle1`)).multiplyScalar(0.5);
  const gap = (side, role) => {
    const a = world.grip.anchor(player, role);
    return a ? palm(side).distanceTo(new THREE.Vector3(...a.t)) : null;
  };
  const mainHand = world.get(player, GripHolder).mainHand;
  const other = mainHand === 'Right' ? 'Left' : 'Right';
  return { main: gap(mainHand, 'main'), support: gap(other, 'support') };
}

async function main() {
  useRecast({ core: recastCore, generators: recastGenerators });
  const hud = new Hud(document.body);
  hud.loading('loading the world…');
  const world = await createWorld(); // finds limber.wasm (limber-mt.wasm when isolated) by itself
  hud.threads(world.threads);
  // In test mode the whole session is an input log from the empty world on: the navmesh the
  // page bakes, the scene with its files, every input and step (window.__game.stopRecording),
  // so Node and the native CLI can replay it to the same hash.
  if (TEST) world.record();
  const game = await createGame(world, read);
  hud.loading('loading the mannequin…');
  const gltf = await new GLTFLoader().parseAsync((await read(MANNEQUIN)).buffer, '');
  const view = new GameView(game, gltf, document.body);
  const cam = new FollowCamera(view.camera, world, { yaw: game.cameraYaw });
  const input = bindInput(view.renderer.domElement, cam, view, game);
  addEventListener('resize', () => view.resize());
  hud.bind(() => (input.navToggle = true));

  const step = () => {
    game.cameraYaw = cam.yaw;
    game.step(input);
    input.vault = input.navToggle = false;
    input.navClick = null;
    cam.follow(world.get(game.player, Transform).position, DT);
  };
  let frames = 0;
  const drawFrame = () => {
    cam.apply();
    view.render();
    hud.update(game.status());
    frames++;
  };
  cam.follow(world.get(game.player, Transform).position, DT);
  drawFrame();

  window.__game = {
    game,
    world,
    test: TEST,
    get frames() {
      return frames;
    },
    /** Runs n fixed steps with the current input, then draws (unless draw is false); returns
     * one record per step. */
    advance(n, draw = true) {
      const log = [];
      for (let i = 0; i < n; i++) {
        step();
        const s = game.status();
        log.push({ step: s.step, position: s.position, touch: s.touch.state, side: s.touch.side, vault: s.vault.state, refusal: s.vault.refusal, plantedHand: s.vault.plantedHand, grip: s.grip, palms: palms(game), nav: s.nav, keysIgnored: s.keysIgnored, owner: s.owner });
      }
      if (draw) drawFrame();
      else cam.apply();
      return log;
    },
    status: () => game.status(),
    /** Test mode: the input log since the world was made (world.stopRecording). */
    stopRecording: () => world.stopRecording(),
    hash: () => world.hash(),
    crowd: () => game.crowdStatus(),
    palms: () => palms(game),
    playerBox: () => playerBox(game, view.camera),
    /** Pixels of a world point on the canvas. */
    project(p) {
      cam.apply();
      const v = new THREE.Vector3(...p).project(view.camera);
      return [((v.x + 1) / 2) * innerWidth, ((1 - v.y) / 2) * innerHeight];
    },
    camera: () => ({ yaw: cam.yaw, pitch: cam.pitch, distance: cam.distance, applied: cam.applied, appliedPitch: cam.appliedPitch }),
  };
  document.body.dataset.ready = '1';
  if (TEST) return;

  let acc = 0;
  let last = performance.now();
  const frame = (now) => {
    acc = Math.min(acc + (now - last) / 1000, 4 * DT);
    last = now;
    while (acc >= DT) {
      step();
      acc -= DT;
    }
    drawFrame();
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

main().catch((err) => {
  document.body.dataset.ready = 'error';
  const box = document.getElementById('error') ?? document.body.appendChild(document.createElement('pre'));
  box.id = 'error';
  box.textContent = `error: ${err.message}`;
  console.error(err);
});
