import { type Action, can, type PermissionRecord, type Resource } from '../../shared/permissions';
import { useAuth } from './auth';

/**
 * The signed-in person's permissions, from the one policy the server enforces (shared/permissions.ts):
 * screens ask it before they show a control. Hiding a control is a courtesy; the server decides.
 */
export function useCan(): (action: Action, resource: Resource, record?: PermissionRecord) => boolean {
  const { user } = useAuth();
  return (action, resource, record) => can(user, action, resource, record);
}
