import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoUserRepository } from '../../../../../shared/adapters/aws/dynamodb/user-repository';
import { aUser } from '../../../../support/builders';

// DynamoDB Local always reads consistently, so only the request can show that the cloud read is strongly
// consistent: authentication relies on it for a role change or a removal to hold on the very next request.
const dynamo = mockClient(DynamoDBDocumentClient);

describe('DynamoUserRepository reads for authentication', () => {
  beforeEach(() => dynamo.reset());

  it('reads a user by id with a strongly consistent GetItem', async () => {
    // Arrange
    const user = aUser({ role: 'editor' });
    dynamo.on(GetCommand).resolves({ Item: { pk: `USER#${user.id}`, sk: 'PROFILE', ...user } });
    const users = new DynamoUserRepository(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'table');

    // Act
    const found = await users.findById(user.id);

    // Assert
    expect(found).toEqual(user);
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(1);
    expect(dynamo.commandCalls(GetCommand)[0]!.args[0].input).toMatchObject({ Key: { pk: `USER#${user.id}` }, ConsistentRead: true });
  });
});
