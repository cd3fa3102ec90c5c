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

  it('needs no further acknowledgment for the edge on a custom domain with its Route 53 records, in a stage', () => {
    // Arrange
    const custom = appOf({
      stage: 'prod',
      customDomain: {
        domainName: 'api.example.com',
        certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555',
        hostedZone: { id: 'Z0123456789ABC', name: 'example.com' },
      },
    });
    acknowledgeNagFindings(custom);

    // Act
    const remaining = awsSolutionsFindings(custom).map((finding) => `${finding.rule} at ${finding.path}`);

    // Assert
    expect(remaining).toEqual([]);
  });
});
