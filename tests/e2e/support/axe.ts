// axe-core in the end-to-end suite (docs/accessibility.md): WCAG 2.2 level A and AA rules only, so that
// a finding is a failure of the standard the mall promises, not a matter of taste.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** axe-core's own build, put into a page once (a navigation drops it; the next check puts it back). */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * Runs axe on the page as it is now and fails with each violation's rule, its targets and axe's
 * summary of what is wrong (`what` names the screen and state in the message).
 *
 * A page without frames (every screen of the mall's) is checked by axe.run in the page itself: the
 * same rules and results as @axe-core/playwright's AxeBuilder, which also opens a blank page for each
 * check to assemble its frames' results — 0.5 to 0.9 s a check on this machine against 0.04 to 0.9 s
 * for the whole of axe.run (2026-11-29), on some 200 checks a run. A page with frames still goes
 * through AxeBuilder, which checks inside them.
 */
export async function expectNoAxeViolations(page: Page, what = page.url()): Promise<void> {
  let violations: Violation[];
  if (page.frames().length > 1) {
    // resultTypes: only the violations are reported in full (axe skips detailing the passes: faster)
    violations = (
      await new AxeBuilder({ page })
        .withTags(WCAG_TAGS)
        .options({ resultTypes: ['violations'] })
        .analyze()
    ).violations;
  } else {
    // A string, not a function: evaluated by the browser's debugger, which the page's CSP leaves alone.
    if ((await page.evaluate('typeof window.axe')) === 'undefined') await page.evaluate(AXE_SOURCE);
    violations = await page.evaluate(
      `window.axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_TAGS)} }, resultTypes: ['violations'] })
        .then((results) => results.violations.map((violation) => ({
          id: violation.id,
          nodes: violation.nodes.map((node) => ({ target: node.target, failureSummary: node.failureSummary })),
        })))`,
    );
  }
  const summary = violations.map(
    (violation) =>
      `${violation.id}: ${violation.nodes
        .map(
          (node) =>
            `${node.target.join(' ')} (${node.failureSummary?.split('\n').slice(1, 2).join('').trim()})`,
        )
        .join('; ')}`,
  );
  expect(summary, `${what}: axe (WCAG 2.2 AA) violations`).toEqual([]);
}
