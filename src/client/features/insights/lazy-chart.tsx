// The chart's code (and uPlot's) is loaded when a chart is first shown (features/insights/day-chart.tsx).
import { lazy, Suspense } from 'react';
import type { DayCount } from './day-chart';

const Chart = lazy(() => import('./day-chart').then((module) => ({ default: module.DayChart })));

export function LazyDayChart(props: { label: string; days: readonly DayCount[] }) {
  return (
    <Suspense
      fallback={
        <div role="status" className="h-[260px] w-full animate-pulse rounded-2xl bg-slate-100">
          <span className="sr-only">Loading the chart</span>
        </div>
      }
    >
      <Chart {...props} />
    </Suspense>
  );
}
