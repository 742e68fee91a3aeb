#!/usr/bin/env node
// The create-fw-app command. Scaffolding arrives with the create-fw-app issue; until then it says how it will be used.
console.log('Usage: npm create fw-app <dir> [-- --template api|minimal]')
