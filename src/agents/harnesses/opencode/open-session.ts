/**
 * The OpenCode session an agent's conversation runs in: a new one, or, for a resumed run's agent whose earlier
 * turns were replayed, the journaled one by its id. OpenCode keeps its sessions in its own data folder
 * (`XDG_DATA_HOME/opencode`, by default `~/.local/share/opencode`), not in the `opencode serve` process, so a new
 * server started in the same directory continues a session an earlier one made.
 */
import {StratosError} from '../../../errors/stratos-error.ts';
import {describeError, type OpenCodeClient} from './session.ts';

/** @throws StratosError STRATOS_AGENT_INIT_FAILED when OpenCode creates no session. */
export async function createOpenCodeSession(client: OpenCodeClient, agent: string): Promise<string> {
  const created = await client.session.create({body: {}});
  if (created.data === undefined)
    throw new StratosError(
      'STRATOS_AGENT_INIT_FAILED',
      `Agent '${agent}' (opencode): OpenCode did not create a session: ${describeError(created.error)}`,
      {details: {agent, harness: 'opencode'}},
    );
  return created.data.id;
}

/**
 * The journaled session `id`, checked before any prompt: never a silent fresh conversation.
 * @throws StratosError STRATOS_RESUME_CONVERSATION_UNSUPPORTED when OpenCode no longer has it.
 */
export async function findOpenCodeSession(
  client: OpenCodeClient,
  agent: string,
  id: string,
): Promise<string> {
  const found = await client.session.get({path: {id}});
  if (found.data?.id === id) return id;
  throw new StratosError(
    'STRATOS_RESUME_CONVERSATION_UNSUPPORTED',
    `Agent '${agent}' cannot continue its OpenCode session ${id}: OpenCode does not have it (${describeError(found.error)}); it keeps sessions in its data folder (XDG_DATA_HOME/opencode, by default ~/.local/share/opencode) for the project of the agent's directory, so a removed data folder or another directory loses it. Nothing was sent; run the workflow anew with 'stratos run'.`,
    {details: {agent, harness: 'opencode', conversation: id}},
  );
}
