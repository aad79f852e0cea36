// The plan viewer, loaded when a screen first shows a plan (it is not needed for the page's first paint).
import { lazy, Suspense } from 'react';
import { SkeletonBlock } from '../../components/ui/query-states';
import type { FloorPlanProps } from './floor-plan';

let loaded: typeof import('./floor-plan') | undefined;
const load = () =>
  import('./floor-plan').then((module) => {
    loaded = module;
    return module;
  });

/**
 * Loads the viewer now: the server's renderer does before drawing a page (docs/decisions/034), so the
 * plan is in the page it sends rather than its placeholder.
 */
export const preloadFloorPlan = (): Promise<unknown> => load();

const Plan = lazy(() => load().then((module) => ({ default: module.FloorPlan })));

export function LazyFloorPlan(props: FloorPlanProps) {
  // Once here, drawn at once (React.lazy would suspend once even then); the boundary stays either way,
  // so a page that arrived with the plan drawn hydrates it when the viewer's code arrives.
  const Loaded = loaded?.FloorPlan;
  return (
    <Suspense fallback={<SkeletonBlock className="aspect-[25/16] rounded-xl" label="Loading the plan" />}>
      {Loaded ? <Loaded {...props} /> : <Plan {...props} />}
    </Suspense>
  );
}
