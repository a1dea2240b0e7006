import 'reflect-metadata';

// Two shared cores: an app in a test embeds nothing (no model thread, no
// embedding jobs) unless the test asks for it with TOTAL_RECALL_EMBEDDINGS=on
// in the env it passes to startTestApp (test/integration/embeddings.test.ts).
process.env.TOTAL_RECALL_EMBEDDINGS ??= 'off';

// Tokens live in the shared database: an app in a test admits anonymous
// callers unless the test opts in (test/integration/security.test.ts passes
// TOTAL_RECALL_AUTH=on in its env), so one file's tokens never change another's.
process.env.TOTAL_RECALL_AUTH ??= 'off';
