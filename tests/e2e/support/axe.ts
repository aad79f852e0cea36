// axe-core in the end-to-end suite (docs/accessibility.md): WCAG 2.2 level A and AA rules only, so that
// a finding is a failure of the standard the mall promises, not a matter of taste.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Runs axe on the page as it is now and fails with each violation's rule, its targets and axe's
 * summary of what is wrong (`what` names the screen and state in the message).
 */
export async function expectNoAxeViolations(page: Page, what = page.url()): Promise<void> {
  // resultTypes: only the violations are reported in full (axe skips detailing the passes: faster)
  const results = await new AxeBuilder({ page })
    .withTags(WCAG_TAGS)
    .options({ resultTypes: ['violations'] })
    .analyze();
  const summary = results.violations.map(
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
