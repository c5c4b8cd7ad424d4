<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>New {{label}}</title>
  </head>
  <body>
    <h1>New {{label}}</h1>
    <form method="post" action="<%= it.urlFor('{{path}}.store') %>">
      <% if (it.csrfField) { %><%~ it.csrfField() %><% } %>
      <!-- One input per field, named as store() reads it: <input name="name" /> -->
      <button type="submit">Create</button>
    </form>
    <a href="<%= it.urlFor('{{path}}.index') %>">Back</a>
  </body>
</html>
