#!/usr/bin/env node
import '../dist/run-tests.js';
