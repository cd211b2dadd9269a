/** Who writes an entity's game inputs now. A NavAgent heading for a destination in driveMode
 * 'NavDestination' or 'Both' owns its Animator locomotion parameter and the movement requests
 * (world.controller.move, CharacterController.move); a Vault under way owns the movement requests.
 * Writing an owned input throws LB_ERR_BUSY naming the entity, the input and the owner, and
 * changes nothing; per-frame input code asks here first instead of catching. The full table:
 * docs/architecture.md, "Who writes what". C: lb_world_input_owner (limber/world.h). */
import { badArgument, describe, nameArg } from './args.js';
import type { Entity } from './components.js';
import type { World } from './world.js';

/** The component that owns an input. */
export type InputOwner = 'NavAgent' | 'Vault';
/** 'move': the movement requests; { param }: an Animator parameter by name. */
export type OwnedInput = 'move' | { param: string };

/** The owner of the entity's input now, or null when the game may write it. */
export function inputOwner(world: World, entity: Entity, input: OwnedInput): InputOwner | null {
  const fn = 'inputOwner';
  const param = input === 'move' ? null : typeof input === 'object' && input !== null && typeof input.param === 'string' ? input.param : undefined;
  if (param === undefined) throw badArgument(fn, 'input', `must be 'move' or { param: name }, got ${describe(input)}`);
  if (param !== null) nameArg(param, fn, 'input.param');
  return world.native(({ ex, heap, w, check, entity: live }) => {
    const e = live(entity, fn);
    const ask = (name: number) =>
      heap.scratch(4, (p) => {
        check(ex.lbw_input_owner(w, e, param === null ? 0 : 1, name, p), { entity: e, fn });
        const owner = heap.u32[p >> 2];
        return owner === 0 ? null : (heap.cstring(owner) as InputOwner);
      });
    return param === null ? ask(0) : heap.withString(param, fn, (n) => ask(n));
  });
}
