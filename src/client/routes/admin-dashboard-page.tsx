import { useQuery } from '@tanstack/react-query';
import { type LucideIcon, Package, Percent, Store } from 'lucide-react';
import type { ReactNode } from 'react';
import type { AdminStats } from '../../shared/auth';
import { IconTile } from '../components/ui/icon-tile';
import { QueryView } from '../components/ui/query-states';
import { InvitesPanel } from '../features/invites';
import { statsQuery } from '../features/stats';
import { usePageTitle } from '../lib/page-title';
import { queryClient } from '../lib/query-client';
import { useCan } from '../lib/use-can';

/** Starts this screen's reads before it renders (lib/lazy-route.tsx). */
export function prefetch(): void {
  void queryClient.prefetchQuery(statsQuery);
}

export function AdminDashboardPage() {
  usePageTitle('Dashboard');
  const can = useCan();
  const stats = useQuery({ ...statsQuery, enabled: can('read', 'stats') });

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Dashboard</h1>
        <p className="mt-1 text-sm text-slate-600">An overview of your mall.</p>
      </div>

      {can('read', 'stats') ? (
        <QueryView query={stats} loading={<StatCards stats={undefined} />}>
          {(data) => <StatCards stats={data} />}
        </QueryView>
      ) : null}

      {can('read', 'invite') ? <InvitesPanel /> : null}
    </div>
  );
}

/** The three figures; while they load, each card holds a placeholder of the figure's size. */
function StatCards({ stats }: { stats: AdminStats | undefined }) {
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy={stats === undefined}>
      <StatCard label="Total Shops" icon={Store} value={stats?.shops} />
      <StatCard label="Total Products" icon={Package} value={stats?.products} />
      <StatCard
        label="Active Offers"
        icon={Percent}
        value={stats?.activeOffers}
        extra={stats ? `of ${stats.offers} total` : null}
      />
    </dl>
  );
}

interface StatCardProps {
  label: string;
  icon: LucideIcon;
  value: number | undefined;
  extra?: ReactNode;
}

function StatCard({ label, icon: Icon, value, extra }: StatCardProps) {
  // why: a <dl>'s group (<div>) may hold only <dt> and <dd> (axe's definition-list / dlitem), so the
  // icon sits in the <dt>, placed beside both by absolute positioning (display: contents on the <dt>
  // would take its meaning away in some browsers).
  return (
    <div className="relative flex h-32 min-w-0 flex-col justify-center rounded-2xl border border-slate-200 bg-white py-6 pr-6 pl-22 shadow-sm">
      <dt className="text-sm font-medium text-slate-600">
        <IconTile icon={Icon} square className="absolute top-1/2 left-6 -translate-y-1/2" />
        {label}
      </dt>
      <dd className="mt-1 flex h-9 min-w-0 items-baseline gap-2">
        {value === undefined ? (
          // same box as the figure, so nothing moves when it arrives
          <span className="block h-8 w-20 animate-pulse rounded-md bg-slate-200" />
        ) : (
          <>
            <span className="text-3xl font-bold text-slate-900">{value}</span>
            {extra ? <span className="text-sm text-slate-600">{extra}</span> : null}
          </>
        )}
      </dd>
    </div>
  );
}
