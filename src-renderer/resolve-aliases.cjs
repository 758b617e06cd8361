// The renderer's import aliases in webpack's `resolve` shape, read by dependency-cruiser
// (.dependency-cruiser.cjs) so imports through @contract are resolved and checked.
const { resolve } = require('node:path');

module.exports = { resolve: { alias: { '@contract': resolve(__dirname, '../src-main/contract') } } };
