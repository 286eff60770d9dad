import {StratosError} from './stratos-error.ts';

export interface InputIssue {
  /** Dotted path of the field (`options.items[2].id`); empty for the whole input. */
  path: string;
  message: string;
}

/** The invocation input was rejected before the workflow ran; `issues` lists every problem with its path. */
export class WorkflowInputError extends StratosError {
  readonly issues: InputIssue[];

  constructor(workflow: string, issues: InputIssue[]) {
    const lines = issues.map((issue) => `  ${issue.path === '' ? '(input)' : issue.path}: ${issue.message}`);
    super(
      'STRATOS_INPUT_INVALID',
      `The input does not match the input schema of workflow '${workflow}':\n${lines.join('\n')}\nRun 'stratos schema ${workflow}' to see the accepted fields.`,
      {details: {workflow, issues}},
    );
    this.name = 'WorkflowInputError';
    this.issues = issues;
  }
}
