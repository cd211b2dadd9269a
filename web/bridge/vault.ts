/** `world.vault`: vault requests and the probe's casts (vault.h). */
import type { Entity, Vec3 } from './components.js';
import type { World } from './world.js';

/** One cast of a vault probe (world.vault.casts), world metres. */
export interface VaultCast {
  origin: Vec3;
  /** unit direction */
  dir: Vec3;
  /** sphere radius; 0 for a ray */
  radius: number;
  /** how far it was cast */
  length: number;
  /** distance of the hit along dir, -1 when nothing was hit */
  hit: number;
}

/** Floats per cast in lbw_vault_casts' output, and the most one probe makes. */
const CAST_FLOATS = 10;
const MAX_CASTS = 32;

export class VaultApi {
  /** @internal use `world.vault` */
  constructor(private readonly world: World) {}

  /** Requests a vault (the same as `update(e, Vault, { request: true })`): the next step's
   * Move phase probes the obstacle ahead and vaults it, or refuses with the reason in
   * `Vault.refusal` (vault.h). Throws LB_ERR_MISSING_COMPONENT without a Vault. */
  readonly request = (e: Entity): void => {
    const fn = 'vault.request';
    this.world.native(({ ex, w, check, entity }) => {
      const h = entity(e, fn);
      check(ex.lbw_vault_request(w, h), { entity: h, component: 'Vault', fn });
    });
  };

  /** The casts of the entity's last vault probe, for drawing: origin, unit direction, radius
   * (0 = a ray), length cast and hit distance (-1 = no hit), world metres. */
  readonly casts = (e: Entity): VaultCast[] => {
    const fn = 'vault.casts';
    return this.world.native(({ ex, heap, w, check, entity }) => {
      const h = entity(e, fn);
      const bytes = MAX_CASTS * CAST_FLOATS * 4;
      return heap.scratch(bytes + 4, (p) => {
        const count = p + bytes;
        check(ex.lbw_vault_casts(w, h, p, MAX_CASTS, count), { entity: h, component: 'Vault', fn });
        const n = Math.min(heap.u32[count >> 2]!, MAX_CASTS);
        const f = heap.f32;
        const out: VaultCast[] = [];
        for (let i = 0; i < n; i++) {
          const b = (p >> 2) + i * CAST_FLOATS;
          out.push({ origin: [f[b]!, f[b + 1]!, f[b + 2]!], dir: [f[b + 3]!, f[b + 4]!, f[b + 5]!], radius: f[b + 6]!, length: f[b + 7]!, hit: f[b + 8]! });
        }
        return out;
      });
    });
  };
}
