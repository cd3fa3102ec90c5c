/**
 * The areas of the domain (shared/domain/<area>/) depend in one direction: no chain of imports between them leads
 * back to the area it started from, even where no module imports one that imports it back. A rule on folders,
 * run over the domain alone: dependency-cruiser counts a folder's imports in every folder above it, so over the
 * whole tree the local runtime (which imports the functions, which import the domain) would close a loop
 * through `shared/` itself.
 */
const base = require('./.dependency-cruiser.cjs');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-areas-acyclic',
      severity: 'error',
      comment: 'No chain of imports between the areas of the domain leads back to the area it started from.',
      scope: 'folder',
      from: { path: '^shared/domain/' },
      to: { path: '^shared/domain/', circular: true },
    },
  ],
  options: { ...base.options, includeOnly: '^shared/domain/' },
};
