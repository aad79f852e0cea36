import { useQuery } from '@tanstack/react-query';
import { type LucideIcon, Package, Percent, Store } from 'lucide-react';
import type { ReactNode } from 'react';
import type { AdminStats } from '../../shared/auth';
import { QueryView } from '../components/ui/query-states';
import { InvitesPanel } from '../features/invites';
import { statsQuery } from '../features/stats';
import { queryClient } from '../lib/query-client';
import { useCan } from '../lib/use-can';

/** Starts this screen's reads before it renders (lib/lazy-route.tsx). */
export function prefetch(): void {
  void queryClient.prefetchQuery(statsQuery);
}

export function AdminDashboardPage() {
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
  return (
    <div className="flex h-32 items-center gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600">
        <Icon aria-hidden="true" className="size-6" />
      </div>
      <div className="min-w-0">
        <dt className="text-sm font-medium text-slate-500">{label}</dt>
        <dd className="mt-1 flex h-9 items-baseline gap-2">
          {value === undefined ? (
            // same box as the figure, so nothing moves when it arrives
            <span className="block h-8 w-20 animate-pulse rounded-md bg-slate-200" />
          ) : (
            <>
              <span className="text-3xl font-bold text-slate-900">{value}</span>
              {extra ? <span className="text-sm text-slate-500">{extra}</span> : null}
            </>
          )}
        </dd>
      </div>
    </div>
  );
}
