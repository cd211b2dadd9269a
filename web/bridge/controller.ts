/** `world.controller`: CharacterController movement requests (controller.h). */
import { vecArg } from './args.js';
import type { Entity, Vec3Like } from './components.js';
import type { World } from './world.js';

export class ControllerApi {
  /** @internal use `world.controller` */
  constructor(private readonly world: World) {}

  /** Adds `delta` (world metres) to the entity's CharacterController movement request: the
   * next step's Move phase moves it by the sum of its requests (root motion, scripts) with
   * collide-and-slide (controller.h). Throws LB_ERR_MISSING_COMPONENT without a controller. */
  readonly move = (e: Entity, delta: Vec3Like): void => {
    const fn = 'controller.move';
    this.world.native(({ ex, heap, w, check, entity }) => {
      const h = entity(e, fn);
      const d = vecArg(delta, 3, fn, 'delta', h);
      heap.scratch(12, (p) => {
        heap.f32.set(d, p >> 2);
        check(ex.lbw_controller_move(w, h, p), { entity: h, fn });
      });
    });
  };
}
