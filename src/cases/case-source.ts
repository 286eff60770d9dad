/**
 * A `stratos test` case as the run's source of recorded steps (`src/context/recorded-steps.ts`): each agent
 * execute, decision, call of a scripted MCP server and execute of a scripted child is answered by the case's
 * scripts (`case-script.ts`), which throw STRATOS_TEST_CALL_UNSCRIPTED when none matches. A `step()`, a child the
 * case does not script and a call of a server it does not name run live.
 */
import type {RecordedAnswer, RecordedSteps, StepFacts} from '../context/recorded-steps.ts';
import type {StepCall} from '../context/step-seam.ts';
import type {CaseScript} from './case-script.ts';

/** The recorded steps of one case. */
export function createCaseSource(script: CaseScript): RecordedSteps {
  return {
    answersServer: (call) => script.scriptsServer(call),
    open:
      ({call}) =>
      (facts) =>
        answerFromCase(script, call, facts),
  };
}

function answerFromCase(script: CaseScript, call: StepCall, facts: StepFacts): RecordedAnswer | undefined {
  const workflow = call.workflow ?? '';
  switch (call.kind) {
    case 'agent':
      return {source: 'case', value: script.agent({workflow, agent: call.name, prompt: facts.prompt ?? ''})};
    case 'decision': {
      const questions = Object.keys((call.arguments as {questions: Record<string, unknown>}).questions);
      return {source: 'case', value: script.decision({workflow, decision: call.name, questions})};
    }
    case 'mcp': {
      const server = facts.server ?? '';
      if (!script.scriptsServer({workflow, server})) return undefined;
      const args = (call.arguments ?? {}) as Record<string, unknown>;
      return {
        source: 'case',
        value: script.mcpCall({workflow, server, tool: facts.tool ?? '', arguments: args}),
      };
    }
    case 'child': {
      const child = call.name;
      const value = script.child({workflow, child, input: facts.input});
      if (value === undefined) return undefined;
      return {source: 'case', value, reject: (problem) => script.rejectChild({workflow, child, problem})};
    }
    default:
      return undefined;
  }
}
