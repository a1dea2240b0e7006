/**
 * What clients of the MCP endpoint need to know, with no imports, so the CLI
 * and the stdio bridge load it without the service.
 */

/**
 * The header with which a client names the store its calls use when they name
 * none: the CLI and the stdio bridge send the store of their working directory.
 */
export const STORE_HEADER = 'x-total-recall-store';

/** Where an error result carries its code and message: `_meta["total-recall/error"]`. */
export const ERROR_META_KEY = 'total-recall/error';
