// What a shop manager's offer and event forms say and do differently from the office's: they send for
// approval, and a note says when what they send goes live.
import { Info } from 'lucide-react';
import { capitalized } from '../../lib/capitalized';

interface Wording {
  /** 'offer', 'event'. */
  noun: string;
  /** Who sees it once approved: 'shoppers', 'visitors'. */
  audience: string;
  /** What they see meanwhile: 'terms', 'details'. */
  what: string;
}

/** The form's submit caption, its done toasts and the note above its fields, for a live record or a new one. */
export function sentForApproval({ noun, audience, what }: Wording, live: boolean) {
  return {
    submitLabel: 'Send for approval',
    done: { created: `${capitalized(noun)} sent for approval`, updated: 'Change sent for approval' },
    note: (
      <p className="flex items-start gap-2 rounded-lg border border-indigo-200 bg-indigo-50 px-3 py-2.5 text-sm text-indigo-900">
        <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        {live
          ? `This ${noun} is live. Your change goes live after the mall office approves it; ${audience} see the current ${what} until then.`
          : `The ${noun} goes live after the mall office approves it. ${capitalized(audience)} do not see it until then.`}
      </p>
    ),
  };
}
