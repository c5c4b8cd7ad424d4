/** No order has the id a request named: the controllers' filters answer it with a 404. */
export class OrderNotFound extends Error {
  constructor(readonly id: string) {
    super(`order ${id} not found`);
    this.name = 'OrderNotFound';
  }
}
