import { useQuery } from '@tanstack/react-query';
import { AdminScreen, FormSkeleton } from '../../components/admin-page';
import { QueryView } from '../../components/ui/query-states';
import { mallProfileQuery } from '../../features/mall-profile';
import { MallLogoPanel, MallProfileForm } from '../../features/mall-profile/forms';

/**
 * /admin/mall: the mall's own profile (docs/decisions/034), what its public pages, their structured data
 * and the sitemap say of it.
 */
export function MallProfilePage() {
  const profile = useQuery(mallProfileQuery);
  return (
    <AdminScreen
      title="Mall profile"
      description="The mall's name, address, phone, map position, currency, logo and web address: what its public pages and search engines show."
      className="mx-auto max-w-3xl"
    >
      <QueryView query={profile} loading={<FormSkeleton fields={11} />}>
        {(data) => (
          <>
            <MallProfileForm saved={data} />
            <MallLogoPanel logo={data.logo} name={data.name} />
          </>
        )}
      </QueryView>
    </AdminScreen>
  );
}
