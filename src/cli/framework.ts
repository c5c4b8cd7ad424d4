#!/usr/bin/env node
// The `framework` program (package.json `bin`): the commands that need no booted application.
import '../compile-cache';
import { runCli } from './program';

void runCli(process.argv.slice(2), { name: 'framework' }).then((code) => {
  process.exitCode = code;
});
