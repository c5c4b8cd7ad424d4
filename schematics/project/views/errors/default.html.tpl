<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Error <%= it.status %></title>
  </head>
  <body>
    <!-- What a browser sees for an error answer; API clients still get JSON. -->
    <h1>Something went wrong</h1>
    <p><%= it.message %> (<%= it.status %>)</p>
  </body>
</html>
