import 'reflect-metadata';

// Two shared cores: an app in a test embeds nothing (no model thread, no
// embedding jobs) unless the test asks for it with TOTAL_RECALL_EMBEDDINGS=on
// in the env it passes to startTestApp (test/integration/embeddings.test.ts).
process.env.TOTAL_RECALL_EMBEDDINGS ??= 'off';
