import type { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { acknowledgeNagFindings, awsSolutionsFindings, NAG_ACKNOWLEDGMENTS } from '../../lib/nag';
import { buildStacks } from './build-stacks';

/** The app of both stacks as `bin/app.ts` builds them. */
function appOf(overrides: Parameters<typeof buildStacks>[0] = {}): App {
  let app: App | undefined;
  buildStacks(overrides, (built) => {
    app = built;
  });
  return app!;
}

describe("cdk-nag's AwsSolutions pack", () => {
  const app = appOf();
  const stale = acknowledgeNagFindings(app);

  it('finds nothing in either stack that is not acknowledged with a written reason', () => {
    // Arrange: acknowledgments applied above

    // Act
    const remaining = awsSolutionsFindings(app).map((finding) => `${finding.rule} at ${finding.path}`);

    // Assert
    expect(remaining).toEqual([]);
  });

  it('keeps no acknowledgment that matches no finding', () => {
    // Arrange: acknowledgments applied above

    // Act
    const unused = stale.map((entry) => `${entry.rule} at ${entry.path}`);

    // Assert
    expect(unused).toEqual([]);
  });

  it('gives every acknowledgment a reason of a full sentence', () => {
    // Arrange
    const entries = NAG_ACKNOWLEDGMENTS;

    // Act
    const short = entries.filter((entry) => entry.reason.length < 40 || !entry.reason.endsWith('.'));

    // Assert
    expect(short).toEqual([]);
  });

  it('needs no acknowledgment for dedicated masters or zone awareness on a production search domain', () => {
    // Arrange
    const production = appOf({ searchDomainProfile: 'production' });
    acknowledgeNagFindings(production);

    // Act
    const remaining = awsSolutionsFindings(production).map((finding) => `${finding.rule} at ${finding.path}`);

    // Assert
    expect(remaining).toEqual([]);
  });
});
