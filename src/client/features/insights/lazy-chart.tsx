// The chart's code (and uPlot's) is loaded when a chart is first shown (features/insights/day-chart.tsx).
import { lazy, Suspense } from 'react';
import { SkeletonBlock } from '../../components/ui/query-states';
import type { DayCount } from './day-chart';

const Chart = lazy(() => import('./day-chart').then((module) => ({ default: module.DayChart })));

export function LazyDayChart(props: { label: string; days: readonly DayCount[] }) {
  return (
    <Suspense fallback={<SkeletonBlock className="h-[260px] rounded-2xl" label="Loading the chart" />}>
      <Chart {...props} />
    </Suspense>
  );
}
