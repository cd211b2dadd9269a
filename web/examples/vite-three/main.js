// A tiny game: the generated mannequin plays its idle clip with three.js's AnimationMixer,
// Limber adds the grip on top (ExternalAnimation), and the mannequin holds a rifle that the
// game places in front of it (GripHolder, Object placement).
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { createWorld, GripHolder, GripPlacement, Rig, Transform } from 'limber';
import { ExternalAnimation, GripView } from 'limber/three';

const hud = document.getElementById('hud');

async function main() {
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(devicePixelRatio, 2));
  renderer.setSize(innerWidth, innerHeight);
  document.body.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x2a3038);
  const camera = new THREE.PerspectiveCamera(40, innerWidth / innerHeight, 0.05, 100);
  camera.position.set(1.7, 1.45, 2.7);
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.target.set(0, 0.95, 0.1);
  controls.update();
  scene.add(new THREE.HemisphereLight(0xdfe8ff, 0x404040, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 2.2);
  sun.position.set(2, 4, 3);
  scene.add(sun);
  scene.add(new THREE.GridHelper(10, 20, 0x8a96a8, 0x4a525e));

  // The character: one .glb, read once, given to three.js and to Limber.
  const bytes = new Uint8Array(await (await fetch('./mannequin.glb')).arrayBuffer());
  const gltf = await new GLTFLoader().parseAsync(bytes.buffer, '');
  scene.add(gltf.scene);
  let mesh;
  gltf.scene.traverse((o) => {
    if (o.isSkinnedMesh) mesh = o;
  });
  const mixer = playClip(gltf, 'idle');

  const world = await createWorld(); // finds limber.wasm by itself
  const hero = world.spawn();
  world.insert(hero, Transform, {});
  world.insert(hero, Rig, { asset: world.rig.load(bytes).asset });

  // The rifle: entities with grip anchors and surfaces (the same data as assets/props/rifle.json).
  const prop = world.loadScene(JSON.stringify(rifle));
  const gun = prop.entities.get('rifle');
  world.insert(hero, GripHolder, { held: gun, placement: GripPlacement.Object, shoulderAssist: 0.5 });
  const view = new GripView(world, [...prop.entities.values()], { solid: true, palms: false });
  scene.add(view.object);

  const anim = new ExternalAnimation(world, hero, mesh);
  const palm = { hand: mesh.skeleton.getBoneByName('RightHand'), middle: mesh.skeleton.getBoneByName('RightHandMiddle1') };
  const a = new THREE.Vector3();
  const b = new THREE.Vector3();
  const timer = new THREE.Timer();
  let t = 0;

  function frame(now) {
    timer.update(now);
    const dt = Math.min(timer.getDelta(), 1 / 20);
    t += dt;
    // The game moves the rifle a little (aiming); the arms follow.
    world.update(gun, Transform, (x) => {
      x.position = [-0.05 + 0.04 * Math.sin(t * 0.9), 1.25 + 0.03 * Math.sin(t * 1.3), 0.25];
    });
    mixer.update(dt);
    anim.beforeStep();
    world.step(1 / 60);
    anim.afterStep();
    view.update();
    gltf.scene.updateMatrixWorld(true);
    // Where the rendered right palm is (midpoint of hand and middle-finger root, as the core
    // defines the palm centre) and where the rifle's grip anchor is.
    a.setFromMatrixPosition(palm.hand.matrixWorld).add(b.setFromMatrixPosition(palm.middle.matrixWorld)).multiplyScalar(0.5);
    const anchor = world.worldTransform(prop.entities.get('rifle.mainAnchor')).t;
    const palmToGrip = a.distanceTo(b.set(anchor[0], anchor[1], anchor[2]));
    const g = world.get(hero, GripHolder);
    window.__example = { frames: (window.__example?.frames ?? 0) + 1, palmToGrip, mainDistance: g.mainDistance, supportDistance: g.supportDistance };
    hud.textContent = `right palm to grip: ${(palmToGrip * 1000).toFixed(1)} mm · support hand: ${(g.supportDistance * 1000).toFixed(1)} mm`;
    renderer.render(scene, camera);
    requestAnimationFrame(frame);
  }
  addEventListener('resize', () => {
    camera.aspect = innerWidth / innerHeight;
    camera.updateProjectionMatrix();
    renderer.setSize(innerWidth, innerHeight);
  });
  frame();
}

function playClip(gltf, name) {
  const mixer = new THREE.AnimationMixer(gltf.scene);
  mixer.clipAction(gltf.animations.find((c) => c.name === name) ?? gltf.animations[0]).play();
  return mixer;
}

// The rifle, 0.9 m long: origin on the pistol grip, +Z to the muzzle. Anchors use the palm
// frame (origin palm centre, +Z along the fingers, +Y out of the palm).
const rifle = {
  entities: [
    { name: 'rifle', components: { Transform: { position: [-0.05, 1.25, 0.25] },
      GripProfile: { mainAnchor: 'rifle.mainAnchor', supportAnchor: 'rifle.supportAnchor', mainPose: 'pistol', supportPose: 'support' } } },
    { name: 'rifle.mainAnchor', components: { Transform: { parent: 'rifle', position: [-0.0331565, -0.0424396, -0.0282392], rotation: [0.2048433, -0.0226984, -0.7067424, 0.6767859] } } },
    { name: 'rifle.supportAnchor', components: { Transform: { parent: 'rifle', position: [0.0120686, -0.0102287, 0.28], rotation: [0.0944042, -0.6432172, 0.110339, 0.7517877] } } },
    { name: 'rifle.grip', components: { Transform: { parent: 'rifle', position: [0, -0.055, -0.02], rotation: [0.1305262, 0, 0, 0.9914449] },
      GripSurface: { shape: 'Cylinder', direction: 'Y', radius: 0.015, height: 0.11 } } },
    { name: 'rifle.handguard', components: { Transform: { parent: 'rifle', position: [0, 0.03, 0.28] }, GripSurface: { shape: 'Cylinder', direction: 'Z', radius: 0.022, height: 0.26 } } },
    { name: 'rifle.receiver', components: { Transform: { parent: 'rifle', position: [0, 0.035, 0] }, GripSurface: { shape: 'Box', size: [0.05, 0.07, 0.3] } } },
    { name: 'rifle.stock', components: { Transform: { parent: 'rifle', position: [0, 0.01, -0.26] }, GripSurface: { shape: 'Box', size: [0.04, 0.12, 0.2] } } },
    { name: 'rifle.barrel', components: { Transform: { parent: 'rifle', position: [0, 0.035, 0.475] }, GripSurface: { shape: 'Cylinder', direction: 'Z', radius: 0.009, height: 0.13 } } },
    { name: 'rifle.magazine', components: { Transform: { parent: 'rifle', position: [0, -0.04, 0.08], rotation: [-0.0871557, 0, 0, 0.9961947] }, GripSurface: { shape: 'Box', size: [0.028, 0.12, 0.05] } } },
  ],
};

main().catch((err) => {
  hud.textContent = `error: ${err.message}`;
  console.error(err);
});
