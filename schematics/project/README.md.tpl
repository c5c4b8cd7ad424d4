# {{name}}

A keel application. With Node.js 20.19 or later:

```sh
npm install && npm start   # http://localhost:8080, on an embedded database
npm test                   # type-check, then the tests
npm run dev                # serve, recompiling and restarting on each change under src/
```

`npm run dev` compiles with SWC (decorator metadata kept) and restarts the application on each change
under `src/`, keeping the embedded database's data; it does not check types (`npm test` does).

Without `DATABASE_URL`, `npm start` runs PostgreSQL compiled to WebAssembly (PGlite) inside the
process, keeping its data in `.data/postgres`; `DATABASE_URL=postgres://user:password@host:5432/db npm start`
uses that server instead, and `PORT` changes the port. `GET /health` is liveness, `GET /health/ready`
readiness (it pings the database). `npm test` boots the application on a database of its own
(`withTestDatabase()`): a copy of the migrated schema on the server `DATABASE_URL` names, else in memory.

`npx framework make:controller Order` writes `src/http/controllers/order.ts` and registers it in
`src/app.module.ts`; `node dist/main.js routes` lists the routes.

`docker build -t {{name}} .` makes an image that needs `DATABASE_URL`; `k8s/` runs it on Kubernetes
(put the database URL in the Secret that `k8s/example/secret.yaml` shows, then `kubectl apply -f k8s/`).
