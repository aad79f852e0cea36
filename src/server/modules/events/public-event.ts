import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { events } from '../../db/schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `/events/{id}` names a public (approved) event: else its page is a 404. */
export async function findPublicEvent(db: Db, id: string): Promise<boolean> {
  if (!UUID.test(id)) return false;
  const [row] = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.id, id), eq(events.approved, true)));
  return row !== undefined;
}
