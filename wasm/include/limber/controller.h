/* Character controller (module "controller"): an upright capsule that moves its entity by
 * collide-and-slide against the colliders of the collide module (collide.h), deterministic
 * (single precision, + - * / and sqrt, fixed iteration counts and order).
 *
 * ---- The CharacterController component (limber/components.h) ---------------------------
 * On a root entity (Transform, no parent). The capsule is centred at position + `center`
 * (world axes, not rotated or scaled by the Transform), `height` long including its caps,
 * `radius` wide. Colliders on the entity itself are ignored; `layers` selects the rest.
 * Refused at write, naming the field, the world unchanged: height < 2 radius, skinWidth >=
 * radius, stepOffset > height, non-finite or out-of-range values (schema ranges).
 *
 * ---- Movement requests -------------------------------------------------------------------
 * In the Move phase every movement request for the entity goes through its controller: root
 * motion from its Animator (anim.root_motion hands it over through the module contract's
 * `move` hook instead of moving the Transform), and the `move` field a script writes
 * (world.controller.move(e, delta) in TypeScript). `controller.move` (Move phase, order 50)
 * then makes one move per controller, in entity order, with the sum of the step's requests,
 * and clears `move`. A controller with no request still runs a zero move (depenetration and
 * ground snap), so a capsule never stays inside geometry that moved onto it.
 *
 * ---- One move (delta) -----------------------------------------------------------------------
 * 1. Size: a changed height/center is taken only when the new capsule, grown by half the
 *    skin, touches nothing (else the old one stays and it is tried again next step);
 *    appliedHeight/appliedCenter report the size in use. While a size waits, landing (3a)
 *    keeps the waiting capsule's bottom skinWidth above the ground, not the applied one's,
 *    so a shrunk capsule is never set down where the requested one could only fit inside
 *    the ground.
 * 2. Depenetrate: up to 4 times, the capsule touching a collider (a zero-length capsule cast:
 *    its depenetration point and normal) is pushed out along the normal to skinWidth clear.
 *    Another controller's collider (a Collider on a controller entity or below it) moves too:
 *    the capsule is pushed across, away from that collider's centre, by half of what would
 *    bring it skinWidth clear (that controller's own move takes the other half in the same
 *    Move phase), once per move and at most LB_CONTROLLER_SEPARATION_SPEED * dt, so a pair
 *    spawned inside each other separates over a few steps and rests skinWidth apart. When the
 *    two axes coincide across (closer than 1e-5 m) the pair separates along a fixed axis
 *    turned 45 degrees per entity slot (the higher slot of the two; the lower slot goes the
 *    opposite way): deterministic, no randomness. A step with dt 0 separates nothing.
 *    (A walk's first slide cast, from the same point, is made first: a capsule touching
 *    something is hit by it at distance 0, so when it is clear there the zero-length cast is
 *    not made; the same answers, one cast fewer per move.)
 * 3. Upward request (a jump, vertical root motion): one slide of the whole delta, no step or
 *    snap. Otherwise the horizontal part slides at foot level, then the capsule is cast down
 *    by the downward part + snapDistance (landing, 4.).
 *    Slide: up to 4 capsule casts; at a contact the capsule stops skinWidth (along the
 *    contact normal) short of it and the rest of the motion is redirected: a walkable contact
 *    (normal within slopeLimit of up and the contact point at most stepOffset above the foot
 *    where the move started) turns it up or down the surface at the same horizontal speed;
 *    anything else (walls, steeper slopes, edges above the step height) removes its component
 *    into the contact's vertical plane, so nothing steep is climbed; a contact against the
 *    previous plane slides along the crease of both.
 *    Step: when the foot-level slide met a contact it may not climb, the move is tried again
 *    raised: cast up by stepOffset, the same slide, cast down by the raise + the downward
 *    part + snapDistance. It replaces the foot-level result when it got further along the
 *    request and its landing is allowed: not higher than it started unless the ground is
 *    walkable (a step edge counts when the surface just beyond it is) and the contact is at
 *    most stepOffset above the starting foot (the rounded bottom never rides up taller edges).
 * 4. Landing: ground found within snapDistance below (after the motion) is snapped to,
 *    skinWidth clear; grounded = that ground is walkable. No ground: the capsule keeps the
 *    requested vertical motion (gravity is the caller's: include it in the request). Still
 *    inside another controller (separating), the cast sees nothing through it: the height
 *    stays and grounded keeps its last value.
 * The position stays within LB_WORLD_EXTENT (components.h) on every axis: a move that would
 * leave it stops at the edge, so the Transform stays writable. Queries and moves inside it are
 * exact to the skin (float spacing at most 1.95 mm; tests/c/test_world_extent.c).
 * Outputs: requested (the summed request, also with backend Host), grounded, velocity
 * (displacement / dt), hitCount and the first three contacts' normals and entities (slides,
 * then the ground) of the attempt kept.
 */
#ifndef LIMBER_CONTROLLER_H
#define LIMBER_CONTROLLER_H

#include "limber/base.h"
#include "limber/math.h"
#include "limber/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CharacterController.backend values. */
typedef enum lb_controller_backend {
  LB_CONTROLLER_BACKEND_BUILTIN = 0, /* this module moves the capsule in the Move phase */
  LB_CONTROLLER_BACKEND_HOST = 1,    /* the Move phase only sums the requests into `requested`;
                                        the host (limber/rapier) moves the entity */
} lb_controller_backend;

/* Contacts kept per move in the component's hitNormal/hitEntity outputs. */
#define LB_CONTROLLER_HITS 3
/* Slide iterations and depenetration passes per move. */
#define LB_CONTROLLER_ITERATIONS 4
/* Fastest a controller is pushed out of another controller, m/s (a pair separates at up to
 * twice this). Each move pushes at most this * dt: a step of dt 0 separates nothing. It is also
 * the speed at which one that lands on another's capsule slides off it (characters are not
 * floors). Walking into another controller (one with a Collider, as a crowd gives them) never
 * pushes it: the other's capsule is a wall to the slide, so the walker stops skin short of it or
 * slides round it. Measured (tests/c/test_controller_push.c, 0.3 x 1.8 m capsules): walking
 * into one standing at 1.4 or 5 m/s moves it 0 m/s; head-on at 1.4 m/s each, each is pushed back
 * at most 0.3 m/s and the pair rests skin apart; dropped onto a head, the falling one slides off
 * at 2 m/s and is on the floor 4 steps later, the one below moves at most 0.61 m/s. */
#define LB_CONTROLLER_SEPARATION_SPEED 2.0f

/* Adds delta (world metres) to the entity's movement request for the next Move phase (the
 * same as adding to its `move` field). LB_ERR_MISSING_COMPONENT without a controller,
 * LB_ERR_NOT_FINITE / LB_ERR_OUT_OF_RANGE for a bad delta (|each| <= 1e4), LB_ERR_BUSY while a
 * system moves the character itself (a NavAgent heading for a destination in NavDestination
 * or Both, a Vault not Idle: lb_world_input_owner, world.h; a write of `move` is refused the
 * same way). Nothing changes on an error. */
lb_result lb_world_controller_move(lb_world *world, lb_entity e, const vec3 delta);

#ifdef __cplusplus
}
#endif
#endif
