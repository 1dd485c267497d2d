/** The umbrella's own commands (not routed to a tool), as `okstra --help` lists them; kept apart from commander. */
export const OWN_COMMANDS = [
  { word: 'install', summary: 'copy the lead/worker texts and the skills to where Claude Code, Codex and Antigravity load them' },
  { word: 'completion', summary: 'print the bash or zsh completion script for okstra and the tool bins' },
] as const;
