/**
 * The one table of Stratos error and warning codes. Codes are API: add new ones, never rename or reuse one;
 * a retired code stays here marked deprecated. `docs/errors.md` lists the same codes (a test compares them).
 */
export const errorCodes = {
  // CLI
  STRATOS_CLI_USAGE: 'A command, flag or argument is unknown, missing or malformed.',
  STRATOS_CLI_NODE_VERSION: 'Stratos needs Node.js 24 or newer.',

  // manifest (workflow.yaml)
  STRATOS_MANIFEST_UNREADABLE: 'workflow.yaml could not be read.',
  STRATOS_MANIFEST_TOO_LARGE: 'workflow.yaml is over the 1 MiB size limit or the 10,000 line limit.',
  STRATOS_MANIFEST_TOO_DEEP: 'workflow.yaml nests mappings and lists more than 64 levels deep.',
  STRATOS_MANIFEST_ALIAS_LIMIT:
    'workflow.yaml uses more than 1,000 YAML aliases, or its aliases stand for more than 10,000 values in all.',
  STRATOS_MANIFEST_PROBLEMS_TRUNCATED:
    'workflow.yaml has more than 100 problems; the rest are counted, not listed.',
  STRATOS_MANIFEST_YAML_INVALID: 'workflow.yaml is not valid YAML.',
  STRATOS_MANIFEST_NOT_MAPPING: 'workflow.yaml must be a mapping of fields.',
  STRATOS_MANIFEST_FIELD_MISSING: 'A required manifest field is missing.',
  STRATOS_MANIFEST_FIELD_UNKNOWN: 'The manifest has a field Stratos does not know.',
  STRATOS_MANIFEST_FIELD_INVALID: 'A manifest field has the wrong type or format.',
  STRATOS_MANIFEST_LEGACY_DESCRIPTION:
    'The legacy description field must be replaced by shortDescription and longDescription.',
  STRATOS_MANIFEST_NAME_INVALID: 'The workflow name is not lowercase kebab-case of at most 64 characters.',
  STRATOS_MANIFEST_VERSION_INVALID: 'The version is not a semantic version string.',
  STRATOS_MANIFEST_ENTRYPOINT_INVALID:
    'The entrypoint is not a relative TypeScript path inside the workflow folder.',
  STRATOS_MANIFEST_DESCRIPTION_BLANK: 'A description is empty or only whitespace or invisible characters.',
  STRATOS_MANIFEST_DESCRIPTION_TOO_LONG: 'A description is over its hard limit in Unicode code points.',
  STRATOS_MANIFEST_DESCRIPTION_OVER_TARGET: 'Warning: a description is over its authoring target.',
  STRATOS_MANIFEST_DESCRIPTION_LINE_BREAK: 'shortDescription contains an internal line break.',
  STRATOS_MANIFEST_DESCRIPTION_CONTROL_CHARACTER:
    'A description contains a control character other than tab and line breaks (such as a terminal escape).',

  // discovery
  STRATOS_WORKFLOW_NOT_FOUND: 'No discovered workflow has that name or directory.',
  STRATOS_WORKFLOW_AMBIGUOUS: 'The name exists in both discovery roots; pass the directory path.',
  STRATOS_WORKFLOW_DUPLICATE_NAME: 'Two workflows in one discovery root share a name.',
  STRATOS_WORKFLOW_LINK_SKIPPED:
    'Warning: a workflow folder in a discovery root is a symbolic link, which discovery skips.',
  STRATOS_WORKFLOW_CYCLE: 'A workflow calls an ancestor that is still active (a call cycle).',
  STRATOS_WORKFLOW_CHILD_FAILED: 'A child workflow invocation failed.',
  STRATOS_WORKFLOW_CHILD_UNDECLARED:
    'A workflow called a child its build did not see: children are called through their generated wrapper (an import of <root>/.generated/<name>.js), never by a name computed at run time.',

  // contract (Zod schemas of workflow(...))
  STRATOS_CONTRACT_NOT_WORKFLOW: 'The entrypoint does not default-export workflow({input, output, run}).',
  STRATOS_CONTRACT_MODULE_FAILED: 'Evaluating the compiled workflow module threw.',
  STRATOS_CONTRACT_NOT_OBJECT: 'The input or output schema is not an object schema.',
  STRATOS_CONTRACT_DESCRIPTION_MISSING: 'A schema field has no description.',
  STRATOS_CONTRACT_INPUT_NOT_STRICT: 'An input object accepts unknown fields.',
  STRATOS_CONTRACT_UNSUPPORTED_TYPE: 'A schema uses a type that is not JSON-compatible.',
  STRATOS_CONTRACT_UNREPRESENTABLE:
    'A schema uses a transform, refinement or fallback that JSON Schema cannot describe.',
  STRATOS_CONTRACT_RESERVED_FIELD: 'The top-level input field overrides is reserved.',
  STRATOS_CONTRACT_REF_UNRESOLVED: 'An exported JSON Schema has a $ref that does not resolve inside it.',

  // build
  STRATOS_BUILD_ENTRYPOINT_MISSING: 'The workflow entrypoint file does not exist.',
  STRATOS_BUILD_TYPE_ERROR: 'TypeScript reported an error in the workflow code.',
  STRATOS_BUILD_COMPILER_FAILED: 'The TypeScript compiler could not be run.',
  STRATOS_BUILD_PACKAGE_JSON_INVALID: "The workflow's package.json is not valid JSON.",
  STRATOS_BUILD_COMMONJS_PACKAGE: "The workflow's package.json declares CommonJS.",
  STRATOS_BUILD_SDK_SHADOWED: 'The workflow would load its own copy of @stratoscli/stratos.',
  STRATOS_BUILD_ZOD_INCOMPATIBLE: 'The workflow declares a zod whose major version differs from the runtime.',
  STRATOS_BUILD_DEPENDENCY_INSTALL_FAILED: "Installing the workflow's npm dependencies failed.",
  STRATOS_BUILD_PACKAGE_TYPE_ADDED: 'Warning: "type": "module" was added to the workflow package.json.',
  STRATOS_BUILD_GENERATED_TRACKED: 'Warning: a generated file is tracked by Git.',
  STRATOS_BUILD_GENERATED_UNWRITABLE:
    'A generated file cannot be written: a folder or special file is at its path.',
  STRATOS_BUILD_CHILD_FAILED: 'A child workflow the workflow imports failed to build.',
  STRATOS_BUILD_FAILED: 'One or more workflows failed to build.',
  STRATOS_BUILD_OUTPUT_UNSAFE:
    'A build output folder or entry (dist/, generated/, <root>/.generated/, <root>/node_modules/, <root>/package.json) is a symbolic link, resolves elsewhere, or is not the kind of entry Stratos writes; nothing was written or deleted.',
  STRATOS_BUILD_LOCK_TIMEOUT: 'Another process kept building the workflow for too long.',
  STRATOS_BUILD_AUTHORED_IN_OWNED_FOLDER:
    'The workflow imports a file Stratos did not write from a folder it owns (dist/, generated/, <root>/.generated/).',
  STRATOS_BUILD_IGNORE_RULES_SKIPPED:
    "Warning: the root's .gitignore is a symbolic link that does not lead to a file inside the root, so its ignore rules were not added.",
  STRATOS_BUILD_OWNED_FILE_KEPT:
    'Warning: stratos clean left a file in dist/ or generated/ because Stratos did not write it.',

  // invocation
  STRATOS_INPUT_JSON_INVALID: 'The --input text is not a JSON object.',
  STRATOS_INPUT_FILE_UNREADABLE: 'The file named by --input-file cannot be read.',
  STRATOS_INPUT_TOO_LARGE: 'The input read from stdin (--input -) or --input-file is over the 64 MiB limit.',
  STRATOS_INPUT_INVALID: 'The input does not match the workflow input schema.',
  STRATOS_OUTPUT_INVALID: 'The value run returned does not match the output schema.',
  STRATOS_RUN_FAILED: 'The workflow run function threw.',
  STRATOS_RUN_CANCELLED: 'The run was cancelled (SIGINT, SIGTERM or its parent ended).',
  STRATOS_RUN_NEVER_SETTLED:
    'The workflow run function never settled: the process had nothing left to wait for while it was pending.',
  STRATOS_RUN_UNCAUGHT_ERROR:
    'Workflow code threw an exception or rejected a promise that nothing handled while the run was in progress.',
  STRATOS_RUN_PROCESS_EXIT: 'Workflow code called process.exit during a command; Stratos refuses it.',
  STRATOS_RUN_INTERRUPTED:
    'The process running the workflow ended (killed or crashed) before it recorded a result.',
  STRATOS_RUNTIME_NO_CONTEXT: 'An execution primitive was called outside a running workflow.',
  STRATOS_RUNTIME_CONTEXT_CLOSED: 'The workflow invocation has ended; no new work can start.',
  STRATOS_CLEANUP_FAILED:
    "Warning: a resource the invocation owned (an MCP client, an agent) failed to close; the run's result or error stands.",

  // MCP wrapper code generation
  STRATOS_MCP_SERVER_NAME_INVALID: 'An MCP server key cannot be used as a wrapper file name.',
  STRATOS_MCP_TOOL_NAME_DUPLICATE: 'An MCP server listed two tools with the same name.',

  // MCP connections, discovery and tool calls
  STRATOS_MCP_SERVER_UNKNOWN: 'The MCP server is not configured in mcp.servers of workflow.yaml.',
  STRATOS_MCP_CONNECT_FAILED: 'Connecting to an MCP server (transport or protocol preparation) failed.',
  STRATOS_MCP_AUTH_FAILED:
    'Deprecated, never raised: MCP OAuth failures are AuthenticationErrors with STRATOS_AUTH_* codes.',
  STRATOS_MCP_CONNECT_TIMEOUT:
    'An MCP server did not answer the connect request within the connect limit (30 s).',
  STRATOS_MCP_DISCOVERY_FAILED: 'Listing the tools of an MCP server for its wrapper failed.',
  STRATOS_MCP_REQUEST_TIMEOUT: 'An MCP request did not complete within its time limit.',
  STRATOS_MCP_CALL_FAILED: 'An MCP tool call failed before it produced a result.',
  STRATOS_MCP_CALL_CANCELLED: 'An MCP tool call was cancelled because its connection or invocation ended.',
  STRATOS_MCP_TOOL_ERROR: 'An MCP tool returned a result with isError: true.',
  STRATOS_MCP_OUTPUT_MISSING: 'A tool that declares an output schema returned no structured content.',
  STRATOS_MCP_OUTPUT_INVALID: "A tool's structured content does not match its declared output schema.",
  STRATOS_MCP_RESULT_TOO_LARGE:
    "An MCP server's answer is larger than the client's message limit (10 MiB, over stdio and HTTP alike).",
  STRATOS_MCP_RESULT_TOO_DEEP:
    "An MCP server's answer is nested more than 100 levels deep, the limit of values Stratos reads and records.",

  // configuration references ({env:NAME}, {file:path})
  STRATOS_CONFIG_REFERENCE_INVALID: 'A {env:...} or {file:...} reference is malformed.',
  STRATOS_CONFIG_ENV_MISSING: 'An environment variable named by an {env:NAME} reference is not set.',
  STRATOS_CONFIG_FILE_MISSING: 'A file named by a {file:path} reference cannot be read.',
  STRATOS_CONFIG_FILE_PERMISSIONS:
    'A secret file named by a {file:path} reference is accessible to group or others.',
  STRATOS_CONFIG_FILE_NOT_REGULAR:
    'A {file:path} reference names a directory, FIFO, device or socket instead of a regular file.',

  // configuration and settings
  STRATOS_SETTINGS_INVALID: '~/.stratos/settings.json is malformed.',

  // telemetry and recorded runs (best effort: these are warnings, never run failures)
  STRATOS_TELEMETRY_ARTIFACT_FAILED:
    'Warning: a local run artifact (run.json, run.log, events.jsonl) could not be written.',
  STRATOS_TELEMETRY_EXPORT_FAILED: 'Warning: exporting traces to a destination failed.',
  STRATOS_TELEMETRY_DESTINATION_INVALID:
    'Warning: a trace destination could not be set up (such as an unresolved header).',
  STRATOS_TELEMETRY_RECORDING_FAILED: 'Warning: recording an operation or event failed.',
  STRATOS_RUNS_NOT_FOUND: 'No recorded run matches the given run id.',
  STRATOS_RUNS_AMBIGUOUS: 'The run id prefix matches more than one recorded run.',
  STRATOS_RUNS_UNREADABLE: "A recorded run's run.json or events.jsonl cannot be read.",

  // the local runs page (stratos runs open)
  STRATOS_VIEWER_PORT_UNAVAILABLE: 'The runs page could not listen on the requested 127.0.0.1 port.',
  STRATOS_VIEWER_BROWSER_FAILED:
    'Warning: the browser could not be opened for the runs page; the printed URL still works.',
  STRATOS_VIEWER_ASSETS_MISSING: 'The runs page scripts are missing (a source checkout that was not built).',

  // agents and prompts
  STRATOS_AGENT_CONFIG_UNKNOWN:
    'createAgent named an agent configuration that workflow.yaml does not declare.',
  STRATOS_AGENT_CONFIG_INVALID:
    'An agent setting (workflow.yaml, overrides or code) has the wrong type or value.',
  STRATOS_AGENT_MCP_UNKNOWN: 'allowedMcps names a server that mcp.servers of workflow.yaml does not declare.',
  STRATOS_AGENT_TOOL_UNKNOWN:
    'allowedTools or disallowedTools names a tool the selected harness does not have.',
  STRATOS_AGENT_HARNESS_MISSING: 'The SDK package of the selected agent harness is not installed.',
  STRATOS_AGENT_BUSY: 'execute was called while the same agent was still executing.',
  STRATOS_AGENT_INIT_FAILED: 'Starting the native session of an agent failed; a later execute may retry.',
  STRATOS_AGENT_RUN_FAILED: 'An agent execution failed in the harness.',
  STRATOS_AGENT_CANCELLED: 'An agent execution was cancelled (cancel() or the invocation ended).',
  STRATOS_AGENT_OUTPUT_MISSING: 'An agent with an output schema ended without a structured result.',
  STRATOS_AGENT_OUTPUT_INVALID: 'The structured result of an agent does not match its output schema.',
  STRATOS_AGENT_HOOK_FAILED: 'An agent hook threw; the execution fails.',
  STRATOS_AGENT_HOOK_UNSUPPORTED:
    "A hook decided something the agent's harness cannot carry out (an ACP agent: modify a tool call's input or withhold its result); the execution fails.",
  STRATOS_AGENT_HOOK_UNGUARDED:
    'An agent has a beforeTool hook while a built-in tool that no hook of its harness can see is enabled; remove that tool with disallowedTools.',
  STRATOS_AGENT_MODEL_UNMAPPED:
    'A model preference has no native model id for any harness and provider it could run on.',
  STRATOS_AGENT_NO_CANDIDATE:
    'No model preference of an agent is ready: every candidate was skipped, with why.',
  STRATOS_AGENT_CATALOG_INVALID: 'A provider model catalog answered with something that is not a model list.',
  STRATOS_AGENT_CATALOG_DENIED:
    'A provider model catalog refused the configured credentials (HTTP 401 or 403).',
  STRATOS_AGENT_CATALOG_UNREACHABLE:
    'A provider model catalog could not be reached or answered with an error.',
  STRATOS_AGENT_ADMISSION_LIMIT:
    'More agent executions are outstanding in this run than agents.maxOutstanding allows.',
  STRATOS_PROMPT_INVALID: 'A prompt reference or Handlebars template is malformed.',
  STRATOS_PROMPT_FILE_MISSING: 'A prompt file or template file cannot be read.',
  STRATOS_PROMPT_VARIABLE_MISSING: 'A prompt template uses a variable that was not given.',
  STRATOS_AUTH_REQUIRED: 'No usable authentication (API credentials or native login) is available.',

  // MCP OAuth sign-in, refresh and credentials (~/.stratos/credentials.json)
  STRATOS_AUTH_CONFIG_INVALID: 'The auth: {type: oauth} settings of an MCP server cannot be used as given.',
  STRATOS_AUTH_DISCOVERY_FAILED:
    "The MCP server's protected-resource or authorization-server metadata could not be read.",
  STRATOS_AUTH_SERVER_MISMATCH:
    'The authorization server differs from the one first bound to this MCP URL and client id; nothing was sent.',
  STRATOS_AUTH_REGISTRATION_FAILED:
    'Registering Stratos as an OAuth client with the authorization server failed.',
  STRATOS_AUTH_BROWSER_FAILED:
    'The browser for OAuth sign-in could not be opened; the URL is in the message.',
  STRATOS_AUTH_CALLBACK_PORT_UNAVAILABLE: 'The OAuth callback listener could not bind its 127.0.0.1 port.',
  STRATOS_AUTH_CALLBACK_ERROR: 'The authorization server redirected back with an error instead of a code.',
  STRATOS_AUTH_STATE_MISMATCH: 'The OAuth callback carried a state that this sign-in did not issue.',
  STRATOS_AUTH_TIMEOUT: 'OAuth sign-in did not complete within its time limit (five minutes).',
  STRATOS_AUTH_CANCELLED: 'OAuth sign-in was cancelled because its invocation or command ended.',
  STRATOS_AUTH_TOKEN_EXCHANGE_FAILED: 'Exchanging the authorization code for tokens failed.',
  STRATOS_AUTH_REFRESH_FAILED:
    'Refreshing an access token failed (network or server error); stored credentials were kept.',
  STRATOS_AUTH_TOKEN_TOO_SHORT:
    'An access token has five minutes or less left; the workflow body did not run.',
  STRATOS_AUTH_NOT_SIGNED_IN: 'No stored credentials match the MCP server (run stratos mcp login).',
  STRATOS_CREDENTIALS_MALFORMED:
    '~/.stratos/credentials.json is not a valid version 1 credential file; it was left as it is.',
  STRATOS_CREDENTIALS_PERMISSIONS:
    '~/.stratos/credentials.json or its directory is accessible to other users or owned by another.',
  STRATOS_CREDENTIALS_NOT_FILE:
    '~/.stratos/credentials.json is a symbolic link, a folder or another non-regular file; it was left as it is.',
  STRATOS_CREDENTIALS_LOCK_TIMEOUT: 'A credential file or refresh lock could not be acquired in time.',
  STRATOS_CREDENTIALS_WRITE_FAILED:
    'Saving credentials failed; rotated tokens are kept in a pending file for recovery.',

  // skill management (stratos skill install | status | uninstall)
  STRATOS_SKILL_INSTALL_FAILED: 'The skill could not be installed for one or more selected agents.',
  STRATOS_SKILL_UNINSTALL_FAILED: 'A skill link Stratos made could not be removed for a selected agent.',
  STRATOS_SKILL_FOREIGN_ENTRY:
    'An entry Stratos did not make is at the skill path of an agent; it was left as it is.',
  STRATOS_SKILL_FOREIGN_KEPT: 'Warning: uninstall left an entry at a skill path that Stratos did not make.',
  STRATOS_SKILL_FOLDER_UNUSABLE:
    "An agent's skills folder cannot be read, created or written (permissions, read-only, a broken link).",
  STRATOS_SKILL_BUNDLE_MISSING: 'The bundled skill directory is missing from the Stratos package.',
  STRATOS_SKILL_RECORDS_INVALID: 'The skill ownership records file is malformed; it was left as it is.',

  // MCP OAuth client-credentials grant (machine clients, SEP-1046; nothing is stored from a failed attempt)
  STRATOS_AUTH_GRANT_UNSUPPORTED:
    'The authorization server does not offer the client-credentials grant, or not to this client.',
  STRATOS_AUTH_METHOD_UNSUPPORTED:
    'The authorization server does not accept the configured client authentication method or signing algorithm.',
  STRATOS_AUTH_KEY_INVALID:
    'The private key of a client-credentials configuration cannot sign a client assertion.',
  STRATOS_AUTH_CLIENT_REJECTED:
    'The authorization server rejected the client id, client secret or client assertion.',
  STRATOS_AUTH_TOKEN_REQUEST_FAILED:
    'A client-credentials token request failed (unreachable server, server error or refused scope).',

  // Worktrees (agent checkouts under <repo>/.stratos/worktrees/, bookkeeping under ~/.stratos/worktrees/)
  STRATOS_WORKTREE_NOT_A_REPOSITORY:
    'An agent with a worktree setting works in a directory that is not inside a Git repository.',
  STRATOS_WORKTREE_NAME_INVALID: 'A worktree name is not a lowercase name usable as a folder and branch.',
  STRATOS_WORKTREE_PATH_CONFLICT:
    'The worktree path holds something that is not a worktree of the repository; it was left untouched.',
  STRATOS_WORKTREE_CREATE_FAILED: 'Creating or recreating a worktree with git failed.',
  STRATOS_WORKTREE_LOCK_TIMEOUT:
    'A worktree lock stayed held past its wait (5 s for bookkeeping, 30 s for git commands); it was never stolen.',
  STRATOS_WORKTREE_BASE_LOCAL_HEAD:
    'Warning: refs/remotes/origin/HEAD is missing, so a new worktree branch started from local HEAD.',
  STRATOS_WORKTREE_KEPT_CHANGES:
    'Warning: a worktree checkout was kept because it has staged, unstaged or untracked changes.',
  STRATOS_WORKTREE_KEPT_COMMITS:
    'Warning: a worktree checkout was kept because its HEAD has commits no branch, tag or remote contains.',
  STRATOS_WORKTREE_KEPT_STASH: 'Warning: a worktree checkout was kept because a stash was made in it.',
  STRATOS_WORKTREE_KEPT_UNVERIFIED:
    'Warning: a worktree checkout was kept because safe cleanup could not be established (git failed, lock held, not a worktree).',
  STRATOS_WORKTREE_RECORD_INVALID:
    'A worktree bookkeeping record under ~/.stratos/worktrees/ is malformed; it was left as it is.',
  STRATOS_WORKTREE_GIT_FAILED: "Listing a repository's worktrees with git (git worktree list) failed.",

  // Decision and the Ollama provider
  STRATOS_DECISION_CONFIG_UNKNOWN:
    'decision() named a decision configuration that workflow.yaml does not declare.',
  STRATOS_DECISION_CONFIG_INVALID:
    'A decision setting (workflow.yaml, overrides or code) has the wrong type or value, or no model is set.',
  STRATOS_DECISION_PROVIDER_UNSUPPORTED:
    'A decision configuration names a provider Stratos does not implement (only ollama exists).',
  STRATOS_DECISION_QUESTION_INVALID:
    'A decision question (its name, instructions, options or levels) cannot be asked as given.',
  STRATOS_DECISION_STATE_INVALID:
    'The state of a decision is not JSON data (text, numbers, objects, arrays).',
  STRATOS_DECISION_STATE_TOO_LARGE:
    "The decision request does not fit the model's advertised context or the provider's request limit; nothing was sent.",
  STRATOS_DECISION_LOGPROBS_MISSING:
    'The server or model returned no token log-probabilities for the answer, so no probability can be given.',
  STRATOS_DECISION_ANSWER_INVALID:
    'The provider returned an answer that does not match the questions (names, types, options or ranges).',
  STRATOS_DECISION_REQUEST_FAILED:
    'The decision request failed: a status that is not retried, or every retry failed.',
  STRATOS_DECISION_CANCELLED: 'A decision was cancelled (its invocation ended or its signal aborted).',
  STRATOS_OLLAMA_ENDPOINT_INVALID:
    'The selected Ollama endpoint (baseUrl or OLLAMA_HOST) is not an http(s) URL.',
  STRATOS_OLLAMA_UNREACHABLE: 'The selected Ollama server did not answer; no other endpoint was tried.',
  STRATOS_OLLAMA_REQUEST_FAILED: 'The Ollama server answered a request with an error status.',
  STRATOS_OLLAMA_MODEL_NOT_INSTALLED:
    'The Ollama model is not installed on the selected server; nothing is downloaded.',
  STRATOS_OLLAMA_MODEL_CAPABILITY_MISSING:
    'The Ollama model does not advertise a capability the request needs (/api/show capabilities).',

  // Ollama agents (provider: ollama with an explicit codex or opencode harness)
  STRATOS_AGENT_EFFORT_UNSUPPORTED:
    'An Ollama agent sets effort: hosted reasoning levels are not translated; the local model uses its own defaults.',

  // stratos test (saved cases beside a workflow, scripted answers, stratos runs record)
  STRATOS_TEST_CASE_INVALID:
    'A test case file under <workflow>/tests/ is not valid YAML or JSON, or has a field of the wrong shape.',
  STRATOS_TEST_CASE_NEEDS_VALUE:
    "A test case still holds the placeholder '[NEEDS VALUE]' that stratos runs record left for a value to write.",
  STRATOS_TEST_CASE_EXISTS: 'stratos runs record would overwrite an existing test case file.',
  STRATOS_TEST_CASE_NAME_INVALID:
    'A test case name is not lowercase kebab-case of at most 64 characters, or is a reserved device name.',
  STRATOS_TEST_CASE_WRITE_FAILED: 'stratos runs record could not create the test case file.',
  STRATOS_TEST_NO_CASES: 'The workflow has no test cases under <workflow>/tests/.',
  STRATOS_TEST_CALL_UNSCRIPTED:
    'During stratos test, the workflow made an agent, decision, MCP or child call its case does not script.',
  STRATOS_TEST_SCRIPT_UNUSED:
    'A test case scripts an agent reply, decision answer, MCP or child result the workflow never asked for.',
  STRATOS_TEST_SCRIPT_INVALID:
    "A test case scripts a child workflow's output that does not match the child's output schema.",
  STRATOS_TEST_OUTPUT_MISMATCH:
    'A test case ran, but its output (or error) differs from what the case expects.',
  STRATOS_TEST_CASES_FAILED: 'stratos test ran its cases and at least one failed or errored.',
  STRATOS_TEST_RECORD_NEEDS_VALUE:
    'Warning: a recorded test case holds redacted, truncated or unrecorded values that need a real value before it replays.',

  // stratos new (a workflow from a template) and stratos doctor (checks of the setup)
  STRATOS_NEW_FOLDER_EXISTS:
    'stratos new would write into a folder that already exists; it never overwrites.',
  STRATOS_NEW_TEMPLATE_UNKNOWN: 'stratos new was given a template that is not bundled with Stratos.',
  STRATOS_DOCTOR_PROBLEMS: 'stratos doctor found something that needs fixing; each check says how.',

  // cost and budgets (budget: in workflow.yaml, overrides.budget, stratos run --budget-usd/--budget-tokens)
  STRATOS_BUDGET_EXCEEDED:
    'The run (or a child workflow) has spent its token or USD budget; the agent execute or decision was not sent.',
  STRATOS_BUDGET_INVALID:
    'A budget is not a mapping of a positive `tokens` count and/or a positive `usd` amount.',
  STRATOS_BUDGET_PRICE_UNKNOWN:
    'A USD budget cannot be enforced on a model whose price is unknown; set a `tokens` budget too, or pick a priced model.',
  // durable runs (the step journal, step(), stratos runs resume)
  STRATOS_STEP_INVALID: 'step() was called without a name or a function, or with a name it cannot key.',
  STRATOS_STEP_RESULT_INVALID:
    'A step() function returned a value that is not JSON data, so it cannot be journaled and replayed.',
  STRATOS_RESUME_JOURNAL_FAILED:
    "A completed step could not be written to the run's journal, so its result was not handed back.",
  STRATOS_RESUME_DIVERGED:
    'On resume, the workflow asked for a different step, or the same step with other arguments, than the journal holds.',
  STRATOS_RESUME_NOT_RESUMABLE:
    'The run cannot be resumed: it succeeded, is still running, or has no journal and recorded input.',
  STRATOS_RESUME_FILES_CHANGED:
    "The workflow's authored files changed since the run, so its journal may no longer match (see --allow-changed).",
  STRATOS_RESUME_CONVERSATION_UNSUPPORTED:
    "An agent's earlier turns were replayed but its harness cannot continue that native conversation.",
  STRATOS_RESUME_WORKTREE_MISSING:
    'The worktree checkout an interrupted run used is missing or moved, so the resume cannot continue in it.',

  // queued runs and workers (the scale-out engine on DBOS and PostgreSQL, docs/scale-out.md)
  STRATOS_ENGINE_NOT_CONFIGURED:
    'A queue command ran without an engine in settings.json or STRATOS_ENGINE_DATABASE_URL.',
  STRATOS_ENGINE_PACKAGE_MISSING:
    "The engine's optional packages (@dbos-inc/dbos-sdk, pg) are not installed.",
  STRATOS_ENGINE_DATABASE_FAILED:
    "The engine's PostgreSQL database could not be reached or refused a statement.",
  STRATOS_QUEUE_UNKNOWN: 'A run or worker named a queue that settings.json does not declare.',
  STRATOS_QUEUE_NOT_IN_REPOSITORY:
    'A queued run must start inside a Git repository with a commit, and its workflow must live in it.',
  STRATOS_QUEUE_REPOSITORY_MISSING:
    "The worker that took a queued run does not hold the run's repository (recorded on the run).",
  STRATOS_QUEUE_RUN_FAILED: 'A queued run ended without a result from the worker (an engine failure).',
  STRATOS_WORKER_ID_IN_USE: 'Another worker with the same id is running on this machine.',
  STRATOS_QUEUE_SESSION_ELSEWHERE:
    "A recovered queued run's agent would continue a native conversation or worktree held by another machine.",

  // anything unexpected
  STRATOS_INTERNAL: 'An unexpected error inside Stratos; please report it.',
} as const;

export type ErrorCode = keyof typeof errorCodes;
