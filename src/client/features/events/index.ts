export {
  allEventsQuery,
  eventOverviewQuery,
  eventQuery,
  feedPath,
  managedEventsQuery,
  pendingEventsQuery,
  useCreateEvent,
  useDecideEvent,
  useDeleteEvent,
  useUpdateEvent,
} from './api';
export { EventCard } from './event-card';
export { formatDay, formatWhen } from './event-when';
export { EventsView } from './events-view';
export { FeedLinks } from './feed-links';
export { LandingEvents } from './landing-events';
