<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Edit {{label}} <%= it.{{variable}}.id %></title>
  </head>
  <body>
    <h1>Edit {{label}} <%= it.{{variable}}.id %></h1>
    <form method="post" action="<%= it.urlFor('{{path}}.update', { id: it.{{variable}}.id }) %>">
      <% if (it.csrfField) { %><%~ it.csrfField() %><% } %>
      <!-- HTML forms send GET and POST only: _method makes this POST the PUT that update() answers. -->
      <input type="hidden" name="_method" value="PUT" />
      <!-- One input per field, named as update() reads it: <input name="name" value="<%= it.{{variable}}.name %>" /> -->
      <button type="submit">Save</button>
    </form>
    <a href="<%= it.urlFor('{{path}}.show', { id: it.{{variable}}.id }) %>">Back</a>
  </body>
</html>
