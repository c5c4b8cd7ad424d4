{
  "name": "{{name}}",
  "version": "0.1.0",
  "private": true,
  "type": "commonjs",
  "engines": {
    "node": "^20.19.0 || ^22.13.0 || >=24.11.0"
  },
  "scripts": {
    "build": "tsc -p tsconfig.build.json",
    "typecheck": "tsc -p tsconfig.json --noEmit",
    "start": "npm run build && node dist/main.js",
    "dev": "framework dev",
    "test": "npm run typecheck && jest"
  },
  "dependencies": {
    "class-transformer": "0.5.1",
    "class-validator": "0.15.1",
    "keel": "{{keel}}",
    "pg": "8.23.1",
    "reflect-metadata": "0.2.2",
    "typeorm": "1.1.1"
  },
  "devDependencies": {
    "@electric-sql/pglite": "0.5.14",
    "@electric-sql/pglite-socket": "0.2.17",
    "@swc/core": "1.16.22",
    "@swc/jest": "0.2.39",
    "@types/jest": "30.0.0",
    "@types/node": "20.19.43",
    "jest": "30.5.2",
    "typescript": "7.0.2"
  }
}
