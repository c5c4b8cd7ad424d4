/* global document, EventSource -- a script for the browser */
// The live list of new orders: reads the page's event stream (EventSource reconnects by itself,
// sending the id of the last order it saw) and puts each new order at the top of the table.
const rows = document.querySelector('[data-live-orders]');
const status = document.querySelector('[data-live-status]');
const stream = new EventSource(rows.dataset.stream);

stream.addEventListener('open', () => {
  status.textContent = 'Connected: new orders appear here as they are created.';
});
stream.addEventListener('error', () => {
  status.textContent = 'Reconnecting…';
});
stream.addEventListener('order', (event) => {
  const order = JSON.parse(event.data);
  const row = document.createElement('tr');
  row.dataset.orderId = String(order.id);
  for (const value of [order.id, order.customer, order.product, order.quantity]) {
    const cell = document.createElement('td');
    cell.textContent = String(value);
    row.append(cell);
  }
  rows.prepend(row);
});
