/** The playground floor: a plane at y = 0 that follows the camera target, shaded with a grid
 * computed from world coordinates (so the lines stay put while the plane moves), minor lines
 * faded out where they would alias, everything faded into the background with distance (no
 * horizon band), and a soft contact shadow under each character. Drawn before everything
 * else and pushed back in depth, so feet at y = 0 are never hidden by it. */
import * as THREE from 'three';

const MAX_BLOBS = 4;

const vertexShader = /* glsl */ `
varying vec3 vWorld;
void main() {
  vec4 world = modelMatrix * vec4(position, 1.0);
  vWorld = world.xyz;
  gl_Position = projectionMatrix * viewMatrix * world;
}
`;

const fragmentShader = /* glsl */ `
uniform vec3 uFloor;
uniform vec3 uMinor;
uniform vec3 uMajor;
uniform vec3 uBackground;
uniform float uCell;
uniform float uMajorCell;
uniform float uFadeNear;
uniform float uFadeFar;
uniform vec4 uBlobs[${MAX_BLOBS}];
varying vec3 vWorld;

// 1 on a grid line (about px pixels wide), 0 between; lines closer than a few pixels fade out.
float grid(vec2 p, float cell, float px) {
  vec2 c = p / cell;
  vec2 w = max(fwidth(c), vec2(1e-5));
  vec2 g = abs(fract(c - 0.5) - 0.5) / w;
  float line = 1.0 - min(min(g.x, g.y) / px, 1.0);
  return line * (1.0 - smoothstep(0.12, 0.45, max(w.x, w.y)));
}

void main() {
  vec2 p = vWorld.xz;
  vec3 col = uFloor;
  col = mix(col, uMinor, grid(p, uCell, 1.0));
  col = mix(col, uMajor, grid(p, uMajorCell, 1.5));
  float shade = 1.0;
  for (int i = 0; i < ${MAX_BLOBS}; i++) {
    vec4 b = uBlobs[i];
    if (b.z <= 0.0) continue;
    float d = length(p - b.xy) / b.z;
    shade *= 1.0 - b.w * exp(-d * d * 2.5);
  }
  col *= shade;
  float f = smoothstep(uFadeNear, uFadeFar, distance(cameraPosition.xz, p));
  gl_FragColor = vec4(mix(col, uBackground, f), 1.0);
  #include <colorspace_fragment>
}
`;

export interface FloorOptions {
  background: THREE.ColorRepresentation;
  /** Grid cell and major cell, metres. Default 0.5 and 2.5. */
  cell?: number;
  majorCell?: number;
}

export class Floor {
  readonly object: THREE.Mesh<THREE.PlaneGeometry, THREE.ShaderMaterial>;
  private readonly blobs: THREE.Vector4[];

  constructor(options: FloorOptions) {
    this.blobs = Array.from({ length: MAX_BLOBS }, () => new THREE.Vector4(0, 0, 0, 0));
    const material = new THREE.ShaderMaterial({
      vertexShader,
      fragmentShader,
      uniforms: {
        uFloor: { value: new THREE.Color(0x7a838f) },
        uMinor: { value: new THREE.Color(0x6e7784) },
        uMajor: { value: new THREE.Color(0x5d6673) },
        uBackground: { value: new THREE.Color(options.background) },
        uCell: { value: options.cell ?? 0.5 },
        uMajorCell: { value: options.majorCell ?? 2.5 },
        uFadeNear: { value: 10 },
        uFadeFar: { value: 40 },
        uBlobs: { value: this.blobs },
      },
      polygonOffset: true,
      polygonOffsetFactor: 1,
      polygonOffsetUnits: 1,
    });
    const geometry = new THREE.PlaneGeometry(1, 1);
    geometry.rotateX(-Math.PI / 2);
    this.object = new THREE.Mesh(geometry, material);
    this.object.name = 'floor';
    this.object.renderOrder = -1;
    this.object.frustumCulled = false;
  }

  /** Fades the grid out between near and far metres (horizontal distance from the camera);
   * the plane reaches past far in every direction. */
  setRange(near: number, far: number): void {
    this.object.material.uniforms.uFadeNear.value = near;
    this.object.material.uniforms.uFadeFar.value = far;
    this.object.scale.set(far * 2.5, 1, far * 2.5);
  }

  /** Centres the plane under a point (the camera target), staying at y = 0. */
  follow(p: THREE.Vector3): void {
    this.object.position.set(p.x, 0, p.z);
  }

  /** Contact shadows: up to four [x, z] spots (character roots), radius in metres. */
  setShadows(spots: readonly (readonly [number, number])[], radius = 0.42, strength = 0.5): void {
    this.blobs.forEach((b, i) => {
      const s = spots[i];
      if (s) b.set(s[0], s[1], radius, strength);
      else b.set(0, 0, 0, 0);
    });
  }

  dispose(): void {
    this.object.removeFromParent();
    this.object.geometry.dispose();
    this.object.material.dispose();
  }
}
