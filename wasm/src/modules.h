/* The one list of modules, in pipeline order (ties within a phase run in this order).
 * Adding a module: a folder under wasm/src with its lb_module_def, and one line here.
 * Index 0 is the world core's own (Transform and the hierarchy). */
#ifndef LIMBER_MODULES_H
#define LIMBER_MODULES_H

#include "world/module.h"

#define LB_MODULE_LIST(X)                                                                          \
  X(rig)        /* Rig: skeleton instances, pose buffers, local->model, output matrices */         \
  X(anim)       /* Animator: controllers, clips, root motion */                                    \
  X(ik)         /* TwoBoneIK constraints */                                                        \
  X(grip)       /* GripPose, GripHolder, GripProfile, GripSurface */                               \
  X(collide)    /* Collider: shapes, mesh assets, the collider hierarchy and queries */            \
  X(nav)        /* navmesh assets and queries, NavAgent */                                         \
  X(controller) /* CharacterController: collide-and-slide moves in the Move phase */               \
  X(interact)   /* EnvironmentInteraction: a hand on nearby walls */                               \
  X(vault)      /* Vault: probe, controller shrink and restore, the planted hand */

enum {
  LB_MODULE_CORE = 0,
#define LB_MODULE_ENUM_(name) LB_MODULE_##name,
  LB_MODULE_LIST(LB_MODULE_ENUM_)
#undef LB_MODULE_ENUM_
      LB_MODULE_COUNT
};

#define LB_MODULE_DECL_(name) extern const lb_module_def lb_module_##name;
LB_MODULE_LIST(LB_MODULE_DECL_)
#undef LB_MODULE_DECL_

#endif
