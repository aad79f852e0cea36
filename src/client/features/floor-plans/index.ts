// Floor plans and their pins (docs/decisions/021). Shopper screens get the plan through LazyFloorPlan,
// which loads the viewer when a plan is first shown (it stays out of their first chunk); the admin's pin
// editor is in ./forms.
export { LazyFloorPlan, preloadFloorPlan } from './lazy';
