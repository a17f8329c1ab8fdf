/**
 * Sequelize `console.warn`s when it gives up a transaction whose BEGIN,
 * ROLLBACK or COMMIT failed ("We are killing its connection as it is now in
 * an undetermined state"), sometimes after the request has been answered.
 * A test file that provokes such failures on purpose (and asserts that the
 * connection was closed) calls this once: those lines, which read like a
 * failure in the suite's output, are dropped; any other warning still prints.
 */
const GIVEN_UP = /^(Rolling back|Committing) transaction \S+ failed with error .*We are killing its connection as it is now in an undetermined state\.$/;

export function dropTransactionWarnings(): void {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (args.length === 1 && typeof args[0] === 'string' && GIVEN_UP.test(args[0])) return;
    warn(...args);
  };
}
