/* Limber public API, umbrella header. */
#ifndef LIMBER_H
#define LIMBER_H
#include "limber/anim.h"
#include "limber/animator.h"
#include "limber/base.h"
#include "limber/collide.h"
#include "limber/components.h"
#include "limber/controller.h"
#include "limber/geom.h"
#include "limber/gltf.h"
#include "limber/grip.h"
#include "limber/grip_pose.h"
#include "limber/grip_wrap.h"
#include "limber/ik.h"
#include "limber/interact.h"
#include "limber/math.h"
#include "limber/nav.h"
#include "limber/rig.h"
#include "limber/scene.h"
#include "limber/schema.h"
#include "limber/vault.h"
#include "limber/world.h"
#endif
