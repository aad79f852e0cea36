import { describe, expect, it } from 'vitest';
import { contactParts } from './contact';

const hrefs = (contact: string) =>
  contactParts(contact).flatMap((part) => ('href' in part ? [part.href] : []));

describe('contactParts', () => {
  it("turns the demo mall's contact into a phone link and an email link, keeping the text between", () => {
    expect(contactParts('+91 80 4000 1101 · hello@bean-there-cafe.example')).toEqual([
      { kind: 'tel', text: '+91 80 4000 1101', href: 'tel:+918040001101' },
      { kind: 'text', text: ' · ' },
      { kind: 'email', text: 'hello@bean-there-cafe.example', href: 'mailto:hello@bean-there-cafe.example' },
    ]);
  });

  it('recognises labels, brackets and dashes, and web addresses as https', () => {
    expect(contactParts('Tel: (080) 4000-1234')).toEqual([
      { kind: 'text', text: 'Tel: ' },
      { kind: 'tel', text: '(080) 4000-1234', href: 'tel:08040001234' },
    ]);
    expect(hrefs('www.pixelpoint.example')).toEqual(['https://www.pixelpoint.example/']);
    expect(hrefs('https://shop.example/stores?city=blr')).toEqual(['https://shop.example/stores?city=blr']);
    expect(hrefs('http://old.example')).toEqual(['https://old.example/']);
    expect(hrefs('Call 98450 12345 or write to care@example.com')).toEqual([]);
    expect(hrefs('98450 12345 or care@example.com')).toEqual(['tel:9845012345', 'mailto:care@example.com']);
    expect(hrefs('+44 20 7946 0958 / shop.example')).toEqual(['tel:+442079460958', 'https://shop.example/']);
  });

  it('never makes a link of a script, data or other scheme, in any case or with hidden tricks', () => {
    for (const contact of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(document.cookie)',
      ' javascript:alert(1)//x.com',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'ftp://files.example.com',
      'tel:javascript:alert(1)',
      'mailto:a@b.com?body=x',
      'a@b.com?cc=evil@x.com',
      'https://user:pass@example.com',
      'https://example.com@evil.example',
      '//evil.example',
      'https://example.com/"onmouseover="alert(1)',
      'example.com/<script>',
    ]) {
      for (const href of hrefs(contact))
        expect(href, contact).toMatch(/^(https:\/\/[^\s"<>]+|tel:\+?\d+|mailto:[\w.%+-]+@[\w.-]+)$/);
      expect(
        hrefs(contact).some((href) => /^(javascript|data|vbscript|file|ftp):/i.test(href)),
        contact,
      ).toBe(false);
    }
  });

  it('leaves text that is not a number, address or site as text', () => {
    for (const contact of [
      'Ask at the information desk',
      'Unit G-04',
      '12345',
      'e.g. the desk',
      '10:00 – 22:00',
      '',
    ]) {
      expect(hrefs(contact), contact).toEqual([]);
      expect(
        contactParts(contact)
          .map((part) => part.text)
          .join(''),
      ).toBe(contact.trim());
    }
  });

  it('refuses numbers too long to be a phone number', () => {
    expect(hrefs('1234567890123456789')).toEqual([]);
  });
});
