import type { NodeConnectionType } from 'n8n-workflow';

/**
 * The main connection, as the string every supported host compares. Not `NodeConnectionTypes.Main`: older
 * n8n-workflow releases (the one n8n 1.70.0 ships, for one) do not export `NodeConnectionTypes`, and a node that reads
 * it fails to load there. The type still comes from n8n-workflow, so a misspelt value does not compile.
 */
export const MAIN_CONNECTION: NodeConnectionType = 'main';
