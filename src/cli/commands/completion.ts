/**
 * `stratos completion bash|zsh|fish`: a completion script that asks the program itself for candidates
 * (`stratos __complete -- <words>`, ./complete.ts), so commands, options, workflow names and run ids stay current
 * without regenerating the script. The script calls the program by the name it was typed as (`stratos` or `st`).
 */
import {StratosError} from '../../errors/index.ts';
import type {CommandHandler} from './command.ts';
import {completionShells} from './table.ts';

const scripts: Record<(typeof completionShells)[number], string> = {
  bash: `# Stratos completion for bash. Load it with: source <(stratos completion bash)
# (add that line to ~/.bashrc to keep it). Candidates come from 'stratos __complete'.
_stratos_completion() {
  local IFS=$'\\n'
  local candidates
  candidates=$("\${COMP_WORDS[0]}" __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return 0
  COMPREPLY=($candidates)
}
complete -o default -F _stratos_completion stratos st
`,
  zsh: `#compdef stratos st
# Stratos completion for zsh. Load it with: source <(stratos completion zsh)
# (after 'autoload -Uz compinit && compinit' in ~/.zshrc), or save it as _stratos in a folder of $fpath.
# Candidates come from 'stratos __complete'.
_stratos() {
  local -a candidates
  candidates=("\${(@f)$(\${words[1]} __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  if [[ -z "\${candidates[1]}" ]]; then
    _files
  else
    compadd -- "\${candidates[@]}"
  fi
}
# Autoloaded from $fpath, this file is the body of _stratos: complete now. Sourced, register the function.
if [[ "\${funcstack[1]}" == _stratos ]]; then
  _stratos "$@"
else
  compdef _stratos stratos st
fi
`,
  fish: `# Stratos completion for fish. Load it with: stratos completion fish | source
# (or save it as ~/.config/fish/completions/stratos.fish). Candidates come from 'stratos __complete'.
function __stratos_complete
    set -l tokens (commandline -opc)
    set -l candidates ($tokens[1] __complete -- $tokens[2..-1] (commandline -ct) 2>/dev/null)
    if set -q candidates[1]
        printf '%s\\n' $candidates
    else
        __fish_complete_path (commandline -ct)
    end
end
complete -c stratos -f -a '(__stratos_complete)'
complete -c st -f -a '(__stratos_complete)'
`,
};

export const completionCommand: CommandHandler = async (command) => {
  const shell = command.positionals[0];
  if (shell === undefined || !Object.hasOwn(scripts, shell)) {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      `${shell === undefined ? "'stratos completion' needs a shell" : `There is no completion for the shell '${shell}'`}: pass one of ${completionShells.join(', ')}, for example 'source <(stratos completion bash)'.`,
      {details: {shells: [...completionShells]}},
    );
  }
  const script = scripts[shell as keyof typeof scripts];
  return {
    ok: true,
    message: `Completion script for ${shell}`,
    data: {shell, script},
    warnings: [],
    human: script,
  };
};
