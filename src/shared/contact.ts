/**
 * A shop's contact as tappable links where a piece of it is a phone number, an email address or a web
 * address; everything else stays text, as written. Conservative on purpose: a link is made only from a
 * piece that is entirely one of those, and every href is built here from checked parts (`tel:` and
 * digits, `mailto:` and a plain address, an `https:` URL) — never taken from the text, so no
 * `javascript:` or `data:` link can come out of it (docs/decisions/018).
 */
export type ContactPart =
  | { kind: 'text'; text: string }
  | { kind: 'tel' | 'email' | 'web'; text: string; href: string };

/** Between pieces: · • | ; , a newline, " / " or " or " (a bare "/" belongs to web addresses). */
const SEPARATOR = /(\s*[·•|;,\n]\s*|\s+\/\s+|\s+or\s+)/i;
/** A label before a piece ("Tel: ", "Email - "): kept as text, the rest classified. */
const LABEL =
  /^((?:tel|telephone|phone|ph|mobile|mob|call|whatsapp|email|e-mail|mail|web|website|site)\s*[:.-]\s*)(.+)$/i;

const EMAIL = /^[A-Za-z0-9._%+-]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}$/;
/** Digits with spaces, dots, dashes and brackets between them; an optional leading +. */
const PHONE = /^\+?\(?\d[\d\s().-]*\d$/;
/** A host name with a letters-only top-level domain, an optional port and path; no @, no spaces. */
const WEB =
  /^(?:https?:\/\/)?(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?::\d{1,5})?(?:[/?#][^\s@]*)?$/i;

function classify(piece: string): ContactPart {
  if (EMAIL.test(piece)) return { kind: 'email', text: piece, href: `mailto:${piece}` };
  if (PHONE.test(piece)) {
    const digits = piece.replace(/\D/g, '');
    // E.164 numbers have at most 15 digits; fewer than 6 is an extension or a unit, not a number to call.
    if (digits.length >= 6 && digits.length <= 15)
      return { kind: 'tel', text: piece, href: `tel:${piece.startsWith('+') ? '+' : ''}${digits}` };
  }
  if (WEB.test(piece)) {
    const href = webHref(piece);
    if (href) return { kind: 'web', text: piece, href };
  }
  return { kind: 'text', text: piece };
}

/** The https URL of a web address ("http://" is upgraded), or null when the URL parser disagrees. */
function webHref(piece: string): string | null {
  try {
    const url = new URL(piece.replace(/^(?:https?:\/\/)?/i, 'https://'));
    if (url.protocol !== 'https:' || url.username || url.password || !url.hostname.includes('.')) return null;
    return url.href;
  } catch {
    return null;
  }
}

export function contactParts(contact: string): ContactPart[] {
  const parts: ContactPart[] = [];
  const push = (part: ContactPart) => {
    const last = parts.at(-1);
    // Neighbouring text joins up, so "Ask at the desk" stays one piece of text.
    if (part.kind === 'text' && last?.kind === 'text') last.text += part.text;
    else if (part.text) parts.push(part);
  };
  const pieces = contact.trim().split(SEPARATOR);
  for (const [index, piece] of pieces.entries()) {
    // Odd indexes are the separators the split kept.
    if (index % 2 === 1) {
      push({ kind: 'text', text: piece });
      continue;
    }
    const labelled = LABEL.exec(piece);
    const labelledPart = labelled?.[1] && labelled[2] ? classify(labelled[2]) : null;
    if (labelled?.[1] && labelledPart && labelledPart.kind !== 'text') {
      push({ kind: 'text', text: labelled[1] });
      push(labelledPart);
    } else {
      push(classify(piece));
    }
  }
  return parts;
}
