export { mallHoursQuery, useSetMallHours } from './api';
export { LandingMallHours } from './landing-hours';
export { MallHoursToday } from './mall-hours-today';
export { OpenStatus } from './open-status';
export { ShopWeek } from './shop-week';
export { clockQuery, openAtParam, prefetchMallClock, useMallClock } from './use-mall-clock';
