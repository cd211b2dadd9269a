// What the player sees: a three.js scene with a sky, fog, a sun that casts shadows, the level's
// boxes with materials per kind (tiled ground, light walls, a wooden crate), the characters as
// the mannequin's skinned mesh (limber/three's RigMeshView, one clone of the glTF per
// character), the rifle as a model carried by the rifle entity, and the NPCs' props.
import * as THREE from 'three';
import { clone as cloneSkinned } from 'three/examples/jsm/utils/SkeletonUtils.js';
import { Transform } from 'limber';
import { GripView, RigMeshView } from 'limber/three';

const SKY = 0xa9c8e4;
/** Colours per level piece kind (generated levels: floor, wall, obstacle, ramp; ours: fence). */
const KIND_COLORS = { floor: 0x7d8a74, wall: 0xd9cdb8, obstacle: 0x8c96a3, ramp: 0x9a8f7e, fence: 0xb59b7a };
const PLAYER_COLOR = 0x4a86e8;
const NPC_COLORS = [0xc9743c, 0x8fa65a, 0xb05a7a, 0x6b8fb0, 0xc2a14a, 0x7a6bb0, 0x5aa69a, 0xa0a0a0];
const PROP_COLORS = { cup: 0xe8e2d0, hammer: 0xd04a2a, pistol: 0x30343a, ball: 0xf2c230 };

/** A canvas texture: `draw(ctx, size)` paints one tile. */
function canvasTexture(size, draw) {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size;
  draw(canvas.getContext('2d'), size);
  const t = new THREE.CanvasTexture(canvas);
  t.wrapS = t.wrapT = THREE.RepeatWrapping;
  t.colorSpace = THREE.SRGBColorSpace;
  t.anisotropy = 4;
  return t;
}

/** Tiles for the ground: 1 m squares with a darker joint, a little noise per tile. */
const groundTile = (ctx, n) => {
  ctx.fillStyle = '#8a9681';
  ctx.fillRect(0, 0, n, n);
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 4; j++) {
      const v = 128 + ((i * 7 + j * 13) % 5) * 6;
      ctx.fillStyle = `rgb(${v - 8}, ${v + 4}, ${v - 14})`;
      ctx.fillRect((i * n) / 4 + 2, (j * n) / 4 + 2, n / 4 - 4, n / 4 - 4);
    }
  }
};
/** Concrete blocks for walls: 0.5 m courses, offset every other row. */
const wallTile = (ctx, n) => {
  ctx.fillStyle = '#b9ad98';
  ctx.fillRect(0, 0, n, n);
  const rows = 4;
  for (let r = 0; r < rows; r++) {
    const shift = r % 2 ? n / 4 : 0;
    for (let c = -1; c < 2; c++) {
      const v = 222 - ((r * 3 + c * 5 + 9) % 4) * 5;
      ctx.fillStyle = `rgb(${v}, ${v - 10}, ${v - 26})`;
      ctx.fillRect(c * (n / 2) + shift + 2, (r * n) / rows + 2, n / 2 - 4, n / rows - 4);
    }
  }
};
/** Planks for the crate. */
const crateTile = (ctx, n) => {
  ctx.fillStyle = '#6e4a26';
  ctx.fillRect(0, 0, n, n);
  for (let i = 0; i < 4; i++) {
    ctx.fillStyle = i % 2 ? '#b07a42' : '#a56f3a';
    ctx.fillRect(3, (i * n) / 4 + 3, n - 6, n / 4 - 6);
  }
  ctx.strokeStyle = '#5a3a1c';
  ctx.lineWidth = n / 16;
  ctx.strokeRect(n / 32, n / 32, n - n / 16, n - n / 16);
};

function levelMaterial(piece, textures) {
  const [sx, sy, sz] = piece.size;
  const color = KIND_COLORS[piece.kind] ?? 0x999999;
  if (piece.name === 'crate') return new THREE.MeshStandardMaterial({ map: textures.crate, roughness: 0.8 });
  if (piece.kind === 'floor' && piece.name === 'ground') {
    const map = textures.ground.clone();
    map.repeat.set(sx / 4, sz / 4);
    map.needsUpdate = true;
    return new THREE.MeshStandardMaterial({ map, roughness: 0.95 });
  }
  if (piece.kind === 'wall') {
    // One texture repeat per 2 m along the wall's long side and its height.
    const map = textures.wall.clone();
    map.repeat.set(Math.max(sx, sz) / 2, sy / 2);
    map.needsUpdate = true;
    const tint = piece.name.startsWith('corridor_') ? 0xfff4e2 : 0xffffff;
    return new THREE.MeshStandardMaterial({ map, color: tint, roughness: 0.9 });
  }
  return new THREE.MeshStandardMaterial({ color, roughness: 0.85 });
}

/** The rifle's model in the rifle entity's frame (origin on the top of the pistol grip, +Z to
 * the muzzle, +Y up; the grip lab's surfaces: pistol grip, foregrip, receiver). */
function rifleModel() {
  const metal = new THREE.MeshStandardMaterial({ color: 0x3a4048, roughness: 0.4, metalness: 0.5 });
  const furniture = new THREE.MeshStandardMaterial({ color: 0xc9a06a, roughness: 0.65 });
  const g = new THREE.Group();
  const add = (geometry, material, p, rx = 0) => {
    const m = new THREE.Mesh(geometry, material);
    m.position.set(p[0], p[1], p[2]);
    m.rotation.x = rx;
    m.castShadow = true;
    g.add(m);
    return m;
  };
  add(new THREE.BoxGeometry(0.05, 0.07, 0.5), metal, [0, 0, 0.1]); // receiver
  add(new THREE.CylinderGeometry(0.016, 0.016, 0.11, 12), furniture, [0, -0.075, -0.04], 0.26); // pistol grip
  add(new THREE.CylinderGeometry(0.024, 0.024, 0.2, 14), furniture, [0, -0.02, 0.16], Math.PI / 2); // foregrip
  add(new THREE.CylinderGeometry(0.011, 0.011, 0.3, 10), metal, [0, 0.012, 0.5], Math.PI / 2); // barrel
  add(new THREE.BoxGeometry(0.045, 0.1, 0.22), furniture, [0, -0.02, -0.24]); // stock
  add(new THREE.BoxGeometry(0.03, 0.14, 0.06), metal, [0, -0.1, 0.07], 0.2); // magazine
  add(new THREE.BoxGeometry(0.022, 0.035, 0.08), metal, [0, 0.05, 0.02]); // sight
  return g;
}

function tint(root, color) {
  root.traverse((o) => {
    if (!o.isMesh) return;
    o.material = o.material.clone();
    o.material.color.set(color);
    o.castShadow = true;
    o.receiveShadow = true;
  });
}

export class GameView {
  /**
   * @param {import('./game.js').Game} game
   * @param {import('three/examples/jsm/loaders/GLTFLoader.js').GLTF} gltf the mannequin
   */
  constructor(game, gltf, canvasParent) {
    this.game = game;
    const renderer = (this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true }));
    renderer.setPixelRatio(Math.min(devicePixelRatio, 2));
    renderer.setSize(innerWidth, innerHeight);
    renderer.shadowMap.enabled = true;
    renderer.shadowMap.type = THREE.PCFSoftShadowMap;
    renderer.toneMapping = THREE.ACESFilmicToneMapping;
    renderer.toneMappingExposure = 1.05;
    canvasParent.appendChild(renderer.domElement);

    const scene = (this.scene = new THREE.Scene());
    scene.background = new THREE.Color(SKY);
    scene.fog = new THREE.Fog(SKY, 30, 70);
    this.camera = new THREE.PerspectiveCamera(50, innerWidth / innerHeight, 0.1, 150);

    scene.add(new THREE.HemisphereLight(0xdfeaff, 0x5a5040, 1.3));
    const sun = (this.sun = new THREE.DirectionalLight(0xfff1dc, 2.6));
    sun.castShadow = true;
    sun.shadow.mapSize.set(2048, 2048);
    const s = sun.shadow.camera;
    s.left = s.bottom = -14;
    s.right = s.top = 14;
    s.near = 1;
    s.far = 60;
    sun.shadow.bias = -0.0004;
    sun.shadow.normalBias = 0.02;
    scene.add(sun, sun.target);

    this.buildLevel();
    this.buildCharacters(gltf);
  }

  buildLevel() {
    const textures = { ground: canvasTexture(256, groundTile), wall: canvasTexture(256, wallTile), crate: canvasTexture(128, crateTile) };
    const group = new THREE.Group();
    group.name = 'level';
    for (const piece of this.game.level.pieces) {
      const mesh = new THREE.Mesh(new THREE.BoxGeometry(...piece.size), levelMaterial(piece, textures));
      mesh.position.set(...piece.center);
      mesh.quaternion.set(...piece.rotation);
      mesh.name = piece.name;
      mesh.castShadow = piece.kind !== 'floor' || piece.name !== 'ground';
      mesh.receiveShadow = true;
      group.add(mesh);
    }
    this.scene.add(group);
    this.level = group;
  }

  buildCharacters(gltf) {
    const { world, player, npcs, rifle } = this.game;
    const body = (entity, color) => {
      const source = cloneSkinned(gltf.scene);
      tint(source, color);
      const view = new RigMeshView(world, entity, { source });
      this.scene.add(view.object);
      return view;
    };
    this.bodies = [body(player, PLAYER_COLOR), ...npcs.map((n, i) => body(n.entity, NPC_COLORS[i % NPC_COLORS.length]))];
    this.rifle = rifleModel();
    this.rifle.matrixAutoUpdate = false;
    this.scene.add(this.rifle);
    this.rifleEntity = rifle;
    // The NPCs' props: their grip surfaces drawn solid, one colour per kind.
    this.props = [];
    const byKind = new Map();
    for (const [name, e] of this.game.scene.entities) {
      const m = /^npc\d+\.(cup|hammer|pistol|ball)/.exec(name);
      if (!m) continue;
      if (!byKind.has(m[1])) byKind.set(m[1], []);
      byKind.get(m[1]).push(e);
    }
    for (const [kind, entities] of byKind) {
      const view = new GripView(world, entities, { solid: true, palms: false, color: PROP_COLORS[kind] });
      this.scene.add(view.object);
      this.props.push(view);
    }
  }

  /** Reads the world into the scene and draws one frame from `camera`. */
  render() {
    for (const b of this.bodies) b.update();
    for (const p of this.props) p.update();
    const t = this.game.world.worldTransform(this.rifleEntity);
    this.rifle.matrix.compose(new THREE.Vector3(...t.t), new THREE.Quaternion(...t.r), new THREE.Vector3(1, 1, 1));
    this.rifle.matrixWorldNeedsUpdate = true;
    // The sun's shadow box follows the player, so 28 m around it get sharp shadows.
    const p = this.game.world.get(this.game.player, Transform).position;
    this.sun.target.position.set(p[0], 0, p[2]);
    this.sun.position.set(p[0] - 12, 22, p[2] - 8);
    this.renderer.render(this.scene, this.camera);
  }

  resize() {
    this.camera.aspect = innerWidth / innerHeight;
    this.camera.updateProjectionMatrix();
    this.renderer.setSize(innerWidth, innerHeight);
  }
}
