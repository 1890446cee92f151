/**
 * docs/protocol.md explains every message, every error code and every end reason the schemas
 * define: one added to the contract without a word in the document fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { clientPayloadSchemas, errorCodeSchema, gameEndReasonSchema, serverMessageSchema } from '../../machines/protocol/schemas';
import { ROOT } from '../support/root';

const DOC = readFileSync(join(ROOT, 'docs', 'protocol.md'), 'utf8');

it('docs/protocol.md names every message type, error code and end reason of the schemas', () => {
  const serverTypes = serverMessageSchema.options.map((o) => o.shape.type.value);
  const names = [...Object.keys(clientPayloadSchemas), ...serverTypes, ...errorCodeSchema.options, ...gameEndReasonSchema.options];
  const missing = names.filter((name) => !DOC.includes(`\`${name}\``));
  expect(missing).toEqual([]);
  expect(serverTypes).toContain('gameStart'); // the schema's options were read
});
