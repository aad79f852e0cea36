import { and, gte, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import { offers } from '../../db/schema';

/**
 * The offers' domain rule, in SQL: active on the mall's `today` when the start and end dates both count
 * (inclusive). The same decision in TypeScript is `offerStatus` (shared/offer.ts), which labels an offer.
 */
export function activeOn(today: string): SQL {
  return and(lte(offers.startDate, today), gte(offers.endDate, today)) as SQL;
}

/** Not active on `today`: ended before it, or starting after it. */
export function inactiveOn(today: string): SQL {
  return or(lt(offers.endDate, today), sql`${offers.startDate} > ${today}`) as SQL;
}
