/** The synapse context: see ARCHITECTURE.md §1. Its actor is added by its own issue. */
export const CONTEXT = 'synapse' as const;
