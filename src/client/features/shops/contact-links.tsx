// A shop's contact with its phone numbers, email addresses and web addresses as links (shared/contact.ts
// decides, conservatively); the rest as written.
import { Globe, Mail, Phone } from 'lucide-react';
import { Fragment } from 'react';
import { contactParts } from '../../../shared/contact';
import { countHit } from '../../lib/insights';

const ICONS = { tel: Phone, email: Mail, web: Globe } as const;
const TAPS = { tel: 'tap_phone', email: 'tap_email', web: 'tap_website' } as const;
const LINK =
  'inline-flex items-center gap-1 rounded font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

/** `shopId`: a shopper's taps on the links are counted for the shop (insights). */
export function ContactLinks({ contact, shopId }: { contact: string; shopId?: string }) {
  return (
    <>
      {contactParts(contact).map((part, index) => {
        // The parts of one text never move, so their place is their key.
        const key = `${index}:${part.text}`;
        if (part.kind === 'text') return <Fragment key={key}>{part.text}</Fragment>;
        const Icon = ICONS[part.kind];
        return (
          <a
            key={key}
            href={part.href}
            className={LINK}
            onClick={shopId ? () => countHit({ kind: TAPS[part.kind], id: shopId }) : undefined}
            // A shop's own site opens on its own, without this page as its opener.
            {...(part.kind === 'web' ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
          >
            <Icon aria-hidden="true" className="size-3.5 shrink-0" />
            {part.text}
            {part.kind === 'web' ? <span className="sr-only"> (opens in a new tab)</span> : null}
          </a>
        );
      })}
    </>
  );
}
