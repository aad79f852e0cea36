/** The channel migration 0011's triggers notify, for the session cache (docs/decisions/027). */
export const CACHE_CHANNEL = 'mall_cache';
