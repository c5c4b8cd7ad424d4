// Naming is internal to the CLI, so this unit test reaches into src/ directly.
import { controllerNames, nameProblem } from '../../src/cli/naming';

describe('controllerNames', () => {
  test.each([
    ['Order', 'OrderController', 'order', 'orders', 'order', 'orders'],
    ['OrderItem', 'OrderItemController', 'order-item', 'order-items', 'orderItem', 'orderItems'],
    ['order-item', 'OrderItemController', 'order-item', 'order-items', 'orderItem', 'orderItems'],
    ['order_item', 'OrderItemController', 'order-item', 'order-items', 'orderItem', 'orderItems'],
    ['orderItem', 'OrderItemController', 'order-item', 'order-items', 'orderItem', 'orderItems'],
    ['OrderController', 'OrderController', 'order', 'orders', 'order', 'orders'],
    ['Person', 'PersonController', 'person', 'people', 'person', 'people'],
    ['Category', 'CategoryController', 'category', 'categories', 'category', 'categories'],
    ['Sheep', 'SheepController', 'sheep', 'sheep', 'sheep', 'sheep'],
    ['Status', 'StatusController', 'status', 'statuses', 'status', 'statuses'],
    ['HTTPLog', 'HTTPLogController', 'http-log', 'http-logs', 'httpLog', 'httpLogs'],
    ['V2Order', 'V2OrderController', 'v2-order', 'v2-orders', 'v2Order', 'v2Orders'],
  ])('%s gives %s in %s.ts at /%s', (input, className, fileName, path, variable, collection) => {
    expect(controllerNames(input)).toEqual({ className, fileName, path, variable, collection });
  });

  test.each([
    ['', 'it is empty'],
    ['   ', 'it is empty'],
    ['../x', 'it is a path, not a name'],
    ['a/../../b', 'it is a path, not a name'],
    ['a\\b', 'it is a path, not a name'],
    ['order.ts', 'it is a path, not a name'],
    ['9lives', 'it does not start with a letter'],
    ['-order', 'it does not start with a letter'],
    ['order controller', 'it contains white space'],
    ['order--item', 'it has characters other than letters, digits, - and _'],
    ['order$', 'it has characters other than letters, digits, - and _'],
    ['Ordér', 'it has characters other than letters, digits, - and _'],
    ['class', 'class is a reserved word'],
    ['delete', 'delete is a reserved word'],
    ['Delete', 'Delete is a reserved word'],
    ['Controller', 'it has nothing before "Controller"'],
  ])('rejects %j: %s', (input, problem) => {
    expect(nameProblem(input)).toBe(problem);
    expect(() => controllerNames(input)).toThrow(
      expect.objectContaining({
        code: 'E_INVALID_NAME',
        message: expect.stringContaining('starts with a letter and has only letters and digits'),
      }),
    );
  });

  test('accepts a valid name without a problem', () => {
    expect(nameProblem('OrderItem')).toBeUndefined();
  });
});
