# {{name}} as a container image, built from this directory:
#
#   docker build -t {{name}} .
#   docker run -p 8080:8080 -e DATABASE_URL=postgres://user:password@host:5432/db {{name}}
#
# The image needs DATABASE_URL: the embedded database (PGlite) is a development dependency and is
# not installed here.

FROM node:24-bookworm-slim AS build
WORKDIR /build
COPY package.json package-lock.json ./
{{vendorCopy}}RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src src
RUN npm run build

FROM node:24-bookworm-slim AS dependencies
WORKDIR /deps
COPY package.json package-lock.json ./
{{vendorCopy}}# The production dependencies at the versions the lock file pins; no build tools, no PGlite.
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
ENV PORT=8080 NODE_ENV=production
WORKDIR /app
# Owned by root and only read by the application, so the root filesystem can be mounted read-only.
COPY package.json ./
COPY --from=dependencies /deps/node_modules node_modules
COPY --from=build /build/dist dist
# The pages the controllers render (views/ is the default views directory, from the working one).
COPY views views
USER node
# 9464: the Prometheus metrics (METRICS_PORT), which the public Service does not expose.
EXPOSE 8080 9464
# GET /health with Node itself (slim images have no curl). A refused connection, a non-2xx answer or
# no answer within 4 s (under Docker's 5 s timeout) fails the check. The port follows PORT.
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health', { signal: AbortSignal.timeout(4000) }).then((res) => process.exit(res.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM itself; keel drains and exits 0.
CMD ["node", "dist/main.js"]
