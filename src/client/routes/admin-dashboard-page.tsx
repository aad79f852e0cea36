import { useQuery } from '@tanstack/react-query';
import { type LucideIcon, Package, Percent, RefreshCw, Store } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../components/ui/button';
import { InvitesPanel } from '../features/invites';
import { statsQuery } from '../features/stats';
import { errorMessage } from '../lib/api';
import { queryClient } from '../lib/query-client';

/** Starts this screen's reads before it renders (lib/lazy-route.tsx). */
export function prefetch(): void {
  void queryClient.prefetchQuery(statsQuery);
}

export function AdminDashboardPage() {
  const stats = useQuery(statsQuery);

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Dashboard</h1>
        <p className="mt-1 text-sm text-slate-600">An overview of your mall.</p>
      </div>

      {stats.isError ? (
        <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-6 text-red-700">
          <p className="font-medium">{errorMessage(stats.error)}</p>
          <Button
            variant="secondary"
            className="mt-4"
            onClick={() => stats.refetch()}
            disabled={stats.isFetching}
          >
            <RefreshCw aria-hidden="true" className={stats.isFetching ? 'size-4 animate-spin' : 'size-4'} />
            Try again
          </Button>
        </div>
      ) : (
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy={stats.isPending}>
          <StatCard label="Total Shops" icon={Store} value={stats.data?.shops} />
          <StatCard label="Total Products" icon={Package} value={stats.data?.products} />
          <StatCard
            label="Active Offers"
            icon={Percent}
            value={stats.data?.activeOffers}
            extra={stats.data ? `of ${stats.data.offers} total` : null}
          />
        </dl>
      )}

      <InvitesPanel />
    </div>
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
