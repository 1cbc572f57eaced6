import { digest } from '../digests.ts';

export const oracleShow = digest(
  'oracle.show',
  'oracle',
  'axme_oracle',
  'Project oracle',
  'The stack, structure, patterns and glossary of the project. Paged.',
  {
    command: ['oracle', 'show'],
    describe: 'print the oracle pages',
    json: (r) => r,
  },
);
