export type {SkillLinkState, SkillLinkStatus} from './inspect-skill-link.ts';
export type {InstallSkillResult, SkillInstallOutcome} from './install-skill.ts';
export {installSkill} from './install-skill.ts';
export {bundledSkillName, isSkillAgentId, type SkillAgentId, skillAgentIds} from './skill-agents.ts';
export type {SkillStatusEntry, SkillStatusResult} from './skill-status.ts';
export {getSkillStatus} from './skill-status.ts';
export type {SkillUninstallOutcome, UninstallSkillResult} from './uninstall-skill.ts';
export {uninstallSkill} from './uninstall-skill.ts';
