export {
  allEventsQuery,
  eventQuery,
  eventsQuery,
  feedPath,
  managedEventsQuery,
  pendingEventsQuery,
  useCreateEvent,
  useDecideEvent,
  useDeleteEvent,
  useUpdateEvent,
} from './api';
export { EventCard } from './event-card';
export { addDays, formatDay, formatWhen, weekendOf } from './event-when';
export { FeedLinks } from './feed-links';
export { LandingEvents } from './landing-events';
