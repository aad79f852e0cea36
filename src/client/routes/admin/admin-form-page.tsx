import { EntityFormPage, type EntityFormPageProps } from '../../components/entity-form';
import { LastChanged } from '../../features/audit';
import { capitalized } from '../../lib/capitalized';

type Kind = 'shop' | 'product' | 'offer' | 'event';

/**
 * The office's form page for a shop, product, offer or event (/admin/{kind}s/new and /:id): its title,
 * way back to the list, and who changed the record last, named by the kind.
 */
export function AdminFormPage<R>({
  kind,
  ...props
}: { kind: Kind } & Omit<EntityFormPageProps<R>, 'noun' | 'listPath' | 'backText' | 'aside'>) {
  const list = `${kind}s`;
  return (
    <EntityFormPage
      {...props}
      noun={capitalized(kind)}
      listPath={`/admin/${list}`}
      backText={`Back to ${list}`}
      aside={props.id ? <LastChanged entityType={kind} entityId={props.id} /> : null}
    />
  );
}
