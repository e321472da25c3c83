#!/usr/bin/env node
// The build (npm install runs it through `prepare`) puts the compiled CLI in dist/.
import '../dist/cli/run.js';
