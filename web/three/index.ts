/** three.js adapter for Limber: views that draw world entities and helpers
 * that move entities from three.js objects (gizmos, pickers). */
export { SkeletonView } from './skeleton-view.js';
export type { SkeletonViewOptions } from './skeleton-view.js';
export { EntityMarker } from './entity-marker.js';
export type { EntityMarkerOptions } from './entity-marker.js';
export { applyJointTransform, findRigJoint, jointWorldPosition, parentFrame, setWorldPosition } from './pose.js';
export type { WorldView } from './pose.js';
export { GripView, GRIP_COLORS } from './grip-view.js';
export type { GripViewOptions } from './grip-view.js';
export { ExternalAnimation } from './external-animation.js';
export type { BoneNameMap, ExternalAnimationOptions } from './external-animation.js';
export { RigMeshView } from './rig-mesh-view.js';
export type { RigMeshViewOptions } from './rig-mesh-view.js';
