// "Subscribe" and "Add to calendar": the iCalendar feeds as webcal:// links (a calendar app subscribes)
// and plain downloads. The webcal address needs the site's host: the mall profile's public URL when set
// (in the page as drawn on the server), else this browser's, once it runs.
import { useQuery } from '@tanstack/react-query';
import { CalendarPlus, Rss } from 'lucide-react';
import { useEffect, useState } from 'react';
import { buttonClass } from '../../components/ui/button';
import { mallProfileQuery } from '../mall-profile';
import { feedPath } from './api';

function useWebcal(path: string): string | null {
  const profile = useQuery(mallProfileQuery);
  const [host, setHost] = useState<string | null>(null);
  useEffect(() => setHost(window.location.host), []);
  const publicUrl = profile.data?.publicUrl;
  if (publicUrl) return `${publicUrl.replace(/^https?:\/\//, 'webcal://').replace(/\/+$/, '')}${path}`;
  return host ? `webcal://${host}${path}` : null;
}

/** Subscribe to the events (all, one tag's or one shop's) in a calendar app, or download the feed. */
export function FeedLinks({
  tag,
  shopId,
  label = 'events',
}: {
  tag?: string;
  shopId?: string;
  label?: string;
}) {
  const path = feedPath({ tag, shopId });
  const webcal = useWebcal(path);
  return (
    <div className="flex flex-wrap gap-2">
      {webcal ? (
        <a href={webcal} className={buttonClass('secondary', 'md')}>
          <Rss aria-hidden="true" className="size-4" />
          Subscribe to {tag ? `#${tag} ` : ''}
          {label}
        </a>
      ) : null}
      <a href={path} className={buttonClass('secondary', 'md')}>
        <CalendarPlus aria-hidden="true" className="size-4" />
        Calendar file (.ics)
      </a>
    </div>
  );
}
