import { bareContainerParts } from '../../support/container-parts';
import { describe, expect, it } from 'vitest';
import { ScryptPasswordHasher } from '../../../shared/adapters/crypto/scrypt-password-hasher';
import { DynamoLegacyItemAdopter } from '../../../shared/adapters/aws/dynamodb/legacy-item-adoption';
import { NodeHostProbe } from '../../../shared/adapters/node/host-probe';
import { awsBootstrapDependencies } from '../../../shared/container/aws';
import { buildAppContainer } from '../../../shared/container/build-app-container';
import { requestServing } from '../../../shared/container/request-serving';

/*
 * The roots of what serves requests (the HTTP functions, the local runtime) and the bootstrap pass the password
 * hasher, the rate limits and the host probe to the container; the workers do not, so that their bundles carry
 * none of it. Only the bootstrap and the local runtime adopt the data written before workspaces.
 * Nothing here does I/O: the container talks to nothing until a request comes.
 */

const parts = bareContainerParts;

describe('what serving requests needs, in the container', () => {
  it('gives the container of a function that serves requests the scrypt hasher and the host probe', () => {
    // Act
    const container = buildAppContainer(parts({ serving: requestServing }));

    // Assert
    expect([container.passwords, container.host]).toEqual([expect.any(ScryptPasswordHasher), expect.any(NodeHostProbe)]);
  });

  it("answers a use case that reaches for a password hasher in a worker's container with an error that says so", () => {
    // Arrange
    const container = buildAppContainer(parts());

    // Act
    const hashing = () => container.passwords.hash('correct horse battery staple');

    // Assert
    expect(hashing).toThrow('this function has no password hasher');
  });

  it("answers a use case that reaches for the rate limits in a worker's container with an error that says so", () => {
    // Arrange
    const container = buildAppContainer(parts());

    // Act
    const limiting = () => container.limits({ userId: null, sourceIp: '192.0.2.1', isUpload: false });

    // Assert
    expect(limiting).toThrow('this function has no rate limits');
  });

  it('adopts nothing in a container given no adopters', () => {
    // Act
    const container = buildAppContainer(parts());

    // Assert
    expect(container.legacyData).toEqual([]);
  });

  it("has the bootstrap's container hash the admin's password and adopt the table's items from before workspaces", () => {
    // Arrange
    const env = {
      TABLE_NAME: 'docservice',
      AWS_REGION: 'us-east-1',
      ADMIN_USERNAME: 'admin',
      ADMIN_EMAIL: 'admin@example.com',
      ADMIN_PASSWORD_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:admin',
    };

    // Act
    const { container } = awsBootstrapDependencies(env);

    // Assert
    expect([container.passwords, container.legacyData]).toEqual([expect.any(ScryptPasswordHasher), [expect.any(DynamoLegacyItemAdopter)]]);
  });
});
