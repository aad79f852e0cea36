// The plan viewer, loaded when a screen first shows a plan (it is not needed for the page's first paint).
import { lazy, Suspense } from 'react';
import type { FloorPlanProps } from './floor-plan';

const Plan = lazy(() => import('./floor-plan').then((module) => ({ default: module.FloorPlan })));

export function LazyFloorPlan(props: FloorPlanProps) {
  return (
    <Suspense
      fallback={
        <div role="status" className="aspect-[25/16] w-full animate-pulse rounded-xl bg-slate-100">
          <span className="sr-only">Loading the plan</span>
        </div>
      }
    >
      <Plan {...props} />
    </Suspense>
  );
}
