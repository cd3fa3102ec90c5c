import { describe, expect, it } from 'vitest';
import { Argon2idPasswordHasher } from '../../../../shared/adapters/crypto/argon2id-password-hasher';
import { DynamoLegacyItemAdopter } from '../../../../shared/adapters/aws/dynamodb/legacy-item-adoption';
import { awsBootstrapDependencies } from '../../../../shared/container/kit/aws-bootstrap';

/* The bootstrap alone creates the operator's account: it hashes a password and adopts the data from before workspaces. Nothing here does I/O. */

describe("the bootstrap's deps", () => {
  it("hash the admin's password and adopt the table's items from before workspaces", () => {
    // Arrange
    const env = {
      TABLE_NAME: 'docservice',
      AWS_REGION: 'us-east-1',
      ADMIN_USERNAME: 'admin',
      ADMIN_EMAIL: 'admin@example.com',
      ADMIN_PASSWORD_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:admin',
    };

    // Act
    const { accounts } = awsBootstrapDependencies(env);

    // Assert
    expect([accounts.passwords, accounts.legacyData]).toEqual([expect.any(Argon2idPasswordHasher), expect.arrayContaining([expect.any(DynamoLegacyItemAdopter)])]);
  });

  it('name the missing variable when the admin is not configured', () => {
    // Act
    const building = () => awsBootstrapDependencies({ TABLE_NAME: 'docservice' });

    // Assert
    expect(building).toThrow(/ADMIN_USERNAME/);
  });
});
