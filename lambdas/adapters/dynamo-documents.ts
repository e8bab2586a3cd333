// Items as plain objects over the plain DynamoDB client.
//
// Not @aws-sdk/lib-dynamodb: its document client hooks its marshalling into
// the client's middleware stack, so it only works with a client of the same
// SDK release, and in Lambda the client is the runtime's own copy
// (lib/constructs/bundling.ts) while anything else is bundled at our version.
// marshall/unmarshall are pure functions over AttributeValue shapes, which
// every client release accepts.

import {
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type AttributeValue,
  type DeleteItemCommandInput,
  type DynamoDBClient,
  type GetItemCommandInput,
  type PutItemCommandInput,
  type QueryCommandInput,
  type UpdateItemCommandInput,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall, type NativeAttributeValue } from '@aws-sdk/util-dynamodb';

export type Item = Record<string, NativeAttributeValue>;
type Values = { ExpressionAttributeValues?: Item };

export type GetInput = Omit<GetItemCommandInput, 'Key'> & { Key: Item };
export type PutInput = Omit<PutItemCommandInput, 'Item' | 'ExpressionAttributeValues'> & { Item: Item } & Values;
export type UpdateInput = Omit<UpdateItemCommandInput, 'Key' | 'ExpressionAttributeValues'> & { Key: Item } & Values;
export type DeleteInput = Omit<DeleteItemCommandInput, 'Key' | 'ExpressionAttributeValues'> & { Key: Item } & Values;
export type QueryInput = Omit<QueryCommandInput, 'ExclusiveStartKey' | 'ExpressionAttributeValues'> & { ExclusiveStartKey?: Item } & Values;

// As the document client was configured: an optional field left undefined is simply not stored.
const toAttributes = (item: Item): Record<string, AttributeValue> => marshall(item, { removeUndefinedValues: true });
const toAttributesIfAny = (item: Item | undefined) => (item === undefined ? undefined : toAttributes(item));
const toItem = (attributes: Record<string, AttributeValue> | undefined): Item | undefined => attributes && unmarshall(attributes);

export class DynamoDocuments {
  constructor(private readonly client: DynamoDBClient) {}

  async get(input: GetInput): Promise<{ Item?: Item }> {
    const { Item } = await this.client.send(new GetItemCommand({ ...input, Key: toAttributes(input.Key) }));
    return { Item: toItem(Item) };
  }

  async put(input: PutInput): Promise<void> {
    await this.client.send(
      new PutItemCommand({ ...input, Item: toAttributes(input.Item), ExpressionAttributeValues: toAttributesIfAny(input.ExpressionAttributeValues) }),
    );
  }

  async update(input: UpdateInput): Promise<{ Attributes?: Item }> {
    const { Attributes } = await this.client.send(
      new UpdateItemCommand({ ...input, Key: toAttributes(input.Key), ExpressionAttributeValues: toAttributesIfAny(input.ExpressionAttributeValues) }),
    );
    return { Attributes: toItem(Attributes) };
  }

  async delete(input: DeleteInput): Promise<void> {
    await this.client.send(
      new DeleteItemCommand({ ...input, Key: toAttributes(input.Key), ExpressionAttributeValues: toAttributesIfAny(input.ExpressionAttributeValues) }),
    );
  }

  /** Updates of several items, all or none (TransactWriteItems). */
  async transactUpdates(updates: UpdateInput[]): Promise<void> {
    await this.client.send(
      new TransactWriteItemsCommand({
        TransactItems: updates.map((u) => ({
          Update: {
            TableName: u.TableName,
            Key: toAttributes(u.Key),
            UpdateExpression: u.UpdateExpression,
            ConditionExpression: u.ConditionExpression,
            ExpressionAttributeNames: u.ExpressionAttributeNames,
            ExpressionAttributeValues: toAttributesIfAny(u.ExpressionAttributeValues),
          },
        })),
      }),
    );
  }

  async query(input: QueryInput): Promise<{ Items: Item[]; LastEvaluatedKey?: Item }> {
    const page = await this.client.send(
      new QueryCommand({
        ...input,
        ExclusiveStartKey: toAttributesIfAny(input.ExclusiveStartKey),
        ExpressionAttributeValues: toAttributesIfAny(input.ExpressionAttributeValues),
      }),
    );
    return { Items: (page.Items ?? []).map((attributes) => unmarshall(attributes)), LastEvaluatedKey: toItem(page.LastEvaluatedKey) };
  }
}
