// Counts per day as a line chart, drawn by uPlot (a small, maintained canvas chart library). The library
// and its styles are a chunk of their own, loaded by the first chart shown: no other page pays for it.
// The canvas is one image to screen readers, named with the range and the total; the numbers are in the
// table beside it (and its CSV).
import { useEffect, useRef, useState } from 'react';

export interface DayCount {
  day: string;
  n: number;
}

export function DayChart({ label, days }: { label: string; days: readonly DayCount[] }) {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const total = days.reduce((sum, day) => sum + day.n, 0);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let chart: { destroy(): void; setSize(size: { width: number; height: number }): void } | null = null;
    let observer: ResizeObserver | null = null;
    let cancelled = false;
    Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')])
      .then(([{ default: UPlot }]) => {
        if (cancelled) return;
        const xs = days.map((day) => Date.parse(`${day.day}T12:00:00Z`) / 1000);
        const ys = days.map((day) => day.n);
        const size = () => ({ width: Math.max(240, element.clientWidth), height: 220 });
        chart = new UPlot(
          {
            ...size(),
            legend: { show: false },
            cursor: { show: true, drag: { x: false, y: false } },
            scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, max)] } },
            axes: [{ stroke: '#475569' }, { stroke: '#475569' }],
            series: [{}, { label, stroke: '#4f46e5', width: 2, fill: 'rgba(79, 70, 229, 0.12)' }],
          },
          [xs, ys],
          element,
        );
        observer = new ResizeObserver(() => chart?.setSize(size()));
        observer.observe(element);
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [days, label]);

  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  return (
    <figure className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <figcaption className="mb-2 text-sm font-semibold text-slate-800">{label}</figcaption>
      {failed ? (
        <p className="text-sm text-slate-600">
          The chart could not be loaded; the numbers are in the tables.
        </p>
      ) : (
        <div
          ref={box}
          role="img"
          aria-label={`${label} from ${first} to ${last}: ${total} in all`}
          className="min-h-[220px] w-full overflow-hidden"
        />
      )}
    </figure>
  );
}
