import { Field, Int, ObjectType, type ClassType } from 'type-graphql';

/**
 * The house list shape, `{items, total, limit, offset}`, for one item type: `class DatasetPage extends PageOf(Dataset)`
 * with its own `@ObjectType`. `total` counts every match before paging.
 */
export function PageOf<T extends object>(item: ClassType<T>) {
  @ObjectType()
  abstract class Page {
    @Field(() => [item])
    items!: T[];

    @Field(() => Int, { description: 'matches before paging' })
    total!: number;

    @Field(() => Int)
    limit!: number;

    @Field(() => Int)
    offset!: number;
  }
  return Page;
}
